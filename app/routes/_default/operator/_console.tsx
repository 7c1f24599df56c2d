// Every console page but the sign-in sits below this pathless route: it asks
// who is signed in, and anyone who is not staff gets the site's 404 page (the
// server already answered the page with 404). Sections by role. The console's
// code loads only here (dynamic import), never with a member's pages.
import { createFileRoute, notFound } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import type { StaffMe } from '../../../data/console-client.ts'
import { ConsoleLayout } from '../../../features/operator/ConsoleLayout.tsx'

export const Route = createFileRoute('/_default/operator/_console')({
  beforeLoad: async (): Promise<{ staff: StaffMe }> => {
    const { call } = await import('../../../data/console-client.ts')
    const res = await call('operatorMe')
    if (!res.ok) {
      if (res.error === 'offline') throw new Error(m.error_offline())
      throw notFound()
    }
    return { staff: res.data }
  },
  component: Console,
})

function Console() {
  const { staff } = Route.useRouteContext()
  return <ConsoleLayout staff={staff} />
}
