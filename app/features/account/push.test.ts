import { describe, expect, it } from 'vitest'
import { urlBase64ToUint8Array } from './push.ts'

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
