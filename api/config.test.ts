// The process's configuration (api/config.ts): DATABASE_POOL_SIZE sizes the
// PostgreSQL pool (db/client.ts), 1..200, 10 unless set; anything else stops
// the start with the variable's name instead of a pool nobody asked for.
import { describe, expect, it } from 'vitest'
import { createPool, DEFAULT_POOL_SIZE } from '../db/client.ts'
import { loadConfig } from './config.ts'

const URL = 'postgres://postgres@127.0.0.1:5432/test'

describe('DATABASE_POOL_SIZE', () => {
  it('sizes the PostgreSQL pool: 10 unless set', () => {
    expect(loadConfig({ DATABASE_URL: URL }).database).toEqual({
      kind: 'postgres',
      url: URL,
      poolSize: 10,
    })
    expect(DEFAULT_POOL_SIZE).toBe(10)
    for (const [value, size] of [
      ['1', 1],
      ['25', 25],
      ['200', 200],
    ] as const)
      expect(loadConfig({ DATABASE_URL: URL, DATABASE_POOL_SIZE: value }).database).toMatchObject({
        poolSize: size,
      })
  })

  it('refuses 0, more than 200 and what is no whole number, naming the variable', () => {
    for (const value of ['0', '-1', '201', '2.5', 'ten', '10abc', ''])
      expect(
        () => loadConfig({ DATABASE_URL: URL, DATABASE_POOL_SIZE: value }),
        `DATABASE_POOL_SIZE=${JSON.stringify(value)}`,
      ).toThrow(/DATABASE_POOL_SIZE/)
  })

  it('reaches the pool (db/client.ts createPool, as openDatabase builds it)', async () => {
    const pool = createPool(URL, 3)
    const fallback = createPool(URL)
    try {
      expect(pool.options.max).toBe(3)
      expect(fallback.options.max).toBe(DEFAULT_POOL_SIZE)
    } finally {
      await Promise.all([pool.end(), fallback.end()])
    }
  })
})
