// Reference data of the sign-up steps (spec §7): regions, interests, profile
// fields and reverse geocoding from a shipped dataset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COUNTRIES } from '../../db/reference/geo.ts'
import { REGION_ANCHORS } from '../../db/reference/region-anchors.ts'
import {
  ApiError,
  GeocodeResponse,
  InterestsResponse,
  ProfileFieldsResponse,
  RegionsResponse,
} from '../contract/index.ts'
import { type AccountsApi, accountsApi } from '../test/accounts.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { reverseGeocode } from './geocode.ts'

describe('reference data', () => {
  let database: TestDatabase
  let api: AccountsApi

  beforeAll(async () => {
    // Read-only answers that touch no member data: one engine is enough.
    database = await freshDatabase('pglite')
    api = accountsApi(database.db)
  })
  afterAll(() => database?.close())

  const get = async (path: string) => {
    const res = await send(api.app, path)
    expect(res.status, path).toBe(200)
    return res.json()
  }

  it('GET /api/regions.php lists every known country with its regions', async () => {
    const { region_data } = RegionsResponse.parse(await get('/api/regions.php'))
    expect(Object.keys(region_data).sort()).toEqual(COUNTRIES.map((c) => c.id).sort())
    expect(region_data.NL).toContainEqual({ id: 'NL-NH', name: 'Noord-Holland' })
  })

  it('GET /api/interests.php answers a fixed list', async () => {
    const { interests } = InterestsResponse.parse(await get('/api/interests.php'))
    expect(interests).toContain('travel')
    expect(new Set(interests).size).toBe(interests.length)
  })

  it('GET /api/profile_fields.php answers allowed values for gender and the visible fields', async () => {
    const { allowed_values } = ProfileFieldsResponse.parse(await get('/api/profile_fields.php'))
    expect(Object.keys(allowed_values).sort()).toEqual(
      ['children', 'education', 'gender', 'height', 'relationship', 'smoking'].sort(),
    )
    expect(allowed_values.gender).toEqual(['male', 'female'])
  })

  it.each([
    [52.3731, 4.8922, 'NL', 'NL-NH', 'Amsterdam'],
    [52.0907, 5.1214, 'NL', 'NL-UT', 'Utrecht'],
    [51.9244, 4.4777, 'NL', 'NL-ZH', 'Rotterdam'],
    [50.8503, 4.3517, 'BE', 'BE-BRU', 'Brussels'],
    [48.1351, 11.582, 'DE', 'DE-BY', 'Munich'],
    [53.4808, -2.2426, 'GB', 'GB-ENG', 'Manchester'],
    [-33.8688, 151.2093, 'AU', 'AU-NSW', 'Sydney'],
  ])(
    'GET /api/geocode.php?lat=%s&lon=%s is in %s, %s (%s)',
    async (lat, lon, country, region, city) => {
      const res = GeocodeResponse.parse(await get(`/api/geocode.php?lat=${lat}&lon=${lon}`))
      expect(res).toEqual({ country, countryregion: region, city })
    },
  )

  it('names the package place and the nearest region away from the anchor cities', () => {
    // Between Amsterdam and Haarlem, nearer Haarlem: Noord-Holland, a nearby place name.
    const res = reverseGeocode(52.36, 4.72)
    expect(res.country).toBe('NL')
    expect(res.countryregion).toBe('NL-NH')
    expect(res.city).toEqual(expect.any(String))
  })

  it('answers nulls at sea and outside the known countries, without failing', async () => {
    expect(GeocodeResponse.parse(await get('/api/geocode.php?lat=0&lon=-30'))).toEqual({
      country: null,
      countryregion: null,
      city: null,
    })
    // Tokyo: a real place, not one of the site's countries.
    expect(reverseGeocode(35.68, 139.69).country).toBeNull()
  })

  it.each([
    ['lat=91&lon=0', 'lat'],
    ['lat=0&lon=181', 'lon'],
    ['lat=abc&lon=0', 'lat'],
    ['lon=4', 'lat'],
    ['lat=52', 'lon'],
    ['lat=&lon=4', 'lat'],
    ['lat=52&lon=%20', 'lon'],
    ['lat=NaN&lon=4', 'lat'],
    ['lat=Infinity&lon=4', 'lat'],
  ])('GET /api/geocode.php?%s answers 400 naming %s', async (query, field) => {
    const res = await send(api.app, `/api/geocode.php?${query}`)
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json()).field).toBe(field)
  })

  it('has an anchor for every known region', () => {
    for (const c of COUNTRIES) {
      for (const r of c.regions) expect(REGION_ANCHORS[r.id]?.length, r.id).toBeGreaterThan(0)
    }
  })
})
