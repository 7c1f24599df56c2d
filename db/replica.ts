// Reads on a PostgreSQL streaming replica (DATABASE_REPLICA_URL,
// docs/several-machines.md, "Reads on a replica"). The read-only hot paths
// (search, profiles, likes lists) ask `pick()` for their handle per request:
// the replica while it is close enough behind the primary, the primary when
// it is not, when it does not answer, and for a session that wrote a moment
// ago (read-your-writes). Everything else keeps using the primary.
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { createPool, type Db, endPool } from './client.ts'
import * as schema from './schema/index.ts'

/** The handle a read-only answer uses; without a replica always the primary. */
export interface ReadRouter {
  /**
   * The handle for one request's reads: `session` is the request's session
   * cookie (undefined for a guest).
   */
  pick(session: string | undefined): Db
  /** The session wrote: its reads go to the primary for the next `windowMs`. */
  wrote(session: string): void
  /** For /metrics: whether the replica is used now, and the reads sent to each. */
  readonly stats: {
    configured: boolean
    usable: boolean
    lagMs: number | null
    reads: { primary: number; replica: number }
  }
  close(): Promise<void>
}

/** No replica: every read on the primary, nothing remembered. */
export function primaryOnly(db: Db): ReadRouter {
  const stats = { configured: false, usable: false, lagMs: null, reads: { primary: 0, replica: 0 } }
  return {
    pick: () => db,
    wrote: () => undefined,
    stats,
    close: async () => undefined,
  }
}

export interface ReplicaOptions {
  url: string
  /** Pooled connections to the replica (DATABASE_POOL_SIZE, as the primary's). */
  poolSize?: number
  /** Further behind than this, the replica is skipped (DATABASE_REPLICA_MAX_LAG_MS). */
  maxLagMs: number
  /** How often the lag is measured: one statement on each server (default 1 s). */
  probeMs?: number
  /** One line on each change of state (default console.log). */
  log?: (line: string) => void
}

/** A WAL position `X/Y` (hex) as a number that orders them. */
export function lsnValue(lsn: string): bigint {
  const [hi = '0', lo = '0'] = lsn.split('/')
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`)
}

/**
 * How far behind the replica is, from the primary's WAL positions sampled
 * once a probe (`samples`, oldest first) and the replica's replayed
 * position: 0 when it replayed the newest sample, else the age of the
 * oldest sample it has not replayed yet (the primary was there that long
 * ago at least). Unlike `now() - pg_last_xact_replay_timestamp()` this does
 * not grow on an idle primary, and it sees a replica whose WAL receiver lost
 * the primary (its own "received" position stands still too). `null` when
 * it has not even replayed the oldest sample: further behind than the
 * samples reach (a process that just started knows only one), so unknown.
 */
export function lagMsOf(
  samples: readonly { at: number; lsn: bigint }[],
  replayed: bigint,
  now: number,
): number | null {
  const behind = samples.findIndex((s) => s.lsn > replayed)
  if (behind === 0) return null
  return behind === -1 ? 0 : now - (samples[behind]?.at ?? now)
}

/** The replica's replayed WAL position; on a server that is no standby, its current one. */
const REPLAYED = `SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
  ELSE pg_current_wal_lsn() END)::text AS lsn`
const CURRENT = 'SELECT pg_current_wal_lsn()::text AS lsn'

async function lsnOf(pool: pg.Pool, statement: string): Promise<bigint> {
  const { rows } = await pool.query<{ lsn: string | null }>(statement)
  const lsn = rows[0]?.lsn
  if (!lsn) throw new Error('no WAL position (not a streaming replica?)')
  return lsnValue(lsn)
}

type Stats = ReadRouter['stats']

/**
 * Measures the replica's lag every `probeMs` (one statement on each server,
 * never per request) and keeps `stats.usable`: within `maxLagMs` and
 * answering. Also drops the remembered writes older than `windowMs`.
 */
function lagProbe(
  primaryPool: pg.Pool,
  pool: pg.Pool,
  { maxLagMs, probeMs, log }: { maxLagMs: number; probeMs: number; log: (line: string) => void },
  stats: Stats,
  forget: (now: number) => void,
  stopped: () => boolean,
): NodeJS.Timeout {
  let probed = false
  // One line when the state is first known and on each change, not per probe.
  const setState = (usable: boolean, why: string) => {
    if (!probed || usable !== stats.usable) {
      log(
        usable
          ? `db: replica in use (${why})`
          : `db: replica skipped, reads on the primary: ${why}`,
      )
    }
    probed = true
    stats.usable = usable
  }
  const samples: { at: number; lsn: bigint }[] = []
  let inFlight = false
  let lastAnswer = Date.now()
  const probe = async () => {
    const now = Date.now()
    forget(now)
    if (inFlight) {
      // A probe that hangs (a replica gone silent) counts as no answer.
      if (now - lastAnswer > maxLagMs) setState(false, `no answer for ${now - lastAnswer} ms`)
      return
    }
    inFlight = true
    try {
      const [current, replayed] = await Promise.all([
        lsnOf(primaryPool, CURRENT),
        lsnOf(pool, REPLAYED),
      ])
      const at = Date.now()
      lastAnswer = at
      samples.push({ at, lsn: current })
      // Samples older than the limit and two periods tell nothing more.
      while (samples.length > 1 && at - (samples[0]?.at ?? at) > maxLagMs + 2 * probeMs) {
        samples.shift()
      }
      const lag = lagMsOf(samples, replayed, at)
      // Unknown: at least as old as the oldest sample.
      stats.lagMs = lag ?? at - (samples[0]?.at ?? at)
      if (lag === null) setState(false, 'behind every WAL position sampled, lag unknown')
      else if (lag > maxLagMs) {
        setState(false, `lag ${lag} ms over DATABASE_REPLICA_MAX_LAG_MS=${maxLagMs}`)
      } else setState(true, `lag ${lag} ms`)
    } catch (e) {
      // A probe cut short by close() is no change of state.
      if (stopped()) return
      stats.lagMs = null
      setState(false, `does not answer (${e instanceof Error ? e.message : String(e)})`)
    } finally {
      inFlight = false
    }
  }
  const timer = setInterval(() => void probe(), probeMs)
  timer.unref()
  void probe()
  return timer
}

/**
 * A router over the primary `db` and the replica at `options.url`. The
 * replica starts skipped until its first probe shows it close enough.
 */
export function replicaReads(db: Db, options: ReplicaOptions): ReadRouter {
  const { maxLagMs, probeMs = 1000, log = console.log } = options
  const primaryPool = (db as { $client?: unknown }).$client
  if (!(primaryPool instanceof pg.Pool))
    throw new Error('a read replica needs a PostgreSQL primary')
  const pool = createPool(options.url, options.poolSize)
  const replica = drizzlePg(pool, { schema }) as unknown as Db
  // Lag is measured to within a probe period and may have grown by another
  // one since: a write older than this is on the replica whenever it is used.
  const windowMs = maxLagMs + 2 * probeMs
  const wroteAt = new Map<string, number>()
  // A process that just started does not know who wrote on the one before
  // it (a rolling deploy): every session reads the primary for one window.
  const startedAt = Date.now()
  const stats: Stats = {
    configured: true,
    usable: false,
    lagMs: null,
    reads: { primary: 0, replica: 0 },
  }
  const forget = (now: number) => {
    for (const [session, at] of wroteAt) if (now - at > windowMs) wroteAt.delete(session)
  }
  let closed = false
  const timer = lagProbe(primaryPool, pool, { maxLagMs, probeMs, log }, stats, forget, () => closed)
  return {
    pick(session) {
      const now = Date.now()
      const fresh =
        session !== undefined &&
        (now - startedAt < windowMs || now - (wroteAt.get(session) ?? -Infinity) < windowMs)
      if (stats.usable && !fresh) {
        stats.reads.replica++
        return replica
      }
      stats.reads.primary++
      return db
    },
    wrote(session) {
      wroteAt.set(session, Date.now())
    },
    stats,
    async close() {
      closed = true
      clearInterval(timer)
      await endPool(pool)
    },
  }
}
