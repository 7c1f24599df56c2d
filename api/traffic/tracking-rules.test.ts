import { describe, expect, it } from 'vitest'
import {
  hasTrackingKeys,
  TRACKING_COOKIE_MAX_AGE_S,
  TRACKING_KEYS,
  trackingFromQuery,
  trackingFromStored,
} from '../contract/rules/tracking.ts'

describe('spec §9 tracking keys and the §3 record', () => {
  it('pins the spec §9 keys and the 30-day storage cookie', () => {
    expect([...TRACKING_KEYS]).toEqual([
      'network',
      'ref',
      'sub',
      'sub1',
      'sub2',
      'sub3',
      'aff_sub',
      'aff_sub1',
      'aff_sub2',
      'aff_sub3',
      'cpc',
    ])
    expect(TRACKING_COOKIE_MAX_AGE_S).toBe(2592000)
  })

  it('reads network, ref, the sub keys (sub and aff_sub as aliases of sub1) and cpc', () => {
    expect(
      trackingFromQuery('?network=aff1&ref=x&aff_sub=s1&aff_sub2=s2&cpc=0.12&other=1'),
    ).toEqual({ network: 'aff1', ref: 'x', sub1: 's1', sub2: 's2', cpc: '0.12' })
    expect(trackingFromQuery('?network=aff1&sub=a&sub1=b')).toEqual({ network: 'aff1', sub1: 'b' })
  })

  it.each([
    '',
    '?ref=x',
    '?network=',
    '?network=%20',
    '?network=<script>',
    `?network=${'a'.repeat(65)}`,
  ])('no record without a valid network: %j', (q) => expect(trackingFromQuery(q)).toBeNull())

  it('drops values outside the strict pattern instead of keeping them', () => {
    const r = trackingFromQuery('?network=aff1&sub1=%3Cb%3Ehi&sub2=ok_2&ref=a%20b&cpc=1e3')
    expect(r).toEqual({ network: 'aff1', sub2: 'ok_2', cpc: '1e3' })
    expect(JSON.stringify(r)).not.toContain('<b>')
  })

  it.each([
    [null, null],
    ['not an object', null],
    [{ ref: 'x' }, null],
    [{ network: 42 }, null],
    [
      { network: 'aff1', sub1: 'a', sub2: 7, sub3: '"><img>' },
      { network: 'aff1', sub1: 'a' },
    ],
    [
      { network: 'aff1', lander: 'video' },
      { network: 'aff1', lander: 'video' },
    ],
  ])('stored %j → %j', (raw, want) => expect(trackingFromStored(raw)).toEqual(want))

  it('knows when a URL carries tracking keys (then they are taken off)', () => {
    expect(hasTrackingKeys('?aff_sub3=x')).toBe(true)
    expect(hasTrackingKeys('?network=')).toBe(true)
    expect(hasTrackingKeys('?page=2')).toBe(false)
  })
})
