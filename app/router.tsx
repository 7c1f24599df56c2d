import { createRouter, type RouterHistory } from '@tanstack/react-router'
import { session } from './data/session.ts'
import { routeTree } from './routeTree.gen.ts'

/**
 * The app's router. The browser has one (`router`); the server render of a
 * prerendered page makes one per request (app/entry-server.tsx) with a memory
 * history and a guest's session.
 */
export function createAppRouter(
  options: { history?: RouterHistory; session?: typeof session } = {},
) {
  return createRouter({
    routeTree,
    history: options.history,
    context: { session: options.session ?? session },
    defaultPreload: 'intent',
    // In the server render it would write an inline script, which the CSP
    // refuses (docs/security.md, "Security headers"); the browser restores scroll itself.
    scrollRestoration: options.history === undefined,
  })
}

export const router = createAppRouter()

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

/**
 * The current page's code (its routes' split chunks) starts loading at once,
 * beside the root route's wait for the stored session, instead of after it:
 * on a repeat visit offline both come from this device, and one after the
 * other they were most of the time to the first paint (docs/performance.md,
 * "Repeat visit offline").
 */
export function preloadPageChunks(pathname: string): void {
  const [routes] = router.getMatchedRoutes(pathname)
  for (const route of routes) void router.loadRouteChunk(route)?.catch(() => undefined)
}
