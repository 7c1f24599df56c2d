import { describe, expect, it } from 'vitest'
import { urlBase64ToUint8Array } from './push.ts'
import { networkFromQuery, parseStoredNetwork } from './tracking.ts'

describe('spec §9: the push key is decoded from URL-safe base64', () => {
  it.each([
    // "-" and "_" are the URL-safe forms of "+" and "/"; padding is optional.
    ['-_8', [0xfb, 0xff]],
    ['AQID', [1, 2, 3]],
    ['AQI', [1, 2]],
    ['AQ', [1]],
  ])('%s', (key, bytes) => expect([...urlBase64ToUint8Array(key)]).toEqual(bytes))

  it('a VAPID public key is 65 bytes starting with 0x04', () => {
    const key = Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => i * 3)]).toString(
      'base64url',
    )
    const bytes = urlBase64ToUint8Array(key)
    expect(bytes).toHaveLength(65)
    expect(bytes[0]).toBe(4)
    expect(Buffer.from(bytes).toString('base64url')).toBe(key)
  })
})

describe('spec §5 network tracking entry', () => {
  it('reads network, ref and the sub keys (aff_sub as an alias)', () => {
    expect(networkFromQuery('?network=aff1&ref=x&aff_sub=s1&sub2=s2&other=1')).toEqual({
      network: 'aff1',
      ref: 'x',
      sub1: 's1',
      sub2: 's2',
    })
  })

  it.each(['', '?ref=x', '?network=', '?network=%20'])('no network in %j', (q) =>
    expect(networkFromQuery(q)).toBeNull(),
  )

  it.each([
    [null, null],
    ['not json', null],
    ['{"ref":"x"}', null],
    ['{"network":42}', null],
    ['{"network":"aff1","sub1":"a","sub2":7}', { network: 'aff1', sub1: 'a' }],
  ])('stored %j → %j', (raw, want) => expect(parseStoredNetwork(raw)).toEqual(want))
})
