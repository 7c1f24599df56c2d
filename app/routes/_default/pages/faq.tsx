import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/faq (public). */
export const Route = createFileRoute('/_default/pages/faq')({
  component: () => <InfoPage title={m.pages_faq_title()} body={m.pages_faq_body()} />,
})
