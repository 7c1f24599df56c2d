// Live pokes to members (GET /api/events.php). A commit that concerns a member
// sends a PostgreSQL NOTIFY on one channel (delivered at commit, never for a
// rolled-back transaction); every API process LISTENs and pokes the streams
// of its own connected members. A poke carries no data the client must
// trust, only what to pull: NOTIFY has no replay, so pulls by cursor stay the
// source of truth and polling (spec §9) the fallback.
import { sql } from 'drizzle-orm'
import type { Db, Listen } from '../../db/client.ts'
import type { Poke } from '../contract/index.ts'

export const EVENTS_CHANNEL = 'member_events'

/**
 * The channel of values a process caches (the message cost,
 * api/credits/ledger.ts): the payload names the cache, and every process's
 * bus tells its onCacheChange listeners to drop their copy. Listened to on
 * the events' LISTEN connection.
 */
export const CACHES_CHANNEL = 'cache_changes'

/** Tells every process to drop its copy of `cache`, in the caller's transaction (sent when it commits). */
export async function notifyCacheChange(tx: Db, cache: string): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${CACHES_CHANNEL}, ${cache})`)
}

/** Sends a poke to each member, in the caller's transaction (sent when it commits), in one statement. */
export async function notifyMembers(tx: Db, memberIds: number[], poke: Poke): Promise<void> {
  const payloads = [...new Set(memberIds)].map((m) => JSON.stringify({ m, ...poke }))
  if (payloads.length === 0) return
  await tx.execute(
    sql`SELECT pg_notify(${EVENTS_CHANNEL}, p) FROM unnest(${sql.param(payloads)}::text[]) AS p`,
  )
}

interface PokeBatch {
  payloads: Set<string>
  sent: Promise<void>
  resolve(): void
  reject(e: unknown): void
}
const batches = new WeakMap<Db, { busy: boolean; next?: PokeBatch }>()

/**
 * notifyMembers after a commit, on its own (a poke of a send, which commits
 * alone): pokes asked for while one NOTIFY statement of this database is
 * running go out together in the next one, so fifty sends at once cost a few
 * NOTIFY transactions, not fifty (each is a commit PostgreSQL serialises).
 * Resolves when the poke's statement ran.
 */
export function notifyMembersSoon(db: Db, memberIds: number[], poke: Poke): Promise<void> {
  let queue = batches.get(db)
  if (!queue) {
    queue = { busy: false }
    batches.set(db, queue)
  }
  let batch = queue.next
  if (!batch) {
    let resolve = () => {}
    let reject: (e: unknown) => void = () => {}
    const sent = new Promise<void>((ok, fail) => {
      resolve = ok
      reject = fail
    })
    batch = { payloads: new Set(), sent, resolve, reject }
    queue.next = batch
    if (!queue.busy) setImmediate(() => flush(db, queue))
  }
  for (const m of new Set(memberIds)) batch.payloads.add(JSON.stringify({ m, ...poke }))
  return batch.sent
}

function flush(db: Db, queue: { busy: boolean; next?: PokeBatch }): void {
  const batch = queue.next
  if (queue.busy || !batch) return
  queue.next = undefined
  queue.busy = true
  db.execute(
    sql`SELECT pg_notify(${EVENTS_CHANNEL}, p) FROM unnest(${sql.param([...batch.payloads])}::text[]) AS p`,
  )
    .then(
      () => batch.resolve(),
      (e: unknown) => batch.reject(e),
    )
    .finally(() => {
      queue.busy = false
      if (queue.next) flush(db, queue)
    })
}

/**
 * Where the bus's LISTEN stands: `idle` before the first stream (or
 * ready()), `connecting`, `up`, `down` (lost or refused; a retry is due),
 * `closed` for good.
 */
export type ListenState = 'idle' | 'connecting' | 'up' | 'down' | 'closed'

/** The waits between tries to LISTEN again: the first, doubling up to the longest. */
export interface RetryTiming {
  firstMs: number
  maxMs: number
}

/** 0.5 s doubling to 10 s: a restart of PostgreSQL costs seconds of pokes, not a process restart. */
export const LISTEN_RETRY: RetryTiming = { firstMs: 500, maxMs: 10_000 }

/**
 * The wait before try `attempt` (0 = the first after a loss): firstMs
 * doubled `attempt` times up to maxMs, then between half of that and all of
 * it at random, so the processes of several machines do not all come back
 * in the same instant.
 */
export function retryDelayMs(
  attempt: number,
  timing: RetryTiming = LISTEN_RETRY,
  random: () => number = Math.random,
): number {
  const full = Math.min(timing.maxMs, timing.firstMs * 2 ** Math.min(attempt, 30))
  return Math.round(full * (0.5 + random() / 2))
}

export interface EventBusOptions {
  retry?: RetryTiming
  random?: () => number
  /** Where losses and recoveries are told (default console.error). */
  log?: (line: string) => void
}

export interface EventBus {
  /**
   * Starts listening (once). Resolves when LISTEN is in place; fails at once
   * when it is down (a retry is due), closed or draining, and when the try
   * under way fails: a stream that cannot get pokes does not pretend to.
   */
  ready(): Promise<void>
  /**
   * A member's connected stream; returns the way to leave. `end` is called
   * when the bus ends the stream: LISTEN went down (pokes would be lost, so
   * the client should poll), or the process drains. A subscriber without
   * `end` stays, and gets a `sync` poke when LISTEN is back (pokes may have
   * been missed meanwhile).
   */
  subscribe(memberId: number, listener: (poke: Poke) => void, end?: () => void): () => void
  /**
   * subscribe with the stream as one object (its own poke and end), no
   * closures: an open event stream keeps only its object in the map
   * (api/http/live-streams.ts). Leave with `leave(memberId, stream)`.
   */
  join(memberId: number, stream: BusStream): void
  leave(memberId: number, stream: BusStream): void
  /**
   * Called with a cache's name (notifyCacheChange) when any process changed
   * what it holds, and with null (drop every cache) each time LISTEN is in
   * place: changes sent while it was not were missed. Returns the way to leave.
   */
  onCacheChange(listener: (cache: string | null) => void): () => void
  /** How many streams this process holds (the benchmark prints it). */
  readonly streams: number
  /** Whether LISTEN is in place (GET /readyz). */
  readonly state: ListenState
  /** Ends every stream, and from now on every new one at once: the process is stopping. */
  drain(): void
  close(): Promise<void>
}

/** A subscriber: its pokes, and how the bus ends it (none: it stays, see subscribe). */
export interface BusStream {
  poke(poke: Poke): void
  end?: (() => void) | undefined
}

/** The streams by member: join, leave, and the old closure-style subscribe. */
function memberStreams() {
  const subscribers = new Map<number, Set<BusStream>>()
  let count = 0
  const join: EventBus['join'] = (memberId, stream) => {
    let set = subscribers.get(memberId)
    if (!set) {
      set = new Set()
      subscribers.set(memberId, set)
    }
    if (set.has(stream)) return
    set.add(stream)
    count++
  }

  const leave: EventBus['leave'] = (memberId, stream) => {
    const set = subscribers.get(memberId)
    if (!set?.delete(stream)) return
    count--
    if (set.size === 0) subscribers.delete(memberId)
  }

  const subscribe: EventBus['subscribe'] = (memberId, listener, end) => {
    const stream: BusStream = { poke: listener, end }
    join(memberId, stream)
    return () => leave(memberId, stream)
  }

  return { subscribers, join, leave, subscribe, count: () => count }
}

/**
 * Who listens in this process: the streams by member and the cache
 * listeners, and what reaches them (a poke, a cache change, the end).
 */
function listeners(log: (line: string) => void) {
  const { subscribers, join, leave, subscribe, count } = memberStreams()
  const cacheListeners = new Set<(cache: string | null) => void>()

  const cacheChanged = (cache: string | null) => {
    for (const listener of cacheListeners) {
      try {
        listener(cache)
      } catch (e) {
        log(`events: dropping cache ${cache ?? '(all)'} failed: ${String(e)}`)
      }
    }
  }

  const onPayload = (payload: string, channel: string = EVENTS_CHANNEL) => {
    if (channel === CACHES_CHANNEL) return cacheChanged(payload)
    let data: { m?: unknown } & Poke
    try {
      data = JSON.parse(payload) as { m?: unknown } & Poke
    } catch {
      return
    }
    const { m, ...poke } = data
    if (typeof m !== 'number') return
    for (const s of subscribers.get(m) ?? []) s.poke(poke)
  }

  /** Ends every stream that can be ended; returns how many. */
  const endStreams = (): number => {
    let ended = 0
    for (const set of subscribers.values()) {
      for (const s of [...set]) {
        if (!s.end) continue
        ended++
        try {
          s.end()
        } catch (e) {
          log(`events: ending a stream failed: ${String(e)}`)
        }
      }
    }
    return ended
  }

  /** Every stream syncs (after pokes may have been lost). */
  const pokeAll = () => {
    for (const set of subscribers.values()) for (const s of set) s.poke({ type: 'sync' })
  }

  const onCacheChange: EventBus['onCacheChange'] = (listener) => {
    cacheListeners.add(listener)
    return () => {
      cacheListeners.delete(listener)
    }
  }

  return {
    cacheChanged,
    onPayload,
    endStreams,
    pokeAll,
    subscribe,
    join,
    leave,
    onCacheChange,
    count,
  }
}

/**
 * The process's LISTEN and its members' streams. LISTEN heals: when the
 * server ends its connection the streams are ended (clients poll and
 * reconnect), LISTEN is tried again after retryDelayMs, and once it is back
 * every remaining subscriber is told to pull everything once.
 */
export function createEventBus(listen: Listen, options: EventBusOptions = {}): EventBus {
  const timing = options.retry ?? LISTEN_RETRY
  const random = options.random ?? Math.random
  const log = options.log ?? ((line: string) => console.error(line))
  const to = listeners(log)
  let state: ListenState = 'idle'
  let draining = false
  /** The try under way (connecting). */
  let attempt: Promise<void> | undefined
  /** Failed tries since LISTEN was last up. */
  let failures = 0
  let downSince = 0
  let retryTimer: NodeJS.Timeout | undefined
  let stop: (() => Promise<void>) | undefined
  /** Bumped on every try: a loss reported by an older connection is ignored. */
  let generation = 0

  const scheduleRetry = () => {
    const wait = retryDelayMs(failures, timing, random)
    failures++
    retryTimer = setTimeout(() => {
      retryTimer = undefined
      if (state === 'down') void connect().catch(() => undefined)
    }, wait)
    retryTimer.unref?.()
    return wait
  }

  const lost = (mine: number, error: Error) => {
    if (mine !== generation || state !== 'up') return
    state = 'down'
    stop = undefined
    downSince = Date.now()
    const ended = to.endStreams()
    const wait = scheduleRetry()
    log(
      `events: LISTEN connection lost (${error.message}); ${ended} stream(s) ended, listening again in ${wait} ms`,
    )
  }

  function connect(): Promise<void> {
    if (attempt) return attempt
    const mine = ++generation
    const wasDown = state === 'down'
    state = 'connecting'
    attempt = listen([EVENTS_CHANNEL, CACHES_CHANNEL], to.onPayload, (e) => lost(mine, e))
      .then(
        async (stopListening) => {
          if (state === 'closed') {
            await stopListening()
            throw new Error('the event bus is closed')
          }
          state = 'up'
          stop = stopListening
          failures = 0
          // Cache changes sent before LISTEN was in place were not heard.
          to.cacheChanged(null)
          if (wasDown) {
            log(`events: listening again after ${Date.now() - downSince} ms`)
            // Pokes sent while down are lost (NOTIFY has no replay).
            to.pokeAll()
          }
        },
        (e: unknown) => {
          if (state === 'closed') throw e
          if (!wasDown) downSince = Date.now()
          state = 'down'
          const wait = scheduleRetry()
          log(
            `events: LISTEN failed (${e instanceof Error ? e.message : String(e)}); trying again in ${wait} ms`,
          )
          throw e
        },
      )
      .finally(() => {
        attempt = undefined
      })
    return attempt
  }

  return {
    async ready() {
      if (draining) throw new Error('the process is stopping')
      if (state === 'up') return
      if (state === 'idle') return connect()
      if (attempt) return attempt
      throw new Error(`LISTEN is ${state}`)
    },
    subscribe(memberId, listener, end) {
      if (state === 'idle') void connect().catch(() => undefined)
      return to.subscribe(memberId, listener, end)
    },
    join(memberId, stream) {
      if (state === 'idle') void connect().catch(() => undefined)
      to.join(memberId, stream)
    },
    leave: to.leave,
    onCacheChange: to.onCacheChange,
    get streams() {
      return to.count()
    },
    get state() {
      return state
    },
    drain() {
      draining = true
      to.endStreams()
    },
    async close() {
      const previous = state
      state = 'closed'
      if (retryTimer) clearTimeout(retryTimer)
      retryTimer = undefined
      to.endStreams()
      if (previous === 'connecting') await attempt?.catch(() => undefined)
      const stopping = stop
      stop = undefined
      await stopping?.()
    },
  }
}

/** A bus for an API without LISTEN (pokes never arrive; clients poll, spec §9). */
export const silentBus = (): EventBus => createEventBus(async () => async () => {})
