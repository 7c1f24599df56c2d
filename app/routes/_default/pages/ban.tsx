import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/ban (public). */
export const Route = createFileRoute('/_default/pages/ban')({
  component: () => <InfoPage title={m.pages_ban_title()} body={m.pages_ban_body()} />,
})
