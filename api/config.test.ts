// The process's configuration (api/config.ts): DATABASE_POOL_SIZE sizes the
// PostgreSQL pool (db/client.ts), 1..200, 10 unless set; anything else stops
// the start with the variable's name instead of a pool nobody asked for.
// S3_BUCKET puts the pictures in object storage, else they stay on disk.
import { describe, expect, it } from 'vitest'
import { createPool, DEFAULT_POOL_SIZE } from '../db/client.ts'
import { loadConfig, loadStorageConfig, storageBanner } from './config.ts'

describe('SEND_GATHER_*', () => {
  it('gathers paid sends behind one statement at work, 32 at most, 50 ms before a statement counts as stalled, a 2 ms wait for company, unless set', () => {
    expect(loadConfig({}).sendGathering).toEqual({ inFlight: 1, most: 32, stallMs: 50, waitMs: 2 })
    expect(
      loadConfig({
        SEND_GATHER_IN_FLIGHT: '0',
        SEND_GATHER_MOST: '64',
        SEND_GATHER_STALL_MS: '200',
        SEND_GATHER_WAIT_MS: '0',
      }).sendGathering,
    ).toEqual({ inFlight: 0, most: 64, stallMs: 200, waitMs: 0 })
  })

  it('stops the start on a value out of range, naming the variable', () => {
    for (const [name, value] of [
      ['SEND_GATHER_IN_FLIGHT', '-1'],
      ['SEND_GATHER_IN_FLIGHT', 'two'],
      ['SEND_GATHER_MOST', '1'],
      ['SEND_GATHER_MOST', '1000'],
      ['SEND_GATHER_STALL_MS', '0'],
      ['SEND_GATHER_WAIT_MS', '-1'],
      ['SEND_GATHER_WAIT_MS', '51'],
    ] as const)
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name))
  })
})

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

describe('DATABASE_REPLICA_URL', () => {
  const REPLICA = 'postgres://postgres@127.0.0.1:5433/test'
  it('is off unless set: every read on the primary', () => {
    expect(loadConfig({ DATABASE_URL: URL }).replica).toBeUndefined()
    expect(loadConfig({}).replica).toBeUndefined()
  })
  it('takes the replica beside a PostgreSQL primary, skipped past 3000 ms of lag unless set', () => {
    expect(loadConfig({ DATABASE_URL: URL, DATABASE_REPLICA_URL: REPLICA }).replica).toEqual({
      url: REPLICA,
      poolSize: 10,
      maxLagMs: 3000,
    })
    const replica = loadConfig({
      DATABASE_URL: URL,
      DATABASE_REPLICA_URL: REPLICA,
      DATABASE_REPLICA_MAX_LAG_MS: '500',
    }).replica
    expect(replica?.maxLagMs).toBe(500)
  })
  it('refuses a replica without a PostgreSQL primary, and a lag limit out of 100..600000, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URL: REPLICA })).toThrow(/DATABASE_URL/)
    for (const bad of ['99', '600001', 'soon']) {
      expect(() =>
        loadConfig({
          DATABASE_URL: URL,
          DATABASE_REPLICA_URL: REPLICA,
          DATABASE_REPLICA_MAX_LAG_MS: bad,
        }),
      ).toThrow(/DATABASE_REPLICA_MAX_LAG_MS/)
    }
  })
})

describe('picture storage', () => {
  it('keeps pictures on disk unless S3_BUCKET is set: MEDIA_DIR, else DATA_DIR/media', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'disk', dir: '.data/media' })
    expect(loadStorageConfig({ DATA_DIR: '/srv/amora' })).toEqual({
      kind: 'disk',
      dir: '/srv/amora/media',
    })
    expect(loadStorageConfig({ MEDIA_DIR: '/pics', S3_BUCKET: '' })).toEqual({
      kind: 'disk',
      dir: '/pics',
    })
    expect(storageBanner(loadStorageConfig({ MEDIA_DIR: '/pics' }))).toMatch(
      /^start: pictures on disk in \/pics/,
    )
  })

  it('uses the bucket with the SDK variables: a custom endpoint, us-east-1 unless AWS_REGION', () => {
    expect(loadStorageConfig({ S3_BUCKET: 'pics', AWS_REGION: 'eu-west-1' })).toEqual({
      kind: 's3',
      bucket: 'pics',
      endpoint: undefined,
      region: 'eu-west-1',
    })
    const minio = loadStorageConfig({ S3_BUCKET: 'pics', AWS_ENDPOINT_URL_S3: 'http://minio:9000' })
    expect(minio).toEqual({
      kind: 's3',
      bucket: 'pics',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
    })
    expect(storageBanner(minio)).toBe(
      'start: pictures in S3 bucket pics at http://minio:9000 (path-style)',
    )
    expect(
      loadStorageConfig({ S3_BUCKET: 'pics', AWS_ENDPOINT_URL: 'http://s3.local:8333' }),
    ).toMatchObject({ endpoint: 'http://s3.local:8333' })
  })

  it('refuses a bucket name S3 would refuse, and an endpoint that is no http(s) URL, naming the variable', () => {
    for (const bucket of ['A', 'Pics', 'a_b', 'x'.repeat(64), '-pics'])
      expect(() => loadStorageConfig({ S3_BUCKET: bucket }), bucket).toThrow(/S3_BUCKET/)
    expect(() =>
      loadStorageConfig({ S3_BUCKET: 'pics', AWS_ENDPOINT_URL_S3: 'minio:9000' }),
    ).toThrow(/AWS_ENDPOINT_URL_S3/)
  })
})
