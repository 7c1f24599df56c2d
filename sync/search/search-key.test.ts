import { describe, expect, it } from 'vitest'
import { isManualSearch, type SearchFilters, searchKey } from './search-key.ts'

describe('searchKey', () => {
  it.each<[string, SearchFilters, string]>([
    ['no filters', {}, 'default'],
    [
      'filters all undefined',
      { gender: undefined, country: undefined, min_age: undefined },
      'default',
    ],
    ['one filter', { country: 'NL' }, '|NL|||'],
    [
      'every filter',
      { gender: 'female', country: 'BE', countryregion: 'BE-VAN', min_age: 25, max_age: 40 },
      'female|BE|BE-VAN|25|40',
    ],
  ])('%s', (_, filters, key) => expect(searchKey(filters)).toBe(key))

  it('does not depend on the order the filters were set in', () => {
    expect(searchKey({ min_age: 20, country: 'NL', gender: 'male' })).toBe(
      searchKey({ gender: 'male', country: 'NL', min_age: 20 }),
    )
  })

  it('gives different filters different keys', () => {
    // Every combination of a few realistic values: no two may share a key,
    // or one search's stored page would be shown for another.
    const genders = [undefined, 'male', 'female'] as const
    const countries = [undefined, 'NL', 'BE']
    const regions = [undefined, 'NL-NH', 'BE-VAN']
    const ages = [undefined, 18, 30, 100]
    const keys = new Map<string, SearchFilters>()
    for (const gender of genders)
      for (const country of countries)
        for (const countryregion of regions)
          for (const min_age of ages)
            for (const max_age of ages) {
              const f = { gender, country, countryregion, min_age, max_age }
              const key = searchKey(f)
              expect(keys.get(key), `${key} for ${JSON.stringify(f)}`).toBeUndefined()
              keys.set(key, f)
            }
    expect(keys.size).toBe(3 * 3 * 3 * 4 * 4)
  })

  it('keeps min_age and max_age apart', () => {
    expect(searchKey({ min_age: 30 })).not.toBe(searchKey({ max_age: 30 }))
  })

  it('keeps a search sorted online first apart from the same filters by activity', () => {
    expect(searchKey({ sort: 'online' })).toBe('default|online')
    expect(searchKey({ country: 'NL', sort: 'online' })).toBe('|NL||||online')
    expect(searchKey({ country: 'NL', sort: undefined })).toBe('|NL|||')
  })

  it('counts only filters, not the order, as a manual search (which the server saves)', () => {
    expect(isManualSearch({ sort: 'online' })).toBe(false)
    expect(isManualSearch({})).toBe(false)
    expect(isManualSearch({ country: 'NL', sort: 'online' })).toBe(true)
  })

  it('stores a verified-only search apart, and leaves the keys without it as they were', () => {
    expect(searchKey({ verified: true })).not.toBe(searchKey({}))
    expect(searchKey({ min_age: 30, verified: true })).not.toBe(searchKey({ min_age: 30 }))
    expect(searchKey({ verified: false })).toBe('default')
    expect(searchKey({ min_age: 30, verified: false })).toBe('|||30|')
  })
})
