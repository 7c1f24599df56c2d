import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { getLocale } from '../messages/paraglide/runtime.js'
import { worker } from './data/worker.ts'
import { captureNetwork } from './features/account/tracking.ts'
import { registerServiceWorker } from './features/pwa.ts'
import { router } from './router.tsx'
import './styles.css'

// Spec §4 locale (cookie, then browser language, then en): screen readers
// pronounce the page by this attribute.
document.documentElement.lang = getLocale()

// Affiliate traffic may land on any page: keep its network entry and take the
// tracking keys out of the address before the router reads it (spec §9).
captureNetwork()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
)

registerServiceWorker()

// ARCHITECTURE "Data and sync": coming online and a tab becoming visible sync
// at once; a hidden page sends the spec §7 beacon.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void worker().pageHidden()
  else if (navigator.onLine) void worker().syncNow()
})
window.addEventListener('online', () => void worker().syncNow())
