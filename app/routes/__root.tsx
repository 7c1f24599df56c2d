import { createRootRouteWithContext, Outlet, useMatches } from '@tanstack/react-router'
import { type session, useSession } from '../data/session.ts'
import { rootClasses } from '../route-name.ts'
import { LoadingBar } from '../ui/LoadingBar.tsx'
import { NotFound } from '../ui/NotFound.tsx'
import { OfflineBanner } from '../ui/OfflineBanner.tsx'
import { Toasts } from '../ui/Toasts.tsx'
import { TopNav } from '../ui/TopNav.tsx'

/** Spec §9: the template setting defaults to classic. */
const TEMPLATE = 'classic'

export const Route = createRootRouteWithContext<{ session: typeof session }>()({
  // Optional-auth and public pages render at once from the stored user.
  beforeLoad: async ({ context }) => {
    await context.session.load()
  },
  component: Root,
  notFoundComponent: NotFound,
})

function Root() {
  const { user } = useSession()
  const leaf = useMatches({ select: (ms) => ms[ms.length - 1]?.routeId ?? '/' })
  return (
    <div id="app-root" className={rootClasses(TEMPLATE, user !== null, leaf)}>
      <LoadingBar />
      <TopNav />
      <OfflineBanner />
      <Outlet />
      <Toasts />
    </div>
  )
}
