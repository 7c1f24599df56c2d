// The countries, regions and cities the demo data (and the search's region
// filter) know. Data only: no imports from outside db/, so the API and the
// seed can share it. The data itself is split by continent to keep files small.
import { EUROPE } from './geo-europe.ts'
import type { Country, Language } from './geo-types.ts'
import { WORLD } from './geo-world.ts'

export type { Country, Language, Region } from './geo-types.ts'

export const COUNTRIES: readonly Country[] = [...EUROPE, ...WORLD]

const countryById = new Map(COUNTRIES.map((c) => [c.id, c]))
const regionById = new Map(COUNTRIES.flatMap((c) => c.regions.map((r) => [r.id, r] as const)))

export const findCountry = (id: string): Country | undefined => countryById.get(id)
/** English country name; the id itself when unknown. */
export const countryName = (id: string): string => countryById.get(id)?.name ?? id

/** Region name; the id itself when unknown. */
export const regionName = (id: string): string => regionById.get(id)?.name ?? id

/** The language a member of this country and region most likely writes. */
export const languageOf = (country: string, region?: string | null): Language =>
  (region ? regionById.get(region)?.language : undefined) ??
  countryById.get(country)?.language ??
  'en'
