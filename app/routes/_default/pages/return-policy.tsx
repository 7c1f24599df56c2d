import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/return-policy (public). */
export const Route = createFileRoute('/_default/pages/return-policy')({
  component: () => (
    <InfoPage title={m.pages_return_policy_title()} body={m.pages_return_policy_body()} />
  ),
})
