// Spec §3 tracking record "network" and the spec §9 tracking query keys,
// applied alike by the app (which reads a landing URL) and the API (which
// refuses a sign-up payload whose record breaks the pattern).

/** Spec §9: tracking query keys, removed from the URL once stored. */
export const TRACKING_KEYS = [
  'network',
  'ref',
  'sub',
  'sub1',
  'sub2',
  'sub3',
  'aff_sub',
  'aff_sub1',
  'aff_sub2',
  'aff_sub3',
  'cpc',
] as const

/** Spec §9: the storage cookie lives 30 days (SameSite Lax). */
export const TRACKING_COOKIE_MAX_AGE_S = 2_592_000

/**
 * A tracking value: what affiliate networks put in click ids and sub ids
 * (letters, digits, `_ . ~ -`), at most 64 characters. Anything else is
 * dropped, never stored or shown, so a link cannot smuggle markup or text
 * into the site, its mails or an operator's report.
 */
export const TRACKING_VALUE = /^[A-Za-z0-9_.~-]{1,64}$/

export const isTrackingValue = (v: unknown): v is string =>
  typeof v === 'string' && TRACKING_VALUE.test(v)

/** The stored record: spec §3 network, ref, sub1–3, plus the cost per click and the lander of entry. */
export interface TrackingRecord {
  network: string
  ref?: string
  sub1?: string
  sub2?: string
  sub3?: string
  cpc?: string
  lander?: string
}

const FIELDS = ['ref', 'sub1', 'sub2', 'sub3', 'cpc', 'lander'] as const

/**
 * The record of a query string, or null without a valid network (the record
 * needs one). `sub` and `aff_sub` are other networks' names for sub1, as
 * `aff_subN` is for subN; an invalid value is left out.
 */
export function trackingFromQuery(search: string): TrackingRecord | null {
  const q = new URLSearchParams(search)
  const network = q.get('network')
  if (!isTrackingValue(network)) return null
  const pick = (...keys: string[]) => keys.map((k) => q.get(k)).find(isTrackingValue)
  return tidy({
    network,
    ref: pick('ref'),
    sub1: pick('sub1', 'sub', 'aff_sub1', 'aff_sub'),
    sub2: pick('sub2', 'aff_sub2'),
    sub3: pick('sub3', 'aff_sub3'),
    cpc: pick('cpc'),
  })
}

/** A record read back from storage (another version may have written it), or null. */
export function trackingFromStored(v: unknown): TrackingRecord | null {
  if (typeof v !== 'object' || v === null) return null
  const o = v as Record<string, unknown>
  if (!isTrackingValue(o.network)) return null
  const out: Record<string, string | undefined> = {}
  for (const k of FIELDS) out[k] = isTrackingValue(o[k]) ? o[k] : undefined
  return tidy({ network: o.network, ...out })
}

function tidy(r: { network: string } & Partial<Record<(typeof FIELDS)[number], string>>) {
  const out: TrackingRecord = { network: r.network }
  for (const k of FIELDS) if (r[k] !== undefined) out[k] = r[k]
  return out
}

/** Whether a URL's query holds any tracking key (then the app takes them off). */
export const hasTrackingKeys = (search: string) => {
  const q = new URLSearchParams(search)
  return TRACKING_KEYS.some((k) => q.has(k))
}
