// Spec §3 tracking record "network" (affiliate traffic) as the sign-up reads
// it: spec §5 opens sign-ups with `with_trafficsource` only when one exists.
// A landing URL carries it in the query (spec §9 keys); it is kept in
// localStorage and the keys are taken off the address bar once stored.

export interface NetworkEntry {
  network: string
  ref?: string
  sub1?: string
  sub2?: string
  sub3?: string
}

const STORAGE_KEY = 'amora.network'
/** Spec §9: tracking query keys removed after storing. */
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

/** The network entry of a query string, or null (a network is required). */
export function networkFromQuery(search: string): NetworkEntry | null {
  const q = new URLSearchParams(search)
  const network = q.get('network')?.trim()
  if (!network) return null
  const entry: NetworkEntry = { network: network.slice(0, 255) }
  const pick = (...keys: string[]) => {
    for (const k of keys) {
      const v = q.get(k)?.trim()
      if (v) return v.slice(0, 255)
    }
    return undefined
  }
  const ref = pick('ref')
  const sub1 = pick('sub1', 'sub', 'aff_sub1', 'aff_sub')
  const sub2 = pick('sub2', 'aff_sub2')
  const sub3 = pick('sub3', 'aff_sub3')
  if (ref) entry.ref = ref
  if (sub1) entry.sub1 = sub1
  if (sub2) entry.sub2 = sub2
  if (sub3) entry.sub3 = sub3
  return entry
}

/** A stored entry, read defensively (another version of the app may have written it). */
export function parseStoredNetwork(raw: string | null): NetworkEntry | null {
  if (!raw) return null
  try {
    const v: unknown = JSON.parse(raw)
    if (typeof v !== 'object' || v === null || !('network' in v)) return null
    const network = v.network
    if (typeof network !== 'string' || network === '') return null
    const entry: NetworkEntry = { network }
    for (const k of ['ref', 'sub1', 'sub2', 'sub3'] as const) {
      const x = (v as Record<string, unknown>)[k]
      if (typeof x === 'string' && x !== '') entry[k] = x
    }
    return entry
  } catch {
    return null
  }
}

/** Stores a network entry of the current URL (then strips its keys) and answers the kept one. */
export function captureNetwork(): NetworkEntry | null {
  const fromUrl = networkFromQuery(window.location.search)
  if (fromUrl) {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(fromUrl))
    } catch (e) {
      console.warn('tracking: could not store the network entry', e)
    }
    const url = new URL(window.location.href)
    for (const k of TRACKING_KEYS) url.searchParams.delete(k)
    window.history.replaceState(window.history.state, '', url)
    return fromUrl
  }
  try {
    return parseStoredNetwork(localStorage.getItem(STORAGE_KEY))
  } catch {
    return null
  }
}
