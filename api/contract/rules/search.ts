// Spec §6 search rules both ends apply: who may search, and which countries.

/** The settings (spec §3) that open search to logged-out visitors. */
export interface GuestSearchSettings {
  logged_out_search: string
  logged_out_search_trafficsource: string
}

/**
 * Spec §6: search is visible when the visitor is logged in, or
 * logged_out_search is not none, or logged_out_search_trafficsource is not
 * none and a traffic source is present.
 */
export function searchVisible(
  loggedIn: boolean,
  settings: GuestSearchSettings,
  hasTrafficsource: boolean,
): boolean {
  if (loggedIn) return true
  return (
    settings.logged_out_search !== 'none' ||
    (hasTrafficsource && settings.logged_out_search_trafficsource !== 'none')
  )
}

/** Spec §6: search country options are the member's own plus its paired neighbour. */
export const COUNTRY_NEIGHBOURS: Readonly<Record<string, string>> = {
  AU: 'NZ',
  NZ: 'AU',
  NL: 'BE',
  BE: 'NL',
  US: 'CA',
  CA: 'US',
  GB: 'IE',
  IE: 'GB',
  DE: 'AT',
  AT: 'DE',
}

export const countryOptions = (own: string): string[] => {
  const neighbour = COUNTRY_NEIGHBOURS[own]
  return neighbour ? [own, neighbour] : [own]
}
