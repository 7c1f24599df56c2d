// The landers' light entry: the first load of a lander or member landing
// page (the server serves lander.html for the paths `lightPageOf` names).
// The same page components as the app's lander routes, in the same root
// element and layouts, with React DOM but without the router, the app's
// other routes and its shell: a lander is the first page a paying visitor
// sees, so its first load must stay within 100 KB of gzip JavaScript
// (README "Landers"). Its links are page loads into the app (AppLink).
import { type JSX, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import {
  EMPTY_LAYOUT_LANDERS,
  type Lander,
  type LightPage,
  lightPageOf,
} from '../api/contract/rules/index.ts'
import { getLocale } from '../messages/paraglide/runtime.js'
import { session } from './data/session.ts'
import { MemberLanding } from './features/landers/MemberLanding.tsx'
import { AloneLander } from './features/landers/pages/AloneLander.tsx'
import { CollageLander } from './features/landers/pages/CollageLander.tsx'
import { GalleryLander } from './features/landers/pages/GalleryLander.tsx'
import { IconsLander } from './features/landers/pages/IconsLander.tsx'
import { MapLander } from './features/landers/pages/MapLander.tsx'
import { SocialLander } from './features/landers/pages/SocialLander.tsx'
import { TransitionsLander } from './features/landers/pages/TransitionsLander.tsx'
import { VideoLander } from './features/landers/pages/VideoLander.tsx'
import { registerServiceWorker } from './features/pwa.ts'
import { installChunkReload } from './features/site/chunk-reload.ts'
import { SiteFrame } from './features/site/SiteFrame.tsx'
import { captureNetwork } from './features/tracking/tracking.ts'
import type { FileRoutesById } from './routeTree.gen.ts'
import { OfflineBanner } from './ui/OfflineBanner.tsx'
import './styles.css'
import './ui/site.css'

const LANDERS: Record<Lander, () => JSX.Element> = {
  video: VideoLander,
  maplanding: MapLander,
  socialnetwork: SocialLander,
  collagelanding: CollageLander,
  transitionsvideolanding: TransitionsLander,
  gallery: GalleryLander,
  alonetonight: AloneLander,
  iconslanding: IconsLander,
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
function LightApp({ page }: { page: LightPage }) {
  if ('lander' in page && !EMPTY_LAYOUT_LANDERS.includes(page.lander)) {
    const Page = LANDERS[page.lander]
    return (
      <SiteFrame page={routeIdOf(page)}>
        <div className="layout-lander">
          <Page />
        </div>
      </SiteFrame>
    )
  }
  const Page = 'lander' in page ? LANDERS[page.lander] : undefined
  return (
    <SiteFrame page={routeIdOf(page)}>
      <div className="layout-empty">
        <OfflineBanner />
        {Page ? (
          <Page />
        ) : (
          'member' in page && <MemberLanding memberId={page.member} variant={page.variant} />
        )}
      </div>
    </SiteFrame>
  )
}

// As app/main.tsx: the page's language, the affiliate keys stored and taken
// out of the address (spec §9), a failed chunk reloads once (spec §8).
document.documentElement.lang = getLocale()
captureNetwork()
installChunkReload()
// The stored member, if any (a member landing page offers them the chat).
void session.load()

const page = lightPageOf(window.location.pathname)
// The server serves this entry only where `lightPageOf` names a page.
if (page) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <LightApp page={page} />
    </StrictMode>,
  )
}

registerServiceWorker()
