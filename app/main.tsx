// First: the page's own reads of the store start before the rest is evaluated.
import './early.ts'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { getLocale } from '../messages/paraglide/runtime.js'
import { session } from './data/session.ts'
import { holdWorkerUntilPainted } from './data/first-screen.ts'
import { holdWorkerStart, worker } from './data/worker.ts'
import { registerServiceWorker } from './features/pwa.ts'
import { installChunkReload } from './features/site/chunk-reload.ts'
import { captureDevFlag } from './features/site/flags.ts'
import { keepStoredPages, takeAwayStoredPage } from './features/site/stored-page.ts'
import { preloadPageChunks, router } from './router.tsx'
import './styles.css'
import './ui/site.css'

// Spec §4 locale (cookie, then browser language, then en): screen readers
// pronounce the page by this attribute.
document.documentElement.lang = getLocale()

// Affiliate traffic may land on any page: keep its network entry and take the
// tracking keys out of the address before the router reads it (spec §9). An
// address without a query has none, so the code loads only with one.
const tracked = window.location.search
  ? import('./features/tracking/tracking.ts').then(
      (t) => void t.captureNetwork(),
      // A tracking chunk that cannot load must not keep the page from showing.
      (e: unknown) => console.error('tracking: the chunk did not load', e),
    )
  : Promise.resolve()
// Spec §8: a chunk that fails to load reloads the page (at most once per path per 10 s).
installChunkReload()
// Spec §2 developer panel: `?dev=1` opens it on this device.
captureDevFlag()

const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
)
// The page's code, the sync worker's start and the page's own first reads of
// the store (the member, the first screen's data: sync/store/peek.ts) go side
// by side from here; the root renders on the stored member as the page read
// it, without waiting for the worker (docs/performance.md, "Repeat visit
// offline"). A guest's prerendered entry page is hydrated by the light entry
// instead (app/lander.tsx), without the router.
holdWorkerUntilPainted(router, holdWorkerStart)
// A repeat visit offline painted the page's stored copy with the HTML
// (sw/snapshot.ts): it goes once the app's own page is there.
takeAwayStoredPage(router)
keepStoredPages(router)
void session.load()
preloadPageChunks(window.location.pathname)
void tracked.then(() => createRoot(document.getElementById('root')!).render(app))

registerServiceWorker()

// docs/architecture.md, "Data and sync": coming online and a tab becoming visible sync
// at once; a hidden page sends the spec §7 beacon.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void worker().pageHidden()
  else if (navigator.onLine) void worker().syncNow()
})
window.addEventListener('online', () => void worker().syncNow())
