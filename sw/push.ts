// Pure helpers for push messages and notification clicks: no worker globals,
// so sw.test.ts runs them in Node without a browser.

import { DEFAULT_CLICK_URL, DEFAULT_NOTIFICATION_TITLE } from './config.ts'
import type { PushKind, ReceivedPushPayload } from './messages.ts'

// Turns the text of a push message into a payload. The server sends the
// contract's PushPayload JSON (api/contract/rules/push.ts, built by
// api/push/payload.ts); the text is still untrusted, so each field is kept
// only with the right type, and anything else (plain text, a JSON string or
// number, a payload without a title) still becomes a notification, because
// browsers require every push to show one.
export function parsePushPayload(text: string | null | undefined): ReceivedPushPayload {
  const raw = (text ?? '').trim()
  if (raw === '') return { title: DEFAULT_NOTIFICATION_TITLE, body: '' }
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    return { title: DEFAULT_NOTIFICATION_TITLE, body: raw }
  }
  if (typeof data === 'string') return { title: DEFAULT_NOTIFICATION_TITLE, body: data }
  if (!isRecord(data)) return { title: DEFAULT_NOTIFICATION_TITLE, body: raw }
  const payload: ReceivedPushPayload = {
    title: nonEmptyString(data.title) ?? DEFAULT_NOTIFICATION_TITLE,
    body: typeof data.body === 'string' ? data.body : '',
  }
  const url = nonEmptyString(data.url)
  if (url !== undefined) payload.url = url
  const openUrl = nonEmptyString(data.open_url)
  if (openUrl !== undefined) payload.open_url = openUrl
  const badge = badgeCount(data.badge)
  if (badge !== undefined) payload.badge = badge
  const tag = nonEmptyString(data.tag)
  if (tag !== undefined) payload.tag = tag
  if (isPushKind(data.kind)) payload.kind = data.kind
  return payload
}

// The kinds of the contract's PushKind; the Record makes the compiler hold
// this list to the contract's (a kind missing or extra fails the typecheck),
// since the worker may take only types from the contract.
const PUSH_KINDS: Record<PushKind, true> = { message: true, like: true, visit: true, test: true }

function isPushKind(value: unknown): value is PushKind {
  return typeof value === 'string' && Object.hasOwn(PUSH_KINDS, value)
}

// A badge count the platform accepts: a finite number, floored, never
// negative. Anything else means "no badge information".
export function badgeCount(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
  return Math.max(0, Math.floor(value))
}

// The absolute URL a notification click opens. Only same-origin http(s)
// addresses are followed: a push payload must not be able to send the member
// to another site (or run a javascript: URL); anything else opens the chats.
export function resolveClickUrl(url: string | undefined, origin: string): string {
  const fallback = new URL(DEFAULT_CLICK_URL, origin).href
  if (url === undefined) return fallback
  let target: URL
  try {
    target = new URL(url, origin)
  } catch {
    return fallback
  }
  return target.origin === new URL(origin).origin ? target.href : fallback
}

// The part of a WindowClient the click choice looks at.
export type WindowLike = {
  url: string
  focused: boolean
  visibilityState: DocumentVisibilityState
}

export type ClickChoice<C extends WindowLike> =
  | { action: 'focus'; client: C; navigate: boolean }
  | { action: 'open'; url: string }

// Which window a notification click should use: one already showing the
// target (just focus it), else the focused one, else a visible one, else any
// open window (focus and navigate it); with no window, open a new one. Reusing
// a window keeps a single app instance instead of piling up tabs.
export function chooseClickTarget<C extends WindowLike>(
  clients: readonly C[],
  url: string,
): ClickChoice<C> {
  const showing = clients.find((c) => sameDocument(c.url, url))
  if (showing) return { action: 'focus', client: showing, navigate: false }
  const best =
    clients.find((c) => c.focused) ??
    clients.find((c) => c.visibilityState === 'visible') ??
    clients[0]
  if (best) return { action: 'focus', client: best, navigate: true }
  return { action: 'open', url }
}

// The URL a click on a notification opens, from the data stored on it (see
// handlePush in sw-push.ts). Spec §4: the check URL when a member is signed in,
// the open URL otherwise. `signedIn` is what the pages last told the
// worker (sw/state.ts, kept across restarts; undefined if never): only a device known to be signed out
// gets the open URL; when unsure the check URL is right either way, since
// the app's login guard sends a signed-out visitor on to the login page.
export function notificationUrl(data: unknown, signedIn?: boolean): string | undefined {
  if (!isRecord(data)) return undefined
  const check = nonEmptyString(data.url)
  if (signedIn === false) return nonEmptyString(data.openUrl) ?? check
  return check
}

// Two URLs show the same page when they differ at most in the fragment.
function sameDocument(a: string, b: string): boolean {
  try {
    const x = new URL(a)
    const y = new URL(b)
    x.hash = ''
    y.hash = ''
    return x.href === y.href
  } catch {
    return false
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}
