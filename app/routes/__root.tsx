import {
  createRootRouteWithContext,
  type ErrorComponentProps,
  Outlet,
  rootRouteId,
  useMatches,
} from '@tanstack/react-router'
import { lazy, Suspense, useEffect } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import type { session } from '../data/session.ts'
import {
  browserReloadDeps,
  isChunkLoadError,
  reloadForChunk,
} from '../features/site/chunk-reload.ts'
import { DEV_PANEL_KEY, useFlag } from '../features/site/flags.ts'
import { SiteFrame } from '../features/site/SiteFrame.tsx'
import { lookClasses, useLook } from '../theme/site.ts'
import { LazyErrorPage, LazyNotFound } from '../ui/LazyErrorPages.tsx'
import { LoadingBar } from '../ui/LoadingBar.tsx'
import { RouterNavigate } from '../ui/RouterNavigate.tsx'
import { Toasts } from '../ui/Toasts.tsx'
import { useIsClient } from '../ui/use-client.ts'

/** Loaded only when its flag opens it: members never download it otherwise. */
const DevPanel = lazy(() =>
  import('../features/site/DevPanel.tsx').then((mod) => ({ default: mod.DevPanel })),
)

export const Route = createRootRouteWithContext<{ session: typeof session }>()({
  // Optional-auth and public pages render at once from the stored user.
  beforeLoad: async ({ context }) => {
    await context.session.load()
  },
  component: Root,
  notFoundComponent: () => <LazyNotFound chrome />,
  errorComponent: RootError,
})

function Root() {
  const devPanelOpen = useFlag(DEV_PANEL_KEY) === '1'
  // A dialog over the page (a portal): not part of a prerendered page's HTML,
  // it opens once the page is hydrated.
  const client = useIsClient()
  const leaf = useMatches({ select: (ms) => ms[ms.length - 1]?.routeId ?? '/' })
  // No page matched (the error page): name it `error`, not after the root route.
  const page = leaf === rootRouteId ? '/error' : leaf
  return (
    // Links and navigations of components shared with the light entry (app/ui/AppLink.tsx).
    <RouterNavigate>
      <SiteFrame page={page}>
        <LoadingBar />
        <Outlet />
        <Toasts />
        {client && devPanelOpen && (
          <Suspense fallback={null}>
            <DevPanel />
          </Suspense>
        )}
      </SiteFrame>
    </RouterNavigate>
  )
}

/**
 * A page that failed. Spec §8: a chunk that failed to load reloads the page
 * (at most once per path per 10 s); anything else shows the error page.
 */
function RootError({ error }: ErrorComponentProps) {
  const chunk = isChunkLoadError(error)
  const look = useLook()
  useEffect(() => {
    if (chunk) reloadForChunk(window.location.pathname, browserReloadDeps())
  }, [chunk])
  return (
    <div id="app-root" className={`${look.template} ${lookClasses(look)} app-error-page`}>
      <LazyErrorPage status={500} message={m.error_body()} />
    </div>
  )
}
