// Push notifications in the browser (spec §4 push states, §9 "push key
// decoded from URL-safe base64"). The subscription itself is handed to the
// sync worker, which sends it to POST /api/user.php?push=1.
import type { PushOffer } from './signup-steps.ts'

/**
 * navigator.serviceWorker.ready never settles when registration failed
 * (spec §8 registration-error flag): the push check gives up after this long.
 */
export const SW_READY_TIMEOUT_MS = 3_000

/** Spec §9: settings.push_pub (URL-safe base64, no padding) as key bytes. */
export function urlBase64ToUint8Array(key: string): Uint8Array<ArrayBuffer> {
  const base64 = (key + '='.repeat((4 - (key.length % 4)) % 4))
    .replaceAll('-', '+')
    .replaceAll('_', '/')
  const raw = atob(base64)
  const out = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

/** Whether this browser can take push at all (spec §4 "capable or not"). */
export const pushCapable = (pushPub: string): boolean =>
  pushPub !== '' &&
  typeof window !== 'undefined' &&
  'Notification' in window &&
  'PushManager' in window &&
  'serviceWorker' in navigator

async function registration(): Promise<ServiceWorkerRegistration | null> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), SW_READY_TIMEOUT_MS)),
  ])
}

/** Spec §4 push state as the sign-up needs it right after account creation. */
export async function pushOffer(pushPub: string): Promise<PushOffer> {
  if (!pushCapable(pushPub)) return 'unsupported'
  if (Notification.permission === 'denied') return 'denied'
  try {
    const reg = await registration()
    if (!reg) return 'unknown'
    const existing = await reg.pushManager.getSubscription()
    return existing ? 'subscribed' : 'undecided'
  } catch {
    return 'unknown'
  }
}

/** The browser's current subscription, for the "already subscribed" branch. */
export async function currentSubscription(): Promise<PushSubscriptionJSON | null> {
  const reg = await registration()
  const sub = await reg?.pushManager.getSubscription()
  return sub ? sub.toJSON() : null
}

export type SubscribeOutcome =
  | { kind: 'subscribed'; subscription: PushSubscriptionJSON }
  | { kind: 'denied' }
  | { kind: 'failed'; message: string }

/** Asks for permission (a click must start this) and subscribes with the server's key. */
export async function subscribePush(pushPub: string): Promise<SubscribeOutcome> {
  try {
    const permission = await Notification.requestPermission()
    if (permission !== 'granted') return { kind: 'denied' }
    const reg = await registration()
    if (!reg) return { kind: 'failed', message: 'no service worker' }
    const sub =
      (await reg.pushManager.getSubscription()) ??
      (await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: urlBase64ToUint8Array(pushPub),
      }))
    return { kind: 'subscribed', subscription: sub.toJSON() }
  } catch (e) {
    return { kind: 'failed', message: e instanceof Error ? e.message : String(e) }
  }
}
