// /pricing (spec §2, public).
import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { countrySearch } from '../../features/credits/country-search.ts'
import { PricingPage } from '../../features/credits/PricingPage.tsx'

export const Route = createFileRoute('/_default/pricing')({
  validateSearch: countrySearch,
  component: function Pricing() {
    return <PricingPage title={m.credits_pricing_title()} country={Route.useSearch().country} />
  },
})
