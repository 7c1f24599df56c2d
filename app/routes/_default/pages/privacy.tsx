import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/privacy (public). */
export const Route = createFileRoute('/_default/pages/privacy')({
  component: () => <InfoPage title={m.pages_privacy_title()} body={m.pages_privacy_body()} />,
})
