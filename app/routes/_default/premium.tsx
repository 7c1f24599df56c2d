// /premium (spec §2, public): the same prices, put as what premium gets you.
import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { countrySearch } from '../../features/credits/country-search.ts'
import { PricingPage } from '../../features/credits/PricingPage.tsx'

export const Route = createFileRoute('/_default/premium')({
  validateSearch: countrySearch,
  component: function Premium() {
    return <PricingPage title={m.credits_premium_title()} country={Route.useSearch().country} />
  },
})
