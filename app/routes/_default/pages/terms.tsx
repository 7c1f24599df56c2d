import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/terms (public). */
export const Route = createFileRoute('/_default/pages/terms')({
  component: () => <InfoPage title={m.pages_terms_title()} body={m.pages_terms_body()} />,
})
