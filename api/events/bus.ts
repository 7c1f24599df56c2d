// Live pokes to members (GET /api/events.php). A commit that concerns a member
// sends a PostgreSQL NOTIFY on that member's own channel (delivered at
// commit, never for a rolled-back transaction); each API process LISTENs on
// the channels of the members whose streams it holds, and on no other, so a
// poke wakes only the process that has the member's stream (PostgreSQL
// filters per connection; docs/capacity.md, "Fan-out"). A poke carries no
// data the client must trust, only what to pull: NOTIFY has no replay, so
// pulls by cursor stay the source of truth and polling (spec §9) the fallback.
import { sql } from 'drizzle-orm'
import type { Db, Listen, Listening } from '../../db/client.ts'
import type { Poke } from '../contract/index.ts'

/** The start of a member's channel name: `member_events_<member id>`. */
export const MEMBER_CHANNEL_PREFIX = 'member_events_'

/** The channel of a member's pokes (db/listen.ts checks the name). */
export const memberChannel = (memberId: number): string => `${MEMBER_CHANNEL_PREFIX}${memberId}`

/** The member of a channel name, or null for another channel. */
function memberOf(channel: string): number | null {
  if (!channel.startsWith(MEMBER_CHANNEL_PREFIX)) return null
  const m = Number(channel.slice(MEMBER_CHANNEL_PREFIX.length))
  return Number.isSafeInteger(m) ? m : null
}

/** One NOTIFY statement for any number of (channel, payload) pairs. */
const notifySql = (channels: string[], payloads: string[]) =>
  sql`SELECT pg_notify(c, p) FROM unnest(${sql.param(channels)}::text[], ${sql.param(payloads)}::text[]) AS t(c, p)`

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
  const channels = [...new Set(memberIds)].map(memberChannel)
  if (channels.length === 0) return
  const payload = JSON.stringify(poke)
  await tx.execute(
    notifySql(
      channels,
      channels.map(() => payload),
    ),
  )
}

interface PokeBatch {
  /** The (channel, payload) pairs, once each (keyed by both). */
  pairs: Map<string, readonly [channel: string, payload: string]>
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
    batch = { pairs: new Map(), sent, resolve, reject }
    queue.next = batch
    if (!queue.busy) setImmediate(() => flush(db, queue))
  }
  const payload = JSON.stringify(poke)
  for (const m of new Set(memberIds)) {
    const channel = memberChannel(m)
    batch.pairs.set(`${channel} ${payload}`, [channel, payload])
  }
  return batch.sent
}

function flush(db: Db, queue: { busy: boolean; next?: PokeBatch }): void {
  const batch = queue.next
  if (queue.busy || !batch) return
  queue.next = undefined
  queue.busy = true
  const pairs = [...batch.pairs.values()]
  db.execute(
    notifySql(
      pairs.map(([channel]) => channel),
      pairs.map(([, payload]) => payload),
    ),
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
   * Starts listening (once). Resolves when LISTEN is in place, on the
   * channel of `memberId` too when given (the member joined first), or on
   * every joined member's channel without it; fails at once when it is down
   * (a retry is due), closed or draining, and when the try under way fails:
   * a stream that cannot get pokes does not pretend to.
   */
  ready(memberId?: number): Promise<void>
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
  /** How many members' channels this process LISTENs on (one per member with a stream). */
  readonly channels: number
  /**
   * Member pokes PostgreSQL delivered to this process so far, and of those
   * the ones for a member with no stream here (left just before: each
   * process is sent only its own members' pokes, so this stays near 0).
   */
  readonly received: { pokes: number; unheld: number }
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
function memberStreams(presence: (memberId: number) => void) {
  const subscribers = new Map<number, Set<BusStream>>()
  let count = 0
  const join: EventBus['join'] = (memberId, stream) => {
    let set = subscribers.get(memberId)
    if (!set) {
      set = new Set()
      subscribers.set(memberId, set)
      presence(memberId)
    }
    if (set.has(stream)) return
    set.add(stream)
    count++
  }

  const leave: EventBus['leave'] = (memberId, stream) => {
    const set = subscribers.get(memberId)
    if (!set?.delete(stream)) return
    count--
    if (set.size === 0) {
      subscribers.delete(memberId)
      presence(memberId)
    }
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
function listeners(log: (line: string) => void, presence: (memberId: number) => void) {
  const { subscribers, join, leave, subscribe, count } = memberStreams(presence)
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

  const received = { pokes: 0, unheld: 0 }
  const onPayload = (payload: string, channel: string) => {
    if (channel === CACHES_CHANNEL) return cacheChanged(payload)
    const m = memberOf(channel)
    if (m === null) return
    received.pokes++
    const streams = subscribers.get(m)
    if (!streams) {
      received.unheld++
      return
    }
    let poke: Poke
    try {
      poke = JSON.parse(payload) as Poke
    } catch {
      return
    }
    for (const s of streams) s.poke(poke)
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
    received,
    /** Whether this process holds a stream of the member. */
    has: (memberId: number) => subscribers.has(memberId),
    /** The members with a stream here. */
    members: () => subscribers.keys(),
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

/** A promise and its resolve (Node 20 has no Promise.withResolvers). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {}
  const promise = new Promise<void>((ok) => {
    resolve = ok
  })
  return { promise, resolve }
}

/**
 * The process's LISTEN and its members' streams. LISTEN heals: when the
 * server ends its connection the streams are ended (clients poll and
 * reconnect), LISTEN is tried again after retryDelayMs, and once it is back
 * every remaining subscriber is told to pull everything once.
 *
 * The connection LISTENs on the caches' channel and on the channel of each
 * member with a stream here: a member's first stream adds theirs, their last
 * one's end removes it. The changes of one tick go out together as one
 * statement (a thousand streams opening at once cost a few round trips), and
 * a stream is `ready` only once its member's LISTEN is in place, so no poke
 * committed after `ready` can miss it.
 */
export function createEventBus(listen: Listen, options: EventBusOptions = {}): EventBus {
  const timing = options.retry ?? LISTEN_RETRY
  const random = options.random ?? Math.random
  const log = options.log ?? ((line: string) => console.error(line))
  let state: ListenState = 'idle'
  let draining = false
  /** The try under way (connecting). */
  let attempt: Promise<void> | undefined
  /** Failed tries since LISTEN was last up. */
  let failures = 0
  let downSince = 0
  let retryTimer: NodeJS.Timeout | undefined
  let listening: Listening | undefined
  /** Bumped on every try: a loss reported by an older connection is ignored. */
  let generation = 0

  /** Members whose channel the connection LISTENs on. */
  let listened = new Set<number>()
  /** Members whose stream count went to or from zero since the last change was sent. */
  let dirty = new Set<number>()
  /** The members of the change being sent. */
  let sending = new Set<number>()
  let changing: Promise<void> | undefined
  /** Resolved (and replaced) after each change sent, and when the state changes: waiters look again. */
  let changed = signal()
  const wake = () => {
    changed.resolve()
    changed = signal()
  }

  /** Starts sending the pending changes unless that runs already (or LISTEN is not up). */
  const kick = () => {
    if (state === 'up' && !changing) changing = sendChanges()
  }
  const to = listeners(log, (memberId) => {
    dirty.add(memberId)
    kick()
  })

  /** Sends the pending LISTEN/UNLISTEN changes, a tick's worth at a time, while up. */
  async function sendChanges(): Promise<void> {
    try {
      while (state === 'up' && listening && dirty.size > 0) {
        // Joins and leaves of this tick go in the same statement.
        await new Promise((resolve) => setImmediate(resolve))
        const conn = listening
        const mine = generation
        if (state !== 'up' || !conn) return
        sending = dirty
        dirty = new Set()
        const add: number[] = []
        const remove: number[] = []
        for (const m of sending) {
          if (to.has(m) && !listened.has(m)) add.push(m)
          else if (!to.has(m) && listened.has(m)) remove.push(m)
        }
        try {
          if (add.length > 0 || remove.length > 0) {
            await conn.change(add.map(memberChannel), remove.map(memberChannel))
          }
        } catch (e) {
          // A connection that cannot LISTEN is as good as lost.
          if (mine === generation) {
            for (const m of sending) dirty.add(m)
            void conn.stop().catch(() => undefined)
            lost(mine, e instanceof Error ? e : new Error(String(e)))
          }
          return
        }
        if (mine !== generation) return
        for (const m of add) listened.add(m)
        for (const m of remove) listened.delete(m)
        sending = new Set()
        wake()
      }
    } finally {
      sending = new Set()
      changing = undefined
      wake()
    }
  }

  /** Waits until the member's channel (every joined member's without one) is listened to, while up. */
  async function settled(memberId?: number): Promise<void> {
    const pending = () =>
      memberId === undefined
        ? dirty.size > 0 || sending.size > 0
        : dirty.has(memberId) || sending.has(memberId)
    while (state === 'up' && pending()) {
      kick()
      await changed.promise
    }
    if (state !== 'up') throw new Error(`LISTEN is ${state}`)
  }

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

  function lost(mine: number, error: Error) {
    if (mine !== generation || state !== 'up') return
    state = 'down'
    listening = undefined
    downSince = Date.now()
    wake()
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
    attempt = listen(CACHES_CHANNEL, to.onPayload, (e) => lost(mine, e))
      .then(
        async (connection) => {
          if (state === 'closed') {
            await connection.stop()
            throw new Error('the event bus is closed')
          }
          state = 'up'
          listening = connection
          failures = 0
          // A new connection listens on nothing yet: every member here is a change.
          listened = new Set()
          for (const m of to.members()) dirty.add(m)
          // Cache changes sent before LISTEN was in place were not heard.
          to.cacheChanged(null)
          if (wasDown) {
            log(`events: listening again after ${Date.now() - downSince} ms`)
            // Pokes sent while down are lost (NOTIFY has no replay): once
            // their channels are listened to again, everyone pulls.
            await settled().catch(() => undefined)
            if (mine === generation && state === 'up') to.pokeAll()
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
    async ready(memberId) {
      if (draining) throw new Error('the process is stopping')
      if (state === 'idle') await connect()
      else if (state !== 'up') {
        if (!attempt) throw new Error(`LISTEN is ${state}`)
        await attempt
      }
      await settled(memberId)
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
    get channels() {
      return listened.size
    },
    get received() {
      return { ...to.received }
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
      wake()
      if (retryTimer) clearTimeout(retryTimer)
      retryTimer = undefined
      to.endStreams()
      if (previous === 'connecting') await attempt?.catch(() => undefined)
      const stopping = listening
      listening = undefined
      await stopping?.stop()
    },
  }
}

/** A bus for an API without LISTEN (pokes never arrive; clients poll, spec §9). */
export const silentBus = (): EventBus =>
  createEventBus(async () => ({ change: async () => {}, stop: async () => {} }))
