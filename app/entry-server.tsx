// Server render of the public entry pages (docs/performance.md, "HTML that
// paints before JavaScript"). Built by tools/ssr-vite-plugin.ts into
// dist-ssr/entry-server.js and called by the API server (api/site/prerender.ts)
// for visitors without a session cookie, so the first paint needs no script;
// the light entry (app/lander.tsx) then hydrates the same tree, without the
// router (app/guest-app.tsx). Members keep the plain shell.
import { type ReactNode, StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { guestPageOf } from '../api/contract/rules/slugs.ts'
import { type Locale, locales, overwriteGetLocale } from '../messages/paraglide/runtime.js'
import { type PageSeed, setPageSeed } from './data/page-seed.ts'
import { LoginPage } from './features/account/LoginPage.tsx'
import { loginSearch } from './features/account/login-search.ts'
import { SignupPage } from './features/account/SignupPage.tsx'
import { HomePage } from './features/site/HomePage.tsx'
import { GuestApp } from './guest-app.tsx'
import { ProfileView } from './ui/ProfileView.tsx'

// Paraglide reads the locale from the browser's cookie and languages; on the
// server it is the request's, set right before each (synchronous) render.
let renderLocale: Locale = 'en'
overwriteGetLocale(() => renderLocale)

/**
 * The page at `url` (path and query) as HTML for the inside of #root, or null
 * when it is not a guest's entry page (app `guestPageOf`), or a profile the
 * guest may not see (no profile in the seed): those get the plain shell.
 */
export async function renderPage(url: string, seed: PageSeed): Promise<string | null> {
  const locale = locales.find((l) => l === seed.locale)
  if (!locale) return null
  const { pathname, searchParams } = new URL(url, 'http://localhost')
  const page = guestPageOf(pathname)
  if (page === null) return null
  let view: ReactNode
  if (page === 'home') view = <HomePage />
  else if (page === 'signup') view = <SignupPage />
  else if (page === 'login')
    view = <LoginPage search={loginSearch(Object.fromEntries(searchParams))} />
  else if (seed.profile?.id === page.member) view = <ProfileView memberId={page.member} />
  else return null
  // Both are read during the render only, which runs to its end without
  // yielding: another request's render cannot interleave.
  renderLocale = locale
  setPageSeed(seed)
  try {
    return renderToString(
      <StrictMode>
        <GuestApp page={page}>{view}</GuestApp>
      </StrictMode>,
    )
  } finally {
    setPageSeed(null)
  }
}
