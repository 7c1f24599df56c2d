// This device's push (spec §4 push states): what state it is in, turning it
// on (after a member's click only: the permission prompt) and off, and the
// re-send of the subscription on every load while permission is granted
// (push services can expire endpoints silently; the server keeps the row of
// the current session, api/push/subscriptions.ts).
import { pushPublicKey } from '../../data/push.ts'
import { worker } from '../../data/worker.ts'
import { currentSubscription, pushCapable, subscribePush } from '../account/push.ts'

/** Spec §4: capable or not; then subscribed, not subscribed, denied, or unknown on error. */
export type PushState = 'unsupported' | 'subscribed' | 'not_subscribed' | 'denied' | 'unknown'

/**
 * The member turned push off on this device (/notifications): the load-time
 * re-send must not subscribe it again although permission stays granted.
 * Per device, like the permission itself; a new login does not clear it.
 */
const OFF_KEY = 'amora.push.off'
const offHere = () => localStorage.getItem(OFF_KEY) === '1'

export async function pushState(): Promise<PushState> {
  const key = await pushPublicKey().catch(() => '')
  if (!pushCapable(key)) return 'unsupported'
  if (Notification.permission === 'denied') return 'denied'
  try {
    if (Notification.permission !== 'granted' || offHere()) return 'not_subscribed'
    return (await currentSubscription()) ? 'subscribed' : 'not_subscribed'
  } catch {
    return 'unknown'
  }
}

async function send(subscription: PushSubscriptionJSON): Promise<boolean> {
  const { endpoint, expirationTime, keys } = subscription
  if (!endpoint) return false
  const res = await worker().addPushSubscription({ endpoint, expirationTime, keys })
  if (!res.ok) console.warn('sending the push subscription failed', res.error)
  return res.ok
}

/**
 * On every load with a signed-in member (and after each login): while
 * permission is granted and push is not off here, the subscription goes to
 * the server again, made anew if the browser lost it (logout unsubscribes
 * it; no prompt is shown, permission is already granted).
 */
export async function resendSubscription(): Promise<void> {
  const key = await pushPublicKey(true).catch(() => '')
  if (!pushCapable(key) || Notification.permission !== 'granted' || offHere()) return
  // Background work: wait for the worker however long its first install
  // takes (subscribePush alone gives up after SW_READY_TIMEOUT_MS).
  await navigator.serviceWorker.ready
  const outcome = await subscribePush(key)
  if (outcome.kind === 'subscribed') await send(outcome.subscription)
}

/** Push on, from a member's click: the browser asks for permission if it has not yet. */
export async function turnPushOn(): Promise<PushState> {
  const key = await pushPublicKey()
  if (!pushCapable(key)) return 'unsupported'
  const outcome = await subscribePush(key)
  if (outcome.kind === 'denied')
    return Notification.permission === 'denied' ? 'denied' : 'not_subscribed'
  if (outcome.kind === 'failed') return 'unknown'
  localStorage.removeItem(OFF_KEY)
  return (await send(outcome.subscription)) ? 'subscribed' : 'unknown'
}

/** Push off on this device: the server forgets it, the browser unsubscribes. */
export async function turnPushOff(): Promise<PushState> {
  localStorage.setItem(OFF_KEY, '1')
  try {
    const reg = await navigator.serviceWorker.ready
    const sub = await reg.pushManager.getSubscription()
    if (sub) {
      await worker().removePushSubscription(sub.endpoint)
      await sub.unsubscribe()
    }
    return 'not_subscribed'
  } catch {
    return 'unknown'
  }
}
