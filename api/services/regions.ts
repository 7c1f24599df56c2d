// Countries and regions the site knows (db/seed/geo.ts, shared with the demo
// seed and the search's region filter), and where a coordinate falls among them.
import { COUNTRIES, findCountry } from '../../db/seed/geo.ts'
import { type Anchor, REGION_ANCHORS } from './region-anchors.ts'

/** GET /api/regions.php region_data: per country, its regions (id, name). */
export const regionData = (): Record<string, { id: string; name: string }[]> =>
  Object.fromEntries(
    COUNTRIES.map((c) => [c.id, c.regions.map((r) => ({ id: r.id, name: r.name }))]),
  )

export const isKnownCountry = (id: string) => findCountry(id) !== undefined

export const isRegionOf = (country: string, region: string) =>
  findCountry(country)?.regions.some((r) => r.id === region) ?? false

/** Case- and accent-insensitive city key ("Liège" = "liege"). */
export const cityKey = (name: string) =>
  name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim()

/** The region of a known city of the country (by name), if any. */
export function regionOfCity(country: string, city: string): string | null {
  const key = cityKey(city)
  const region = findCountry(country)?.regions.find((r) => r.cities.some((c) => cityKey(c) === key))
  return region?.id ?? null
}

const EARTH_KM = 6371

/** Great-circle distance in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const dLat = (lat2 - lat1) * rad
  const dLon = (lon2 - lon1) * rad
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/**
 * Farther than this from every anchor of the country, a place is in a region
 * the site does not list (e.g. a US state outside db/seed/geo.ts): no region.
 */
export const MAX_ANCHOR_KM = 200

export interface NearestAnchor {
  region: string
  anchor: Anchor
  km: number
}

/** The nearest anchor city of the country's regions, within MAX_ANCHOR_KM. */
export function nearestAnchor(country: string, lat: number, lon: number): NearestAnchor | null {
  let best: NearestAnchor | null = null
  for (const r of findCountry(country)?.regions ?? []) {
    for (const anchor of REGION_ANCHORS[r.id] ?? []) {
      const km = distanceKm(lat, lon, anchor[1], anchor[2])
      if (km <= MAX_ANCHOR_KM && (!best || km < best.km)) best = { region: r.id, anchor, km }
    }
  }
  return best
}
