import { describe, expect, it } from 'vitest'
import { COUNTRIES } from '../../db/reference/geo.ts'
import { isRegionOf, regionData, regionName, regionsOf } from './regions.ts'

describe('region data (GET /api/regions.php, search filters, settings.region_data)', () => {
  it('holds every region the demo seed uses, so seeded members keep a valid region', () => {
    const missing = COUNTRIES.flatMap((c) =>
      c.regions.filter((r) => !isRegionOf(c.id, r.id)).map((r) => r.id),
    )
    expect(missing).toEqual([])
  })

  it('takes complete first-level lists from the dataset package', () => {
    const us = regionsOf('US').map((r) => r.id)
    expect(us).toHaveLength(52) // 50 states, DC, Puerto Rico
    expect(us).toContain('US-TX')
    expect(us).not.toContain('US-AE') // forces mail is not a place to live
    expect(regionsOf('DE')).toHaveLength(16)
    expect(regionsOf('NL')).toHaveLength(12)
    expect(regionName('DE-BY')).toBe('Bayern')
  })

  it('keeps the curated ISO level where the package mixes levels', () => {
    expect(regionsOf('GB').map((r) => r.id)).toEqual(['GB-ENG', 'GB-SCT', 'GB-WLS', 'GB-NIR'])
    expect(regionsOf('IE')).toHaveLength(4)
  })

  it('answers every known country and nothing else', () => {
    expect(Object.keys(regionData()).sort()).toEqual(COUNTRIES.map((c) => c.id).sort())
    expect(regionsOf('XX')).toEqual([])
    expect(isRegionOf('NL', 'DE-BY')).toBe(false)
  })
})
