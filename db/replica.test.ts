// The replica's lag as db/replica.ts measures it: from the primary's WAL
// positions sampled once a probe and the replica's replayed position.
import { describe, expect, it } from 'vitest'
import { lagMsOf, lsnValue } from './replica.ts'

describe('lsnValue', () => {
  it('orders WAL positions X/Y by both halves, read as hex', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n)
    expect(lsnValue('1/0')).toBe(1n << 32n)
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true)
  })
})

describe('lagMsOf', () => {
  const samples = [
    { at: 1000, lsn: 100n },
    { at: 2000, lsn: 200n },
    { at: 3000, lsn: 300n },
  ]
  it('is 0 for a replica that replayed the newest position sampled (an idle primary does not add lag)', () => {
    expect(lagMsOf(samples, 300n, 60_000)).toBe(0)
    expect(lagMsOf(samples, 350n, 3100)).toBe(0)
  })
  it('is the age of the oldest position not replayed yet', () => {
    expect(lagMsOf(samples, 200n, 3500)).toBe(500)
    expect(lagMsOf(samples, 150n, 3500)).toBe(1500)
  })
  it('is unknown (null) for a replica behind every position sampled: it is not used', () => {
    expect(lagMsOf(samples, 99n, 3500)).toBeNull()
    expect(lagMsOf([{ at: 1000, lsn: 100n }], 50n, 1000)).toBeNull()
  })
})
