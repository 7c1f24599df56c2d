// GET /api/geocode.php: reverse geocoding from a dataset shipped inside the
// offline-geocode-city package (UN/LOCODE places in S2 cells); no network
// call. The package gives the country and a nearby place; the region comes
// from the site's own region list (regions.ts).
import { getNearestCity } from 'offline-geocode-city'
import type { GeocodeResponse } from '../contract/index.ts'
import { isKnownCountry, nearestAnchor, regionOfCity } from './regions.ts'

/** Within this distance of a region's anchor city, that city's name is the better pre-fill. */
const SAME_CITY_KM = 8

const NOWHERE: GeocodeResponse = { country: null, countryregion: null, city: null }

function packageLookup(lat: number, lon: number): { city: string; country: string } | null {
  try {
    const r = getNearestCity(lat, lon)
    return { city: r.cityName, country: r.countryIso2 }
  } catch {
    // The package walks to a neighbouring cell without bound; far out at sea
    // it never finds a place and overflows the stack. That means "nowhere".
    return null
  }
}

export function reverseGeocode(lat: number, lon: number): GeocodeResponse {
  const found = packageLookup(lat, lon)
  if (!found || !isKnownCountry(found.country)) return NOWHERE
  const { country } = found
  const anchor = nearestAnchor(country, lat, lon)
  const named = regionOfCity(country, found.city)
  if (anchor && anchor.km <= SAME_CITY_KM) {
    return { country, countryregion: anchor.region, city: anchor.anchor[0] }
  }
  return { country, countryregion: named ?? anchor?.region ?? null, city: found.city }
}
