// One connection factory for both engines. With a DATABASE_URL the API talks
// to PostgreSQL through `pg`; without one it runs on PGlite (embedded
// PostgreSQL in WebAssembly) with its data in a directory, or in memory for
// tests. Both get the same drizzle schema and the same SQL migrations.
import { AsyncLocalStorage } from 'node:async_hooks'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { channelsOf, type Listen, type Listening, pgListen } from './listen.ts'
import * as schema from './schema/index.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

/** LISTEN on a channel (db/listen.ts). */
export type { Listen, Listening }

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** PostgreSQL LISTEN/NOTIFY: a dedicated connection on pg, PGlite's own on the embedded db. */
  listen: Listen
  close(): Promise<void>
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

export type DatabaseOptions =
  /** poolSize: the pool's connections (DATABASE_POOL_SIZE, default 10). */
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** dataDir undefined = in memory (tests). */
  | {
      kind: 'pglite'
      dataDir?: string
      /** An in-memory database starts as a copy of this dump (pgliteTemplate()); migrations still run. */
      template?: Blob
    }

/** Connections of a pool unless DATABASE_POOL_SIZE says otherwise (api/config.ts). */
export const DEFAULT_POOL_SIZE = 10

/**
 * A pool that rides out lost connections. PostgreSQL ends connections on a
 * restart, a failover or pg_terminate_backend; `pg` then emits 'error' on the
 * idle client's pool, or on a checked-out client between two queries of a
 * transaction, and an 'error' event nobody listens to kills the process. The
 * handlers only log: the dead client leaves the pool, the request that used it
 * fails (503, api/http/errors.ts) and the next one opens a new connection once
 * the server is back. A connection (or a free pooled one) is waited for at most 30 s, so a server
 * that does not answer costs a request seconds, not forever.
 */
export function createPool(url: string, max = DEFAULT_POOL_SIZE): pg.Pool {
  // The timeout also bounds the wait for a free pooled connection: a burst of
  // requests queues for up to this long instead of failing.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 30_000 })
  pool.on('error', (err) => console.error('db: idle connection lost:', err.message))
  pool.on('connect', (client) => {
    client.on('error', (err) => console.error('db: connection lost:', err.message))
  })
  return pool
}

/**
 * pool.end() resolves only once every checked-out client is released; a
 * request still stuck on a connection the server killed would hold shutdown
 * forever. Wait a bounded time, then leave: the process (or the test's
 * DROP DATABASE … WITH (FORCE)) ends whatever is left.
 */
export async function endPool(pool: pg.Pool, waitMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`db: ${pool.totalCount - pool.idleCount} connection(s) still in use at close`)
      resolve()
    }, waitMs)
    timer.unref()
  })
  await Promise.race([pool.end(), waited])
  clearTimeout(timer)
}

/**
 * The key of the start-up lock, a PostgreSQL advisory lock (its keys belong
 * to one database, so two databases on one server never wait on each other).
 */
const START_LOCK = "SELECT pg_advisory_lock(hashtext('amora start'))"
const START_UNLOCK = "SELECT pg_advisory_unlock(hashtext('amora start'))"

/** The pool whose start-up lock the current async call chain holds. */
const startLockHeld = new AsyncLocalStorage<pg.Pool>()
/** Start-up work running under the lock now, over all pools of the process. */
let underLock = 0

/**
 * Runs `work` under the start-up lock of this database: the migrations, the
 * demo seed and the first staff accounts, whose "is it done yet?" check and
 * writes must not interleave with another process doing the same on an empty
 * database (docs/several-machines.md). On PostgreSQL that is a session-level
 * advisory lock held on one connection of its own for the whole of `work`
 * (which queries through the pool as usual); whoever comes second waits, then
 * finds the work done. A transaction-level lock would not do: `work` spans
 * many transactions on several pooled connections. Nested calls in one call
 * chain run at once (a second connection would wait for the first forever).
 * PGlite is one process with one connection: nothing to lock.
 */
export function withStartLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const client = (db as { $client?: unknown }).$client
  return client instanceof pg.Pool ? underStartLock(client, work) : work()
}

async function underStartLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  if (startLockHeld.getStore() === pool) return work()
  const connection = await pool.connect()
  try {
    await connection.query(START_LOCK)
  } catch (e) {
    connection.release(e as Error)
    throw e
  }
  underLock++
  try {
    return await startLockHeld.run(pool, work)
  } finally {
    // The last start-up work done: the store is switched off, and with it
    // (Node 20) the promise hooks an AsyncLocalStorage keeps on for every
    // promise the process makes from then on, every request's included.
    // The next start-up work (a test's new database) switches it on again.
    if (--underLock === 0) startLockHeld.disable()
    // A connection whose unlock failed is closed, not pooled: its session,
    // and the lock with it, ends.
    const failed = await connection.query(START_UNLOCK).then(
      () => undefined,
      (e: Error) => e,
    )
    connection.release(failed)
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = createPool(options.url, options.poolSize)
    const db = drizzlePg(pool, { schema })
    try {
      // drizzle's migrator checks what is applied, then creates its schema and
      // runs the rest: two processes doing that at once on an empty database
      // collide (duplicate key on pg_type). Under the lock the second finds
      // everything applied.
      await underStartLock(pool, () => migratePg(db, { migrationsFolder }))
    } catch (e) {
      await endPool(pool)
      throw e
    }
    // A connection of its own, which reports its loss (db/listen.ts).
    const listen = pgListen(options.url)
    return { db: db as unknown as Db, kind: 'postgres', listen, close: () => endPool(pool) }
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
  const client = options.dataDir
    ? new PGlite(options.dataDir)
    : new PGlite(options.template ? { loadDataDir: options.template } : {})
  const db = drizzlePglite(client, { schema })
  await migratePglite(db, { migrationsFolder })
  const listen: Listen = async (channel, onPayload) => {
    const stops = new Map<string, () => Promise<void>>()
    const add = async (channels: readonly string[]) => {
      await Promise.all(
        channels.map(async (c) => {
          if (stops.has(c)) return
          stops.set(c, await client.listen(c, (payload) => onPayload(payload, c)))
        }),
      )
    }
    await add(channelsOf(channel))
    return {
      async change(more, fewer) {
        await add(channelsOf(more))
        await Promise.all(
          channelsOf(fewer).map((c) => {
            const stop = stops.get(c)
            stops.delete(c)
            return stop?.()
          }),
        )
      },
      async stop() {
        await Promise.all([...stops.values()].map((stop) => stop()))
        stops.clear()
      },
    }
  }
  return { db: db as unknown as Db, kind: 'pglite', listen, close: () => client.close() }
}

/**
 * Runs reads that make up one answer in one REPEATABLE READ READ ONLY
 * transaction, so every query sees the same snapshot: a like committed
 * between two of them cannot make a count disagree with the ids beside it.
 * On `pg` the queries share one pooled connection (they queue on it instead
 * of running on several); PGlite has one connection anyway.
 */
export function readSnapshot<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  })
}

/**
 * SQLSTATE classes and socket errors that mean "the connection or the server
 * went away", not "this statement is wrong": 08 connection exception, 57P01–03
 * admin/crash shutdown and cannot-connect-now (a restarting server).
 */
const LOST_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'])
const LOST_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|terminating connection/i

/** Whether an error (or one it wraps, as drizzle does in `cause`) is a lost database connection. */
/**
 * Whether a database error, as pg and PGlite raise it (drizzle wraps it in
 * `cause`), carries this SQLSTATE: '23505' unique_violation, '23514'
 * check_violation.
 */
export function hasPgCode(e: unknown, code: string): boolean {
  let err: unknown = e
  for (let depth = 0; depth < 6 && typeof err === 'object' && err !== null; depth++) {
    if ('code' in err && err.code === code) return true
    err = 'cause' in err ? err.cause : undefined
  }
  return false
}

export function isConnectionLost(e: unknown): boolean {
  let err: unknown = e
  for (let depth = 0; depth < 6 && typeof err === 'object' && err !== null; depth++) {
    const code = 'code' in err ? String(err.code) : ''
    if (LOST_CODES.has(code) || code.startsWith('08')) return true
    if (err instanceof Error && LOST_MESSAGES.test(err.message)) return true
    // AggregateError: every address of the host refused (ECONNREFUSED on ::1 and 127.0.0.1).
    if (err instanceof AggregateError && err.errors.some(isConnectionLost)) return true
    err = 'cause' in err ? err.cause : undefined
  }
  return false
}

/**
 * A migrated, empty PGlite database as a dump: tests start each suite's
 * in-memory database from it instead of running every migration again
 * (seconds of WebAssembly per suite on a busy machine).
 */
export async function pgliteTemplate(): Promise<Blob> {
  const client = new PGlite()
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder })
  const dump = await client.dumpDataDir('none')
  await client.close()
  return dump
}
