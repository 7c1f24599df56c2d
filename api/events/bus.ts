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

/** Where the bus's LISTEN stands and what it is changing, shared by the bus and its helpers. */
interface BusState {
  listen: Listen
  timing: RetryTiming
  random: () => number
  log: (line: string) => void
  to: ReturnType<typeof listeners>
  state: ListenState
  draining: boolean
  /** The try under way (connecting). */
  attempt: Promise<void> | undefined
  /** Failed tries since LISTEN was last up. */
  failures: number
  downSince: number
  retryTimer: NodeJS.Timeout | undefined
  listening: Listening | undefined
  /** Bumped on every try: a loss reported by an older connection is ignored. */
  generation: number
  /** Members whose channel the connection LISTENs on. */
  listened: Set<number>
  /** Members whose stream count went to or from zero since the last change was sent. */
  dirty: Set<number>
  /** The members of the change being sent. */
  sending: Set<number>
  changing: Promise<void> | undefined
  /** Resolved (and replaced) after each change sent, and when the state changes: waiters look again. */
  changed: { promise: Promise<void>; resolve: () => void }
}

/** A new bus's state: idle, listening on nothing, with its listeners. */
function busState(listen: Listen, options: EventBusOptions): BusState {
  const log = options.log ?? ((line: string) => console.error(line))
  const bus: BusState = {
    listen,
    timing: options.retry ?? LISTEN_RETRY,
    random: options.random ?? Math.random,
    log,
    to: listeners(log, (memberId) => {
      bus.dirty.add(memberId)
      kick(bus)
    }),
    state: 'idle',
    draining: false,
    attempt: undefined,
    failures: 0,
    downSince: 0,
    retryTimer: undefined,
    listening: undefined,
    generation: 0,
    listened: new Set(),
    dirty: new Set(),
    sending: new Set(),
    changing: undefined,
    changed: signal(),
  }
  return bus
}

/** Tells the waiters to look again. */
function wake(bus: BusState): void {
  bus.changed.resolve()
  bus.changed = signal()
}

/** Starts sending the pending changes unless that runs already (or LISTEN is not up). */
function kick(bus: BusState): void {
  if (bus.state === 'up' && !bus.changing) bus.changing = sendChanges(bus)
}

/** Sends the pending LISTEN/UNLISTEN changes, a tick's worth at a time, while up. */
async function sendChanges(bus: BusState): Promise<void> {
  const { to } = bus
  try {
    while (bus.state === 'up' && bus.listening && bus.dirty.size > 0) {
      // Joins and leaves of this tick go in the same statement.
      await new Promise((resolve) => setImmediate(resolve))
      const conn = bus.listening
      const mine = bus.generation
      if (bus.state !== 'up' || !conn) return
      const sending = bus.dirty
      bus.sending = sending
      bus.dirty = new Set()
      const add: number[] = []
      const remove: number[] = []
      for (const m of sending) {
        if (to.has(m) && !bus.listened.has(m)) add.push(m)
        else if (!to.has(m) && bus.listened.has(m)) remove.push(m)
      }
      try {
        if (add.length > 0 || remove.length > 0) {
          await conn.change(add.map(memberChannel), remove.map(memberChannel))
        }
      } catch (e) {
        // A connection that cannot LISTEN is as good as lost.
        if (mine === bus.generation) {
          for (const m of bus.sending) bus.dirty.add(m)
          void conn.stop().catch(() => undefined)
          lost(bus, mine, e instanceof Error ? e : new Error(String(e)))
        }
        return
      }
      if (mine !== bus.generation) return
      for (const m of add) bus.listened.add(m)
      for (const m of remove) bus.listened.delete(m)
      bus.sending = new Set()
      wake(bus)
    }
  } finally {
    bus.sending = new Set()
    bus.changing = undefined
    wake(bus)
  }
}

/** Waits until the member's channel (every joined member's without one) is listened to, while up. */
async function settled(bus: BusState, memberId?: number): Promise<void> {
  const pending = () =>
    memberId === undefined
      ? bus.dirty.size > 0 || bus.sending.size > 0
      : bus.dirty.has(memberId) || bus.sending.has(memberId)
  while (bus.state === 'up' && pending()) {
    kick(bus)
    await bus.changed.promise
  }
  if (bus.state !== 'up') throw new Error(`LISTEN is ${bus.state}`)
}

/** Sets the timer of the next try to LISTEN; returns its wait. */
function scheduleRetry(bus: BusState): number {
  const wait = retryDelayMs(bus.failures, bus.timing, bus.random)
  bus.failures++
  const timer = setTimeout(() => {
    bus.retryTimer = undefined
    if (bus.state === 'down') void connect(bus).catch(() => undefined)
  }, wait)
  bus.retryTimer = timer
  timer.unref?.()
  return wait
}

/** The connection of try `mine` was lost: ends the streams and schedules the next try. */
function lost(bus: BusState, mine: number, error: Error): void {
  if (mine !== bus.generation || bus.state !== 'up') return
  bus.state = 'down'
  bus.listening = undefined
  bus.downSince = Date.now()
  wake(bus)
  const ended = bus.to.endStreams()
  const wait = scheduleRetry(bus)
  bus.log(
    `events: LISTEN connection lost (${error.message}); ${ended} stream(s) ended, listening again in ${wait} ms`,
  )
}

/** LISTEN is in place on a new connection: every member here is a change, and every cache is dropped. */
async function connected(
  bus: BusState,
  mine: number,
  wasDown: boolean,
  connection: Listening,
): Promise<void> {
  if (bus.state === 'closed') {
    await connection.stop()
    throw new Error('the event bus is closed')
  }
  bus.state = 'up'
  bus.listening = connection
  bus.failures = 0
  // A new connection listens on nothing yet: every member here is a change.
  bus.listened = new Set()
  for (const m of bus.to.members()) bus.dirty.add(m)
  // Cache changes sent before LISTEN was in place were not heard.
  bus.to.cacheChanged(null)
  if (wasDown) {
    bus.log(`events: listening again after ${Date.now() - bus.downSince} ms`)
    // Pokes sent while down are lost (NOTIFY has no replay): once
    // their channels are listened to again, everyone pulls.
    await settled(bus).catch(() => undefined)
    if (mine === bus.generation && bus.state === 'up') bus.to.pokeAll()
  }
}

/** Starts a try to LISTEN, or returns the one under way. */
function connect(bus: BusState): Promise<void> {
  if (bus.attempt) return bus.attempt
  const mine = ++bus.generation
  const wasDown = bus.state === 'down'
  bus.state = 'connecting'
  const attempt = bus
    .listen(CACHES_CHANNEL, bus.to.onPayload, (e) => lost(bus, mine, e))
    .then(
      (connection) => connected(bus, mine, wasDown, connection),
      (e: unknown) => {
        if (bus.state === 'closed') throw e
        if (!wasDown) bus.downSince = Date.now()
        bus.state = 'down'
        const wait = scheduleRetry(bus)
        bus.log(
          `events: LISTEN failed (${e instanceof Error ? e.message : String(e)}); trying again in ${wait} ms`,
        )
        throw e
      },
    )
    .finally(() => {
      bus.attempt = undefined
    })
  bus.attempt = attempt
  return attempt
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
  const bus = busState(listen, options)
  const { to } = bus
  return {
    async ready(memberId) {
      if (bus.draining) throw new Error('the process is stopping')
      if (bus.state === 'idle') await connect(bus)
      else if (bus.state !== 'up') {
        if (!bus.attempt) throw new Error(`LISTEN is ${bus.state}`)
        await bus.attempt
      }
      await settled(bus, memberId)
    },
    subscribe(memberId, listener, end) {
      if (bus.state === 'idle') void connect(bus).catch(() => undefined)
      return to.subscribe(memberId, listener, end)
    },
    join(memberId, stream) {
      if (bus.state === 'idle') void connect(bus).catch(() => undefined)
      to.join(memberId, stream)
    },
    leave: to.leave,
    onCacheChange: to.onCacheChange,
    get streams() {
      return to.count()
    },
    get channels() {
      return bus.listened.size
    },
    get received() {
      return { ...to.received }
    },
    get state() {
      return bus.state
    },
    drain() {
      bus.draining = true
      to.endStreams()
    },
    async close() {
      const previous = bus.state
      bus.state = 'closed'
      wake(bus)
      if (bus.retryTimer) clearTimeout(bus.retryTimer)
      bus.retryTimer = undefined
      to.endStreams()
      if (previous === 'connecting') await bus.attempt?.catch(() => undefined)
      const stopping = bus.listening
      bus.listening = undefined
      await stopping?.stop()
    },
  }
}

/** A bus for an API without LISTEN (pokes never arrive; clients poll, spec §9). */
export const silentBus = (): EventBus =>
  createEventBus(async () => ({ change: async () => {}, stop: async () => {} }))
