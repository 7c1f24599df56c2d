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

export interface EventBus {
  /** Starts listening (once); resolves when LISTEN is in place. */
  ready(): Promise<void>
  /** A member's connected stream; returns the way to leave. */
  subscribe(memberId: number, listener: (poke: Poke) => void): () => void
  /** How many streams this process holds (the benchmark prints it). */
  readonly streams: number
  close(): Promise<void>
}

export function createEventBus(listen: Listen): EventBus {
  const subscribers = new Map<number, Set<(poke: Poke) => void>>()
  let started: Promise<() => Promise<void>> | undefined
  let count = 0
  const start = () => {
    started ??= listen(EVENTS_CHANNEL, (payload) => {
      let data: { m?: unknown } & Poke
      try {
        data = JSON.parse(payload) as { m?: unknown } & Poke
      } catch {
        return
      }
      const { m, ...poke } = data
      if (typeof m !== 'number') return
      for (const l of subscribers.get(m) ?? []) l(poke)
    })
    return started
  }
  return {
    ready: async () => {
      await start()
    },
    subscribe(memberId, listener) {
      void start()
      const set = subscribers.get(memberId) ?? new Set()
      subscribers.set(memberId, set)
      set.add(listener)
      count++
      return () => {
        if (set.delete(listener)) count--
        if (set.size === 0) subscribers.delete(memberId)
      }
    },
    get streams() {
      return count
    },
    async close() {
      if (started) await (await started)()
    },
  }
}

/** A bus for an API without LISTEN (pokes never arrive; clients poll, spec §9). */
export const silentBus = (): EventBus => createEventBus(async () => async () => {})
