// The outbox: every member action that changes server data (likes now;
// messages and chat deletes later) goes through here.
//
// - enqueue(kind, payload) stores the action, with a client-generated UUID,
//   and its optimistic local effect in ONE Dexie transaction: the member sees
//   the effect at once, online or not, and a crash can never leave one without
//   the other.
// - drain() sends the entries oldest first, one at a time, each with its id.
//   The server applies an id at most once and answers a replay with the first
//   answer, so sending again after a lost response is safe.
// - Only the leader tab's worker drains (setLeader); any tab may enqueue: the
//   leader watches the table (a Dexie live query, which sees other tabs'
//   writes) and drains when a new entry appears.
//
// Failures: a network failure (code `offline`), a 5xx, 408 or 429 keeps the
// entry and retries later (on syncNow, when the page comes online, and on a
// capped exponential backoff, or when the answer's Retry-After says); any
// other 4xx means the server will never take it: the entry is dropped, its
// effect reverted and an `outbox_dropped` event tells the page (which shows a
// toast). A kept entry's handler hears why it waits (`wait`), so the page can
// say so where the action shows.
//
// The API's per-member limits (429 rate_limited, api/http/member-limits.ts)
// are a wait, not a refusal: the member did nothing wrong, only too fast, and
// the server says when it will take the action (Retry-After: the end of the
// minute, at worst of the hour). So the entry stays, as every other 429 does,
// and goes out by itself at that time; nothing typed is lost and nothing has
// to be done again. The message it holds up says why it waits and until when
// (sync/chats/messages.ts); a like simply shows as made and is sent then.

import type { Table } from 'dexie'
import { liveQuery } from 'dexie'
import type { z } from 'zod'
import { RATE_LIMITED } from '../../api/contract/index.ts'
import type { LocalDb, OutboxRow } from '../store/store.ts'
import { fail, ok, type Result, type SyncError } from './errors.ts'

/**
 * Retry timing (not in the spec; our choice): the first retry after 2 s,
 * doubling per failed attempt, at most every 5 minutes, the slow polling
 * interval of spec §9, so a long outage costs one request per poll period.
 */
export const OUTBOX_RETRY_BASE_MS = 2_000
export const OUTBOX_RETRY_MAX_MS = 300_000
/**
 * The longest Retry-After the outbox waits for: an hour, the longest window
 * of the API's limits (api/http/ratelimit.ts). A longer one is read as this.
 */
export const OUTBOX_RETRY_AFTER_MAX_MS = 3_600_000

export type OutboxEvent = {
  type: 'outbox_dropped'
  kind: string
  payload: unknown
  error: SyncError
}

/** How one kind of action is applied locally, sent, settled and undone. */
export interface OutboxHandler<P, V> {
  /** Checks a payload read back from the store (it may come from an older app version). */
  payload: z.ZodType<P>
  /** Tables the effect functions write; they join the outbox's transactions. */
  tables: () => Table[]
  /** The optimistic effect, inside the enqueue transaction (the new entry is already stored). */
  apply: (payload: P, entry: OutboxRow) => Promise<void>
  /** Sends the action with the entry id as its client id. */
  send: (payload: P, entry: OutboxRow) => Promise<Result<V>>
  /** After the server accepted: reconcile with its answer (the entry is already deleted). */
  settle: (payload: P, value: V, entry: OutboxRow) => Promise<void>
  /** After the server refused for good: undo the effect (the entry is already deleted). */
  revert: (payload: P, entry: OutboxRow, error?: SyncError) => Promise<void>
  /**
   * The entry is kept for a retry at `retryAt` (ms, the outbox's clock):
   * say why where the action shows (optional; in the outbox's transaction).
   */
  wait?: (payload: P, entry: OutboxRow, error: SyncError, retryAt: number) => Promise<void>
}

interface ErasedHandler {
  tables: () => Table[]
  parse: (payload: unknown) => { ok: true } | { ok: false }
  apply: (entry: OutboxRow) => Promise<void>
  /** Sends; on success returns the settle step bound to the server's answer. */
  send: (entry: OutboxRow) => Promise<Result<(entry: OutboxRow) => Promise<void>>>
  revert: (entry: OutboxRow, error?: SyncError) => Promise<void>
  wait: (entry: OutboxRow, error: SyncError, retryAt: number) => Promise<void>
}

export interface OutboxHooks {
  emit: (e: OutboxEvent) => void
  /** A 403: ask the server whether the session is still there (spec §8). */
  sessionGone: (error: SyncError) => Promise<void>
  /** Whether a member is still logged in on this device. */
  loggedIn: () => Promise<boolean>
  now?: () => number
}

export type Outcome = 'retry' | 'drop'

/** Which failures are worth retrying: network, 5xx, 408 and 429; other 4xx never succeed. */
export function outcomeOf(error: SyncError): Outcome {
  if (error.code === 'offline' || error.status === undefined) return 'retry'
  if (error.status === 408 || error.status === 429 || error.status >= 500) return 'retry'
  return error.status >= 400 ? 'drop' : 'retry'
}

/** Delay before the next try after `attempts` failed ones (1 = first failure). */
export const retryDelay = (attempts: number): number =>
  Math.min(OUTBOX_RETRY_MAX_MS, OUTBOX_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1))

/**
 * Delay before the next try after `error`. A rate limit's Retry-After
 * exactly: the limit ends then, and the backoff would ask too early (each
 * ask counted) or, after many waits, too late. Any other Retry-After (a 503
 * naming a second) is never sooner than the backoff, so an outage is still
 * asked about less and less often.
 */
export function waitAfter(error: SyncError, attempts: number): number {
  const backoff = retryDelay(attempts)
  if (error.retryAfterS === undefined) return backoff
  const asked = Math.min(OUTBOX_RETRY_AFTER_MAX_MS, error.retryAfterS * 1000)
  return error.code === RATE_LIMITED ? asked : Math.max(backoff, asked)
}

export class Outbox {
  private handlers = new Map<string, ErasedHandler>()
  private leader = false
  private running: Promise<void> | undefined
  private again = false
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private watch: { unsubscribe(): void } | undefined
  private known = new Set<string>()
  private readonly now: () => number

  constructor(
    private readonly db: LocalDb,
    private readonly hooks: OutboxHooks,
  ) {
    this.now = hooks.now ?? (() => Date.now())
  }

  register<P, V>(kind: string, h: OutboxHandler<P, V>): void {
    const parse = (entry: OutboxRow): P => h.payload.parse(entry.payload)
    this.handlers.set(kind, {
      tables: h.tables,
      parse: (payload) => (h.payload.safeParse(payload).success ? { ok: true } : { ok: false }),
      apply: (entry) => h.apply(parse(entry), entry),
      send: async (entry) => {
        const payload = parse(entry)
        const res = await h.send(payload, entry)
        return res.ok ? ok((e: OutboxRow) => h.settle(payload, res.value, e)) : fail(res.error)
      },
      revert: (entry, error) => h.revert(parse(entry), entry, error),
      wait: async (entry, error, retryAt) => {
        await h.wait?.(parse(entry), entry, error, retryAt)
      },
    })
  }

  /** Entries still waiting, oldest first (for reconciling with server data). */
  pending(): Promise<OutboxRow[]> {
    return this.db.outbox.orderBy('createdAt').toArray()
  }

  /**
   * Stores an action and its optimistic effect in one transaction, then asks
   * for a drain. Returns the entry id (the client id the server sees).
   */
  async enqueue(kind: string, payload: unknown): Promise<string> {
    const h = this.handlers.get(kind)
    if (!h) throw new Error(`outbox: no handler for kind "${kind}"`)
    if (!h.parse(payload).ok) throw new Error(`outbox: invalid payload for kind "${kind}"`)
    const id = crypto.randomUUID()
    // Both writes or neither: the transaction aborts as a whole (quota, a
    // closing tab). IndexedDB runs read-write transactions on the outbox one
    // after another, also across tabs, so reading the last stamp and adding
    // the next cannot interleave with another tab's enqueue.
    let head: OutboxRow | undefined
    await this.db.transaction('rw', [this.db.outbox, ...h.tables()], async () => {
      const last = await this.db.outbox.orderBy('createdAt').last()
      // Strictly increasing: two actions in the same millisecond keep their order.
      const createdAt = Math.max(this.now(), (last?.createdAt ?? 0) + 1)
      const entry: OutboxRow = { id, kind, payload, createdAt, attempts: 0 }
      await this.db.outbox.add(entry)
      await h.apply(entry)
      head = last ? undefined : entry
    })
    this.known.add(id)
    // An entry stored into an empty outbox is the oldest: a drain starting
    // now sends it without reading it back (one IndexedDB transaction less
    // between "Send" and the request). Only once committed: an aborted
    // transaction stored nothing to send.
    void this.drain(head)
    return id
  }

  setLeader(leader: boolean): void {
    this.leader = leader
    if (!leader) {
      this.watch?.unsubscribe()
      this.watch = undefined
      this.cancelRetry()
      return
    }
    // Entries another tab adds reach the leader through the live query.
    this.watch ??= liveQuery(() => this.db.outbox.toCollection().primaryKeys()).subscribe({
      next: (ids) => {
        const fresh = ids.some((id) => !this.known.has(id))
        this.known = new Set(ids)
        if (fresh) void this.drain()
      },
      error: (e: unknown) => console.error('outbox: watching the table failed', e),
    })
    void this.drain()
  }

  /**
   * Sends what is waiting. One drain at a time: a call while one runs makes
   * it look once more when done, so nothing enqueued meanwhile is left behind.
   */
  drain(oldest?: OutboxRow): Promise<void> {
    if (!this.leader) return Promise.resolve()
    if (this.running) {
      // The running drain reads the table again: it finds `oldest` there.
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        let first = oldest
        do {
          this.again = false
          await this.run(first)
          first = undefined
        } while (this.again && this.leader)
      } finally {
        this.running = undefined
      }
    })()
    return this.running
  }

  cancelRetry(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer)
    this.retryTimer = undefined
  }

  private scheduleRetry(delay: number) {
    this.cancelRetry()
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      void this.drain()
    }, delay)
  }

  /** Sends entries oldest first; `oldest`, when known, without reading it. */
  private async run(oldest?: OutboxRow): Promise<void> {
    this.cancelRetry()
    let known = oldest
    while (this.leader) {
      const entry = known ?? (await this.db.outbox.orderBy('createdAt').first())
      known = undefined
      if (!entry) return
      const h = this.handlers.get(entry.kind)
      if (!h?.parse(entry.payload).ok) {
        // Written by another app version: it can never be sent as it is.
        await this.db.outbox.delete(entry.id)
        this.hooks.emit({
          type: 'outbox_dropped',
          kind: entry.kind,
          payload: entry.payload,
          error: { code: 'bad_entry', message: `cannot send outbox entry of kind ${entry.kind}` },
        })
        continue
      }
      const res = await h.send(entry)
      if (res.ok) {
        await this.finish(entry, h, res.value)
        continue
      }
      if (outcomeOf(res.error) === 'drop') {
        if (res.error.status === 401 || res.error.status === 403) {
          // Maybe the session is gone: then the store is wiped, outbox included.
          await this.hooks.sessionGone(res.error)
          if (!(await this.hooks.loggedIn())) return
        }
        const dropped = await this.finish(entry, h, (e) => h.revert(e, res.error))
        if (dropped) {
          this.hooks.emit({
            type: 'outbox_dropped',
            kind: entry.kind,
            payload: entry.payload,
            error: res.error,
          })
        }
        continue
      }
      const attempts = entry.attempts + 1
      const delay = waitAfter(res.error, attempts)
      const error = res.error
      // As finish(): an entry a logout wiped meanwhile is left alone.
      await this.db.transaction('rw', [this.db.outbox, ...h.tables()], async () => {
        if (!(await this.db.outbox.get(entry.id))) return
        await this.db.outbox.update(entry.id, {
          attempts,
          lastError: `${error.code}: ${error.message}`,
        })
        await h.wait(entry, error, this.now() + delay)
      })
      this.scheduleRetry(delay)
      return
    }
  }

  /**
   * Deletes an entry and runs its settle or revert in one transaction. An
   * entry that vanished meanwhile (logout wiped the store while the request
   * was out) is left alone: writing its effect would bring back data the
   * wipe removed. Returns whether the entry was still there.
   */
  private async finish(
    entry: OutboxRow,
    h: ErasedHandler,
    effect: (entry: OutboxRow) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction('rw', [this.db.outbox, ...h.tables()], async () => {
      if (!(await this.db.outbox.get(entry.id))) return false
      await this.db.outbox.delete(entry.id)
      await effect(entry)
      return true
    })
  }
}
