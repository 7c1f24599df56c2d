// Countries and regions the site knows, and where a coordinate falls among
// them. Countries are those of db/reference/geo.ts; their regions come from the
// maintained dataset `country-region-data` (ISO 3166-2 subdivision codes)
// where its list is one level of ISO 3166-2, and from db/reference/geo.ts where
// the package mixes levels: GB (217 council areas instead of the 4 nations),
// ES (provinces mixed with communities), BE (3 regions, not the provinces
// people name), IE (26 counties mixed, not the 4 provinces). The demo seed's
// regions are a subset of these lists (regions.test.ts checks it).
import { allCountries } from 'country-region-data'
import { COUNTRIES, findCountry } from '../../db/reference/geo.ts'
import { type Anchor, REGION_ANCHORS } from '../../db/reference/region-anchors.ts'

export interface Region {
  id: string
  name: string
}

/** Countries whose package list is first-level ISO 3166-2 and complete. */
const FROM_PACKAGE = new Set(['NL', 'DE', 'AT', 'AU', 'CA', 'NZ', 'PL', 'FR', 'IT', 'US'])
/** US entries that are not places members live in a state of: territories far out, forces mail. */
const LEFT_OUT = new Set([
  'US-AS',
  'US-FM',
  'US-GU',
  'US-MH',
  'US-MP',
  'US-PW',
  'US-VI',
  'US-AA',
  'US-AE',
  'US-AP',
  'US-UM',
])

/** Uninhabited French territories: nobody lives there to be found. */
const LEFT_OUT_FR = new Set(['FR-CP', 'FR-TF'])
/** Where the package's code differs from ISO 3166-2 (Corsica is FR-20R since 2016). */
const TO_ISO: Record<string, string> = { 'FR-COR': 'FR-20R' }

function packageRegions(country: string): Region[] | undefined {
  const entry = allCountries.find((c) => c[1] === country)
  return entry?.[2]
    .map(([name, code]) => {
      const id = `${country}-${code}`
      return { id: TO_ISO[id] ?? id, name }
    })
    .filter((r) => !LEFT_OUT.has(r.id) && !LEFT_OUT_FR.has(r.id))
}

const REGIONS: ReadonlyMap<string, readonly Region[]> = new Map(
  COUNTRIES.map((c) => [
    c.id,
    (FROM_PACKAGE.has(c.id) ? packageRegions(c.id) : undefined) ??
      c.regions.map((r) => ({ id: r.id, name: r.name })),
  ]),
)
const REGION_NAMES = new Map([...REGIONS.values()].flat().map((r) => [r.id, r.name]))

/** The regions of a country, [] for an unknown one. */
export const regionsOf = (country: string): Region[] => [...(REGIONS.get(country) ?? [])]

/** A region's name, or its id when unknown. */
export const regionName = (id: string) => REGION_NAMES.get(id) ?? id

const REGION_DATA: Record<string, Region[]> = Object.fromEntries(
  [...REGIONS].map(([c, regions]) => [c, [...regions]]),
)

/** GET /api/regions.php region_data: per country, its regions (id, name); built once. */
export const regionData = () => REGION_DATA

export const isKnownCountry = (id: string) => findCountry(id) !== undefined

export const isRegionOf = (country: string, region: string) =>
  REGIONS.get(country)?.some((r) => r.id === region) ?? false

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
 * the site does not list (e.g. a US state outside db/reference/geo.ts): no region.
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
