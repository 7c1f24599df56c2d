// Prometheus metrics at GET /metrics (prom-client; docs/several-machines.md,
// "Logs and metrics"). Two kinds of numbers:
// - the process's tallies, counted where things happen (messages sent, job
//   failures, payments settled, open event streams) and kept in one registry
//   of the module, so the code that counts needs no handle on the app;
// - the app's own, in a registry per createApi (tests build many apps): the
//   request histogram, the due jobs (counted by the queue: `queueDepth`) and
//   the pool, read on scrape.
// The answer goes to a loopback peer (the socket's address, never a forwarded
// header) and to `Authorization: Bearer $METRICS_TOKEN`; anyone else gets 404.
import { createHash, timingSafeEqual } from 'node:crypto'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import pg from 'pg'
import client from 'prom-client'
import type { EventBus } from '../events/bus.ts'
import type { Db } from '../../db/client.ts'
import type { ReadRouter } from '../../db/replica.ts'
import { endpoints } from '../contract/endpoints.ts'
import { clientIp } from './ratelimit.ts'
import { logOf, routeOf } from './request-log.ts'

const shared = new client.Registry()
// The process's own health beside the app's: CPU, resident memory, heap,
// event-loop lag, GC pauses and open handles (prom-client's defaults, the
// names every Node dashboard expects). Once per process, in the shared registry.
client.collectDefaultMetrics({ register: shared })

/** Event streams (GET /api/events.php) open in this process. */
export const openStreams = new client.Gauge({
  name: 'event_streams_open',
  help: 'Live event streams open in this process',
  registers: [shared],
})
/**
 * Statements checking the sessions of open event streams
 * (api/http/stream-sessions.ts): one per period for all of a process's
 * streams, so its rate is the streams' upkeep on the database.
 */
export const streamSessionChecks = new client.Counter({
  name: 'event_stream_session_checks_total',
  help: 'Statements that checked the sessions of all open event streams (one per period)',
  registers: [shared],
})
/** Messages stored by a send (201; a replay of a client id is not counted). */
export const messagesSent = new client.Counter({
  name: 'messages_sent_total',
  help: 'Messages sent (new sends answered 201)',
  registers: [shared],
})
/**
 * Paid sends by how their statement ran (api/chats/send-batch.ts): `alone`,
 * `batched` (with others in one statement), `again` (alone after a batch
 * that had the member's other session), `fallback` (alone after a batch
 * that failed: a figure that should stay near zero).
 */
export const sendStatements = new client.Counter({
  name: 'send_statements_total',
  help: 'Paid sends by how their statement ran: alone, batched, again, fallback',
  labelNames: ['way'],
  registers: [shared],
})
/** Statements that sent several paid sends at once: `batched` sends over this is the mean batch. */
export const sendBatches = new client.Counter({
  name: 'send_batches_total',
  help: 'Statements that sent several paid sends at once',
  registers: [shared],
})
/** Failed job attempts, by kind (a retry follows unless it was the last). */
export const jobFailures = new client.Counter({
  name: 'job_failures_total',
  help: 'Failed job attempts by kind',
  labelNames: ['kind'],
  registers: [shared],
})
/** Payments whose settlement changed their order, by the status it took. */
export const paymentsSettled = new client.Counter({
  name: 'payments_settled_total',
  help: 'Payments settled by status (paid, failed, canceled, expired, reversed)',
  labelNames: ['status'],
  registers: [shared],
})

/** Counts a settlement that changed an order (api/payments/settle.ts). */
export function countSettlement(outcome: string, providerStatus: string): void {
  if (outcome === 'granted') paymentsSettled.inc({ status: 'paid' })
  else if (outcome === 'closed') paymentsSettled.inc({ status: providerStatus })
  else if (outcome === 'reversed') paymentsSettled.inc({ status: 'reversed' })
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])

/** The app's registry and the histogram its middleware fills. */
function appRegistry(db: Db, queueDepth: () => Promise<number>) {
  const registry = new client.Registry()
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to the answer (to the first byte of an event stream) by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  new client.Gauge({
    name: 'job_queue_depth',
    help: 'Jobs queued and due now, waiting for a runner',
    registers: [registry],
    async collect() {
      try {
        this.set(await queueDepth())
      } catch {
        // The database does not answer: no sample rather than a failed scrape.
        this.reset()
      }
    },
  })
  // The pool of `pg` (none on PGlite: one in-process connection).
  const pool = (db as { $client?: unknown }).$client
  if (pool instanceof pg.Pool) {
    new client.Gauge({
      name: 'db_pool_connections_in_use',
      help: 'Pooled PostgreSQL connections checked out',
      registers: [registry],
      collect() {
        this.set(pool.totalCount - pool.idleCount)
      },
    })
    new client.Gauge({
      name: 'db_pool_waiting',
      help: 'Queries waiting for a free pooled connection',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount)
      },
    })
  }
  return { registry, duration }
}

/**
 * The read replica's state (db/replica.ts), read on scrape: whether it is
 * used now, its lag at the last probe, and the reads routed to each server.
 */
function replicaMetrics(registry: client.Registry, reads: ReadRouter) {
  new client.Gauge({
    name: 'db_replica_usable',
    help: 'Whether the read replica is used now (1) or skipped for lag or no answer (0)',
    registers: [registry],
    collect() {
      this.set(reads.stats.usable ? 1 : 0)
    },
  })
  new client.Gauge({
    name: 'db_replica_lag_seconds',
    help: "The read replica's lag behind the primary at the last probe",
    registers: [registry],
    collect() {
      const lag = reads.stats.lagMs
      if (lag === null) this.reset()
      else this.set(lag / 1000)
    },
  })
  new client.Counter({
    name: 'db_reads_total',
    help: 'Read-only answers (search, profiles, likes lists) by the server they read from',
    labelNames: ['target'],
    registers: [registry],
    collect() {
      this.reset()
      this.inc({ target: 'primary' }, reads.stats.reads.primary)
      this.inc({ target: 'replica' }, reads.stats.reads.replica)
    },
  })
}

/**
 * Whether the socket's peer is this machine (loopback), never by a header; a
 * request a proxy forwarded (X-Forwarded-For, Forwarded) is not local even
 * when the proxy runs on this machine.
 */
function fromLoopback(c: Context): boolean {
  if (c.req.header('x-forwarded-for') !== undefined || c.req.header('forwarded') !== undefined) {
    return false
  }
  const ip = clientIp(c, false)
  return ip === '::1' || /^127\.\d+\.\d+\.\d+$/.test(ip)
}

const digest = (s: string) => createHash('sha256').update(s).digest()

/** `Authorization: Bearer <token>` with the right token, compared in constant time. */
function hasToken(c: Context, token: string | undefined): boolean {
  if (!token) return false
  const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1]
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}

/**
 * The fan-out of live pokes in this process: the members' channels it
 * LISTENs on, and the pokes PostgreSQL delivered to it (those for a member
 * with no stream here are the waste the per-member channels keep near 0).
 */
function eventMetrics(registry: client.Registry, events: EventBus) {
  new client.Gauge({
    name: 'event_listen_channels',
    help: 'Members whose poke channel this process LISTENs on (one per member with a stream here)',
    registers: [registry],
    collect() {
      this.set(events.channels)
    },
  })
  new client.Gauge({
    name: 'event_pokes_received',
    help: 'Member pokes PostgreSQL delivered to this process since it started, by whether a stream here wanted them',
    labelNames: ['for'],
    registers: [registry],
    collect() {
      const { pokes, unheld } = events.received
      this.set({ for: 'stream_here' }, pokes - unheld)
      this.set({ for: 'no_stream_here' }, unheld)
    },
  })
}

/**
 * The request histogram's middleware and GET /metrics, mounted at the root
 * of the app (api/app.ts), before every other route so it times them all.
 */
export function metricsRoutes({
  db,
  queueDepth,
  reads,
  events,
  token = process.env.METRICS_TOKEN || undefined,
}: {
  db: Db
  /**
   * The jobs queued and due now (api/jobs/queue.ts dueJobCount), passed in:
   * the queue builds on this folder (its failures metric), so the count
   * comes from the one who owns the table, not from a query of our own.
   */
  queueDepth: () => Promise<number>
  /** The read replica's router, when DATABASE_REPLICA_URL is set (db/replica.ts). */
  reads?: ReadRouter | undefined
  /** The process's live pokes (api/events/bus.ts): its channels and what reached it. */
  events?: EventBus | undefined
  token?: string | undefined
}) {
  const { registry, duration } = appRegistry(db, queueDepth)
  if (reads?.stats.configured) replicaMetrics(registry, reads)
  if (events) eventMetrics(registry, events)
  const observe: MiddlewareHandler = async (c, next) => {
    const end = duration.startTimer()
    await next()
    end({
      method: METHODS.has(c.req.method) ? c.req.method : 'other',
      route: routeOf(c),
      status: String(c.res.status),
    })
  }
  return new Hono().use(observe).get(endpoints.metrics.path, async (c) => {
    if (!fromLoopback(c) && !hasToken(c, token)) return c.notFound()
    try {
      const merged = client.Registry.merge([shared, registry])
      return c.body(await merged.metrics(), 200, {
        'Content-Type': merged.contentType,
        'Cache-Control': 'no-store',
      })
    } catch (err) {
      logOf(c).error({ err }, 'metrics: collecting failed')
      return c.text('collecting the metrics failed', 500)
    }
  })
}
