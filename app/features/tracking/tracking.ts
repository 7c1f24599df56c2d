// Affiliate tracking (spec §3 record "network", §9 keys and storage cookie).
// A landing URL carries the record in its query; it is kept in a first-party
// cookie for 30 days (SameSite Lax) and the keys are taken off the address
// bar, so they are neither bookmarked nor shared onward. Spec §5 opens
// sign-ups with `with_trafficsource` only when a record exists; the sign-up
// payload carries it as `trafficsource`.
import {
  hasTrackingKeys,
  TRACKING_COOKIE_MAX_AGE_S,
  TRACKING_KEYS,
  type TrackingRecord,
  trackingFromQuery,
  trackingFromStored,
} from '../../../api/contract/rules/tracking.ts'

export type NetworkEntry = TrackingRecord

const COOKIE = 'amora_tracking'

function readCookie(): TrackingRecord | null {
  const raw = document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1)
  if (!raw) return null
  try {
    return trackingFromStored(JSON.parse(decodeURIComponent(raw)))
  } catch {
    return null
  }
}

function writeCookie(record: TrackingRecord) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : ''
  // biome-ignore lint/suspicious/noDocumentCookie: spec §9 asks for a cookie, and the Cookie Store API is missing in Firefox and Safari.
  document.cookie = `${COOKIE}=${encodeURIComponent(JSON.stringify(record))}; Max-Age=${TRACKING_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax${secure}`
}

/**
 * Stores the record of the current URL (a new network replaces the old one:
 * the last click counts), takes every tracking key off the address, and
 * answers the kept record.
 */
export function captureNetwork(): NetworkEntry | null {
  // The server render (prerendered guest pages) has no address bar or cookie jar.
  if (typeof window === 'undefined') return null
  const { search } = window.location
  const fromUrl = trackingFromQuery(search)
  const kept = readCookie()
  if (fromUrl) writeCookie(fromUrl)
  if (hasTrackingKeys(search)) {
    // Invalid values are dropped here too: never stored, never echoed.
    const url = new URL(window.location.href)
    for (const k of TRACKING_KEYS) url.searchParams.delete(k)
    window.history.replaceState(window.history.state, '', url)
  }
  return fromUrl ?? kept
}

/**
 * Notes the lander a tracked visitor arrived on, so sign-ups count per
 * lander; answers the kept record (for the visit count).
 */
export function noteLander(lander: string): TrackingRecord | null {
  const kept = readCookie()
  if (kept && kept.lander !== lander) writeCookie({ ...kept, lander })
  return kept
}
