// Service worker registration and messages (spec §4 service worker states,
// §7 "a service worker is registered at /sw.js (scope /)").
import type { PageToSwMessage, SwToPageMessage } from '../../sw/messages.ts'
import { syncWorker } from '../../sync/client.ts'

/** Spec §8: a failed registration sets this flag (shown in the developer pages). */
export let swRegistrationError = false

export function postToSw(message: PageToSwMessage) {
  navigator.serviceWorker?.controller?.postMessage(message)
}

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return
  // Spec §4: the page reloads when a new worker takes control, but not on
  // the very first install (nothing was in control before).
  const hadController = navigator.serviceWorker.controller !== null
  let reloading = false
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController || reloading) return
    reloading = true
    window.location.reload()
  })
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent<SwToPageMessage>) => {
    // A push means news on the server: sync now rather than at the next poll.
    if (e.data?.type === 'push') void syncWorker().syncNow()
  })
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((err: unknown) => {
      swRegistrationError = true
      console.error('service worker registration failed', err)
    })
  })
}
