// Service worker registration and messages (spec §4 service worker states,
// §7 "a service worker is registered at /sw.js (scope /)").
import type { PageToSwMessage, SwToPageMessage } from '../../sw/messages.ts'
import { onSyncEvent, worker } from '../data/worker.ts'
import { captureInstallPrompt } from './push/install.ts'
import { startVisibilityReports } from './push/visibility.ts'

/** Spec §8: a failed registration sets this flag (shown in the developer pages). */
export let swRegistrationError = false

/**
 * To the active service worker, once there is one (the first page load of a
 * new visitor may have no controller yet, but a registration soon).
 */
export function postToSw(message: PageToSwMessage) {
  if (!('serviceWorker' in navigator)) return
  const controller = navigator.serviceWorker.controller
  if (controller) controller.postMessage(message)
  else void navigator.serviceWorker.ready.then((r) => r.active?.postMessage(message))
}

/**
 * The worker owns the install badge (unread messages + new likes, spec §4)
 * and ends sessions; the service worker owns the Badging API and the picture
 * cache. This relays the one to the other: every badge the worker computes,
 * and, when a session ends (logout, deletion, expiry alike), the order to
 * drop the member's cached pictures.
 */
function relayWorkerToServiceWorker() {
  let signedIn = false
  const visibility = startVisibilityReports()
  onSyncEvent((e) => {
    if (e.type === 'badge') postToSw({ type: 'SET_BADGE', count: e.count })
    if (e.type === 'session_ended') postToSw({ type: 'CLEAR_USER_CACHES' })
    if (e.type === 'user') member(e.user !== null)
  })
  // The stored member of a reload: the worker may not announce it again soon.
  void worker()
    .getUser()
    .then((user) => member(user !== null))
  function member(present: boolean) {
    visibility.setSignedIn(present)
    if (present && !signedIn) {
      // Once per page load and per login: the service worker learns a
      // member is here (notification clicks, spec §4), and the push
      // subscription goes to the server again (spec §4 push states).
      postToSw({ type: 'SESSION' })
      // Loaded only here: a guest's page never needs the push code.
      void import('./push/device.ts')
        .then((device) => device.resendSubscription())
        .catch((err: unknown) => console.warn('re-sending the push subscription failed', err))
    }
    signedIn = present
  }
}

/**
 * `after`: the registration also waits for this (a prerendered page waits
 * until it has settled, app/features/site/settled.ts).
 */
export function registerServiceWorker({ after }: { after?: Promise<void> } = {}) {
  captureInstallPrompt()
  if (!('serviceWorker' in navigator)) return
  relayWorkerToServiceWorker()
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
    if (e.data?.type === 'push') void worker().syncNow()
  })
  const register = () =>
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((err: unknown) => {
      swRegistrationError = true
      console.error('service worker registration failed', err)
    })
  // After the page's own loads. A prerendered page runs the app after its
  // first paint (app/boot.ts), often once `load` has fired already.
  const start = () => (after ? void after.then(register) : void register())
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start)
}
