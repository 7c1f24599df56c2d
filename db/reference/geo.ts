// The countries, regions and cities the demo data (and the search's region
// filter) know. Data only: no imports from outside db/, so the API and the
// seed can share it. The data itself is split by continent to keep files small.
import { EUROPE } from './geo-europe.ts'
import { WORLD } from './geo-world.ts'

/** One of the supported locales (spec §3). */
export type Language = 'en' | 'nl' | 'de' | 'it' | 'fr' | 'es' | 'pl'

export interface Region {
  /** ISO 3166-2 subdivision code, e.g. NL-NH. */
  id: string
  name: string
  /** Real cities in the region, largest first. */
  cities: string[]
  /** Where members mostly speak another language than the country's default. */
  language?: Language
}

export interface Country {
  /** ISO 3166-1 alpha-2, upper case. */
  id: string
  /** English name. */
  name: string
  /** The language most members of this country use. */
  language: Language
  regions: Region[]
}

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
