// /_dev (spec §2 developer pages): for members only (below the _member guard)
// and never on a production configuration: the pages show only where the
// site runs in development (see useDevConfig).
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { useDevConfig } from '../../../features/site/DevPanel.tsx'

export const Route = createFileRoute('/_default/_member/_dev')({ component: DevGate })

function DevGate() {
  const dev = useDevConfig()
  if (dev === undefined)
    return (
      <main className="page">
        <p role="status">{m.loading()}</p>
      </main>
    )
  if (!dev)
    return (
      <main className="page page--narrow">
        <h1>{m.dev_index_title()}</h1>
        <p>{m.dev_off()}</p>
      </main>
    )
  return <Outlet />
}
