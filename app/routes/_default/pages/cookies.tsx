import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/cookies (public). */
export const Route = createFileRoute('/_default/pages/cookies')({
  component: () => <InfoPage title={m.pages_cookies_title()} body={m.pages_cookies_body()} />,
})
