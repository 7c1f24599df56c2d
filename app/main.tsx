import { RouterProvider } from '@tanstack/react-router'
import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { getLocale } from '../messages/paraglide/runtime.js'
import { readPageSeed, setPageSeed } from './data/page-seed.ts'
import { session } from './data/session.ts'
import { worker } from './data/worker.ts'
import { registerServiceWorker } from './features/pwa.ts'
import { installChunkReload } from './features/site/chunk-reload.ts'
import { captureDevFlag } from './features/site/flags.ts'
import { captureNetwork } from './features/tracking/tracking.ts'
import { preloadPageChunks, router } from './router.tsx'
import './styles.css'
import './ui/site.css'

// Spec §4 locale (cookie, then browser language, then en): screen readers
// pronounce the page by this attribute.
document.documentElement.lang = getLocale()

// Affiliate traffic may land on any page: keep its network entry and take the
// tracking keys out of the address before the router reads it (spec §9).
captureNetwork()
// Spec §8: a chunk that fails to load reloads the page (at most once per path per 10 s).
installChunkReload()
// Spec §2 developer panel: `?dev=1` opens it on this device.
captureDevFlag()

const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
)
const container = document.getElementById('root')!
// A guest's public page comes rendered by the server (api/site/prerender.ts)
// with the values it was rendered with. Hydrate it when this browser picks
// the same language: as a guest, with the same settings and imprint, after
// the page's route code loaded, so the first render matches the HTML. Else
// (the plain shell: members, the service worker's copy) render here.
const seed = readPageSeed()
if (seed && container.firstElementChild && seed.locale === getLocale()) {
  setPageSeed(seed)
  session.assumeGuest()
  // The router's mark of a server-rendered page: its root renders without
  // the Suspense boundary a client-only start adds, as on the server. We
  // send no router state or asset manifest (the route chunks load below).
  router.ssr = { manifest: undefined }
  void router.load().then(() => {
    // In a transition, React hydrates in slices of a few milliseconds and
    // lets the browser handle input between them, instead of one long task
    // (a phone's main thread would be blocked for its whole length).
    startTransition(() => {
      hydrateRoot(container, app)
    })
    session.hydrated()
  })
} else {
  // The page's code and the stored session (the sync worker's start) load
  // side by side from here, not one after the other (README Performance,
  // "Repeat visit offline").
  preloadPageChunks(window.location.pathname)
  void session.load()
  createRoot(container).render(app)
}

registerServiceWorker()

// ARCHITECTURE "Data and sync": coming online and a tab becoming visible sync
// at once; a hidden page sends the spec §7 beacon.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void worker().pageHidden()
  else if (navigator.onLine) void worker().syncNow()
})
window.addEventListener('online', () => void worker().syncNow())
