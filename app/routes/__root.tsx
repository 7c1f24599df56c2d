import {
  createRootRouteWithContext,
  type ErrorComponentProps,
  Outlet,
  rootRouteId,
  useMatches,
} from '@tanstack/react-router'
import { lazy, Suspense, useEffect } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { type session, useSession } from '../data/session.ts'
import { useSettings } from '../data/useSettings.ts'
import {
  browserReloadDeps,
  isChunkLoadError,
  reloadForChunk,
} from '../features/site/chunk-reload.ts'
import { needsEntryWarning } from '../features/site/entry-warning-rule.ts'
import {
  DEV_PANEL_KEY,
  DEV_TEMPLATE_KEY,
  ENTRY_CONFIRMED_KEY,
  useFlag,
} from '../features/site/flags.ts'
import { rootClasses } from '../route-name.ts'
import { lookClasses, useLook } from '../theme/site.ts'
// The error page (with the navigation and footer it brings) stays in the
// shell: the default layout's pages need the same navigation and footer.
import { ErrorPage } from '../ui/ErrorPage.tsx'
import { LoadingBar } from '../ui/LoadingBar.tsx'
import { NotFound } from '../ui/NotFound.tsx'
import { Toasts } from '../ui/Toasts.tsx'

/** Loaded only on a niche site (adult content): the general site never downloads it. */
const EntryWarning = lazy(() =>
  import('../features/site/EntryWarning.tsx').then((mod) => ({ default: mod.EntryWarning })),
)

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
  notFoundComponent: () => <NotFound chrome />,
  errorComponent: RootError,
})

/**
 * The site's template (spec §2 root class): the operator's choice for this
 * host (settings), after the developer panel's preview (this device only).
 */
function useTemplate(site: string): string {
  const preview = useFlag(DEV_TEMPLATE_KEY)
  return preview ?? site
}

function Root() {
  const { user } = useSession()
  const settings = useSettings()
  // Spec §2/§9: the site's template (default classic) and niche, as the
  // server also wrote them on <html> for the first paint (app/theme).
  const look = useLook()
  const template = useTemplate(look.template)
  const entryConfirmed = useFlag(ENTRY_CONFIRMED_KEY) === '1'
  const devPanelOpen = useFlag(DEV_PANEL_KEY) === '1'
  const leaf = useMatches({ select: (ms) => ms[ms.length - 1]?.routeId ?? '/' })
  // No page matched (the error page): name it `error`, not after the root route.
  const page = leaf === rootRouteId ? '/error' : leaf
  return (
    <div
      id="app-root"
      className={`${rootClasses(template, user !== null, page)} ${lookClasses(look)}`}
    >
      <LoadingBar />
      <Outlet />
      <Toasts />
      {!entryConfirmed && needsEntryWarning(settings?.niche) && (
        <Suspense fallback={null}>
          <EntryWarning />
        </Suspense>
      )}
      {devPanelOpen && (
        <Suspense fallback={null}>
          <DevPanel />
        </Suspense>
      )}
    </div>
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
      <ErrorPage status={500} message={m.error_body()} />
    </div>
  )
}
