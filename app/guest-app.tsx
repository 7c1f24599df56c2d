// A guest's first page without the router: home, login, sign-up or a
// profile, in the default layout as the app's root and `_default` layout
// render it (site frame, navigation, footer, toasts). The server renders it
// (app/entry-server.tsx) and the light entry (app/lander.tsx) hydrates the
// same tree, so the HTML and the first client render match. Its links are
// page loads into the app (app/ui/AppLink.tsx).
import type { ReactNode } from 'react'
import type { GuestPage } from '../api/contract/rules/slugs.ts'
import { SiteFrame } from './features/site/SiteFrame.tsx'
import type { FileRoutesById } from './routeTree.gen.ts'
import { Footer } from './ui/Footer.tsx'
import { OfflineBanner } from './ui/OfflineBanner.tsx'
import { Toasts } from './ui/Toasts.tsx'
import { TopNav } from './ui/TopNav.tsx'

/** The app's route id of the page (it names the page's root class, spec §2). */
function guestRouteId(page: GuestPage): keyof FileRoutesById {
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

/** `children`: the page (HomePage, LoginPage, SignupPage or ProfileView). */
export function GuestApp({ page, children }: { page: GuestPage; children: ReactNode }) {
  return (
    <SiteFrame page={guestRouteId(page)}>
      <TopNav />
      <OfflineBanner />
      {children}
      <Footer />
      <Toasts />
    </SiteFrame>
  )
}
