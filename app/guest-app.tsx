// A guest's first page without the router: home, login, sign-up or a
// profile, in the default layout as the app's root and `_default` layout
// render it (site frame, navigation, footer, toasts). The server renders it
// (app/entry-server.tsx) and the light entry (app/lander.tsx) hydrates the
// same tree, so the HTML and the first client render match. Its links are
// page loads into the app (app/ui/AppLink.tsx).
import type { ComponentType } from 'react'
import type { GuestPage } from '../api/contract/rules/index.ts'
import type { LoginSearch } from './features/account/login-search.ts'
import { SiteFrame } from './features/site/SiteFrame.tsx'
import type { FileRoutesById } from './routeTree.gen.ts'
import { Footer } from './ui/Footer.tsx'
import { OfflineBanner } from './ui/OfflineBanner.tsx'
import { Toasts } from './ui/Toasts.tsx'
import { TopNav } from './ui/TopNav.tsx'

/** The page's component with what it needs from the address. */
export type GuestView =
  | { page: 'home' | 'signup'; Page: ComponentType }
  | { page: 'login'; Page: ComponentType<{ search: LoginSearch }>; search: LoginSearch }
  | { page: { member: number }; Page: ComponentType<{ memberId: number }> }

/** The app's route id of the page (it names the page's root class, spec §2). */
export function guestRouteId(page: GuestPage): keyof FileRoutesById {
  switch (page) {
    case 'home':
      return '/_default/'
    case 'login':
      return '/_default/login'
    case 'signup':
      return '/_default/signup'
    default:
      return '/_default/members/$memberId'
  }
}

function PageOf({ view }: { view: GuestView }) {
  if (view.page === 'login') return <view.Page search={view.search} />
  if (typeof view.page === 'object') {
    const { Page } = view as Extract<GuestView, { page: { member: number } }>
    return <Page key={view.page.member} memberId={view.page.member} />
  }
  const { Page } = view as Extract<GuestView, { page: 'home' | 'signup' }>
  return <Page />
}

export function GuestApp({ view }: { view: GuestView }) {
  return (
    <SiteFrame page={guestRouteId(view.page)}>
      <TopNav />
      <OfflineBanner />
      <PageOf view={view} />
      <Footer />
      <Toasts />
    </SiteFrame>
  )
}
