// What the service worker must remember across restarts (the browser stops
// an idle worker at will, and a push or a click starts it cold): whether a
// member is signed in on this device, and the last push message (spec §4
// lastMessage). Kept in Cache Storage, which both worker scripts (sw.js and
// the push worker sw-push.js it imports) reach without opening the app's
// IndexedDB schema.
import type { ReceivedPushPayload } from './messages.ts'

export const STATE_CACHE = 'amora-sw-state-v1'
const SIGNED_IN = '/__sw-state/signed-in'
const LAST_MESSAGE = '/__sw-state/last-message'

// Writes run one after another: SET/CLEAR messages from the page arrive in
// order and must land in that order.
let writes: Promise<unknown> = Promise.resolve()
function queue<T>(write: () => Promise<T>): Promise<T> {
  const next = writes.then(write, write)
  writes = next.catch(() => undefined)
  return next
}

async function read(key: string): Promise<string | undefined> {
  await writes
  const cache = await caches.open(STATE_CACHE)
  const res = await cache.match(key)
  return res ? res.text() : undefined
}

function write(key: string, value: string | undefined): Promise<void> {
  return queue(async () => {
    const cache = await caches.open(STATE_CACHE)
    if (value === undefined) await cache.delete(key)
    else await cache.put(key, new Response(value))
  })
}

/**
 * Whether a member is signed in here, as the pages last said (SESSION on
 * every page load with a member and each login; CLEAR_USER_CACHES from the
 * one endSession path). undefined: never told (a worker installed before
 * any page said either).
 */
export async function signedIn(): Promise<boolean | undefined> {
  const value = await read(SIGNED_IN)
  return value === undefined ? undefined : value === '1'
}

export const setSignedIn = (value: boolean) => write(SIGNED_IN, value ? '1' : '0')

/** Spec §4 lastMessage: the last push payload this device showed. */
export async function lastMessage(): Promise<ReceivedPushPayload | undefined> {
  const value = await read(LAST_MESSAGE)
  return value === undefined ? undefined : (JSON.parse(value) as ReceivedPushPayload)
}

export const setLastMessage = (payload: ReceivedPushPayload | undefined) =>
  write(LAST_MESSAGE, payload === undefined ? undefined : JSON.stringify(payload))
