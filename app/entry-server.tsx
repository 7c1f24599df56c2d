// Server render of the public entry pages (README "Performance" → "HTML that
// paints before JavaScript"). Built by tools/ssr-vite-plugin.ts into
// dist-ssr/entry-server.js and called by the API server (api/site/prerender.ts)
// for visitors without a session cookie, so the first paint needs no script;
// app/main.tsx then hydrates the same tree. Members keep the plain shell.
import { RouterProvider } from '@tanstack/react-router'
import { createMemoryHistory } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { type Locale, locales, overwriteGetLocale } from '../messages/paraglide/runtime.js'
import { type PageSeed, setPageSeed } from './data/page-seed.ts'
import { session } from './data/session.ts'
import { createAppRouter } from './router.tsx'

/**
 * The pages a guest enters the site by, rendered so they paint before any
 * script runs: home, login, sign-up and a profile (landers get the landers' light
 * entry instead, api/server.ts). Any other page, and any of these that
 * redirects or is not found, gets the plain shell as before.
 */
export const PRERENDERED_ROUTES: ReadonlySet<string> = new Set([
  '/_default/',
  '/_default/login',
  '/_default/signup',
  '/_default/members/$memberId',
])

/** A guest's session: the server renders only for visitors without a session cookie. */
const guest: typeof session = {
  ...session,
  get: () => ({ user: null, known: true }),
  subscribe: () => () => true,
  ensureUser: async () => null,
  load: async () => null,
  stored: async () => null,
  assumeGuest: () => {},
  hydrated: () => {},
}

// Paraglide reads the locale from the browser's cookie and languages; on the
// server it is the request's, set right before each (synchronous) render.
let renderLocale: Locale = 'en'
overwriteGetLocale(() => renderLocale)

/**
 * The page at `url` (path and query) as HTML for the inside of #root, or null
 * when the page is not one to prerender for a guest.
 */
export async function renderPage(url: string, seed: PageSeed): Promise<string | null> {
  const locale = locales.find((l) => l === seed.locale)
  if (!locale) return null
  const router = createAppRouter({
    history: createMemoryHistory({ initialEntries: [url] }),
    session: guest,
  })
  await router.load()
  // A redirect or a guard leaves no matches; a page not found or failed
  // leaves a match that did not succeed: those get the plain shell.
  const { matches } = router.state
  const leaf = matches[matches.length - 1]
  if (!leaf || !PRERENDERED_ROUTES.has(leaf.routeId)) return null
  if (matches.some((match) => match.status !== 'success')) return null
  // Both are read during the render only, which runs to its end without
  // yielding: another request's render cannot interleave.
  renderLocale = locale
  setPageSeed(seed)
  try {
    return renderToString(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    )
  } finally {
    setPageSeed(null)
  }
}
