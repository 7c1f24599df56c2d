// The shapes of the geography data (geo.ts and its per-continent files).

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
