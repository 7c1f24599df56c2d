// Live-signal rules both ends apply (docs/live.md): how often "is typing" is
// sent and how long it shows, when a member counts as online.

/** The sender's client tells "typing" at most once per this long. */
export const TYPING_SEND_EVERY_MS = 2000
/** The server lets through at most one "typing" per member and conversation this often. */
export const TYPING_SERVER_GAP_MS = 1000
/** "… is typing" goes away after this long without a new signal. */
export const TYPING_SHOWN_MS = 5000
/** Seen within this long: online now. */
export const ONLINE_NOW_MS = 5 * 60_000
/** Seen within this long: active today. */
export const ACTIVE_TODAY_MS = 24 * 60 * 60_000
/** Seen within this long: active this week. */
export const ACTIVE_WEEK_MS = 7 * 24 * 60 * 60_000
/** A member's last activity is written at most this often (a throttled touch, not one per request). */
export const ACTIVITY_TOUCH_MS = 60_000

export type LastActive = 'now' | 'today' | 'week'

/** How recently a member was active, from when they were last seen; null: longer ago. */
export function lastActiveOf(seenMs: number, nowMs: number): LastActive | null {
  const ago = nowMs - seenMs
  if (ago < ONLINE_NOW_MS) return 'now'
  if (ago < ACTIVE_TODAY_MS) return 'today'
  if (ago < ACTIVE_WEEK_MS) return 'week'
  return null
}
