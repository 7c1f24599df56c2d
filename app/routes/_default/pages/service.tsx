import { createFileRoute } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { InfoPage } from './-components/InfoPage.tsx'

/** Spec §2 /pages/service (public). */
export const Route = createFileRoute('/_default/pages/service')({
  component: () => <InfoPage title={m.pages_service_title()} body={m.pages_service_body()} />,
})
