// The light entry: the first load of a lander or member landing page (the
// server serves lander.html for the paths `lightPageOf` names), and of a
// guest's entry page (home, login, sign-up, a profile: `guestPageOf`), which
// the server prerendered with this entry as its script. The same page
// components as the app's routes, in the same root element and layouts,
// with React DOM but without the router, the app's other routes and its
// shell: these are the first pages a visitor sees, so their first load must
// stay within 100 KB of gzip JavaScript (docs/performance.md, "Main-thread JavaScript").
// Their links are page loads into the app (app/ui/AppLink.tsx).
import { type ComponentType, type ReactNode, StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import {
  EMPTY_LAYOUT_LANDERS,
  type GuestPage,
  guestPageOf,
  type Lander,
  type LightPage,
  lightPageOf,
} from '../api/contract/rules/slugs.ts'
import { getLocale } from '../messages/paraglide/runtime.js'
import { readPageSeed, setPageSeed } from './data/page-seed.ts'
import { session } from './data/session.ts'
import { holdWorkerStart } from './data/worker.ts'
import { registerServiceWorker } from './features/pwa.ts'
import { installChunkReload } from './features/site/chunk-reload.ts'
import { captureDevFlag } from './features/site/flags.ts'
import { SiteFrame } from './features/site/SiteFrame.tsx'
import { pageSettled } from './features/site/settled.ts'
import { captureNetwork } from './features/tracking/tracking.ts'
import type { FileRoutesById } from './routeTree.gen.ts'
import { OfflineBanner } from './ui/OfflineBanner.tsx'
import './styles.css'
import './ui/site.css'

// Each page loaded on its own: a lander downloads its own page only, and a
// guest page none of them.
const LANDERS: Record<Lander, () => Promise<ComponentType>> = {
  video: () => import('./features/landers/pages/VideoLander.tsx').then((mod) => mod.VideoLander),
  maplanding: () => import('./features/landers/pages/MapLander.tsx').then((mod) => mod.MapLander),
  socialnetwork: () =>
    import('./features/landers/pages/SocialLander.tsx').then((mod) => mod.SocialLander),
  collagelanding: () =>
    import('./features/landers/pages/CollageLander.tsx').then((mod) => mod.CollageLander),
  transitionsvideolanding: () =>
    import('./features/landers/pages/TransitionsLander.tsx').then((mod) => mod.TransitionsLander),
  gallery: () =>
    import('./features/landers/pages/GalleryLander.tsx').then((mod) => mod.GalleryLander),
  alonetonight: () =>
    import('./features/landers/pages/AloneLander.tsx').then((mod) => mod.AloneLander),
  iconslanding: () =>
    import('./features/landers/pages/IconsLander.tsx').then((mod) => mod.IconsLander),
}

/** The page's component: the lander, or the member landing page of the member. */
async function lightComponent(page: LightPage): Promise<ComponentType> {
  if ('lander' in page) return LANDERS[page.lander]()
  const { MemberLanding } = await import('./features/landers/MemberLanding.tsx')
  return () => <MemberLanding memberId={page.member} variant={page.variant} />
}

/** The app's route id of the page (it names the page's root class, spec §2). */
function routeIdOf(page: LightPage): keyof FileRoutesById {
  if ('lander' in page) {
    switch (page.lander) {
      case 'gallery':
        return '/_empty/landers/gallery/$'
      case 'alonetonight':
        return '/_empty/landers/alonetonight/$'
      case 'iconslanding':
        return '/_empty/landers/iconslanding/$'
      default:
        return '/_lander/landers/$lander/$slug'
    }
  }
  switch (page.variant) {
    case 'signup':
      return '/_empty/members/$memberId/signup'
    case 'landing':
      return '/_empty/members/$memberId/landing'
    case 'landing2':
      return '/_empty/members/$memberId/landing2/$slug'
    case 'landing3':
      return '/_empty/members/$memberId/landing3/$slug'
  }
}

/** The page in its spec §2 layout, as the app's _lander and _empty layouts render it. */
function LightApp({ page, Page }: { page: LightPage; Page: ComponentType }) {
  if ('lander' in page && !EMPTY_LAYOUT_LANDERS.includes(page.lander)) {
    return (
      <SiteFrame page={routeIdOf(page)}>
        <div className="layout-lander">
          <Page />
        </div>
      </SiteFrame>
    )
  }
  return (
    <SiteFrame page={routeIdOf(page)}>
      <div className="layout-empty">
        <OfflineBanner />
        <Page />
      </div>
    </SiteFrame>
  )
}

/** A guest page, its component loaded on its own: a lander never downloads them. */
async function guestView(page: GuestPage): Promise<ReactNode> {
  switch (page) {
    case 'home': {
      const { HomePage } = await import('./features/site/HomePage.tsx')
      return <HomePage />
    }
    case 'signup': {
      const { SignupPage } = await import('./features/account/SignupPage.tsx')
      return <SignupPage />
    }
    case 'login': {
      const [{ LoginPage }, { loginSearch }] = await Promise.all([
        import('./features/account/LoginPage.tsx'),
        import('./features/account/login-search.ts'),
      ])
      const query = Object.fromEntries(new URLSearchParams(window.location.search))
      return <LoginPage search={loginSearch(query)} />
    }
    default: {
      const { ProfileView } = await import('./ui/ProfileView.tsx')
      return <ProfileView memberId={page.member} />
    }
  }
}

/**
 * A guest page: hydrate the server's HTML when this browser picks the same
 * language, with the values it was rendered with and as a guest, so the
 * first render matches it; else render here (as app/main.tsx does).
 */
async function startGuest(container: HTMLElement, page: GuestPage) {
  const seed = readPageSeed()
  // The frame (navigation, footer) and the page: what no lander needs.
  const [{ GuestApp }, view] = await Promise.all([import('./guest-app.tsx'), guestView(page)])
  const app = (
    <StrictMode>
      <GuestApp page={page}>{view}</GuestApp>
    </StrictMode>
  )
  if (seed && container.firstElementChild && seed.locale === getLocale()) {
    setPageSeed(seed)
    session.assumeGuest()
    // In a transition, React hydrates in slices of a few milliseconds and
    // lets the browser handle input between them, instead of one long task.
    startTransition(() => {
      hydrateRoot(container, app)
    })
    session.hydrated()
  } else {
    void session.load()
    createRoot(container).render(app)
  }
}

// As app/main.tsx: the page's language, the affiliate keys stored and taken
// out of the address (spec §9), a failed chunk reloads once (spec §8).
document.documentElement.lang = getLocale()
captureNetwork()
installChunkReload()
captureDevFlag()

const container = document.getElementById('root')!
const page = lightPageOf(window.location.pathname)
const guest = page ? null : guestPageOf(window.location.pathname)
// A prerendered page's data came with its HTML: the sync worker and the
// service worker start once it has settled or at the visitor's first input
// (app/features/site/settled.ts), not beside its hydration.
const settled = guest && container.firstElementChild ? pageSettled() : undefined
if (settled) holdWorkerStart(settled)
// The server serves this entry only where `lightPageOf` or `guestPageOf` names a page.
if (page) {
  // The stored member, if any (a member landing page offers them the chat).
  void session.load()
  void lightComponent(page).then((Page) =>
    createRoot(container).render(
      <StrictMode>
        <LightApp page={page} Page={Page} />
      </StrictMode>,
    ),
  )
} else if (guest) {
  void startGuest(container, guest)
}

registerServiceWorker({ after: settled })
