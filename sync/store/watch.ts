// Reads of the local store that the page asks the worker for: named queries,
// run by the worker (the store's one owner) as Dexie live queries, whose
// answers cross to the page on every change. The page then needs no Dexie of
// its own: a guest's first page loads no store code on the main thread.
// Until the worker's first answer, the page's own plain reads of a first
// screen stand in (peek.ts).
import { releaseProxy } from 'comlink'
import { liveQuery, type Subscription } from 'dexie'
import type { Profile } from '../../api/contract/index.ts'
import { endpointUrl } from '../core/http.ts'
import { givenOrder, receivedOrder } from '../likes/reconcile.ts'
import { type KvKey, kvGet } from './kv.ts'
import type { LocalDb } from './store.ts'

const present = (ps: (Profile | undefined)[]): Profile[] => ps.flatMap((p) => (p ? [p] : []))

/** One row of a likes list as the page shows it. */
export interface LikesEntry {
  profile: Profile
  isNew: boolean
  liked: boolean
}

/** Every read the page may watch, by name: `(db, ...args) => value`. */
export const storeReads = {
  kv: <K extends KvKey>(db: LocalDb, key: K) => kvGet(db, key),
  /** Which of `ids` the member likes (pending actions included). */
  likedSet: async (db: LocalDb, ids: number[]) => {
    const rows = await db.likes.bulkGet(ids)
    return new Set(rows.flatMap((r) => (r?.liked ? [r.id] : [])))
  },
  /** Page 1 of the default search (the home page), with like state. */
  homeSearch: async (db: LocalDb) => {
    const row = await db.searchPages.get(['default', 1])
    const profiles = row ? await db.profiles.bulkGet(row.ids) : []
    const liked = new Set((await db.likes.toArray()).filter((l) => l.liked).map((l) => l.id))
    return { profiles: present(profiles), liked }
  },
  /** A profile page: the stored detail, what a list knew, and the like state. */
  profile: async (db: LocalDb, memberId: number) => {
    const [detail, base, like] = await Promise.all([
      db.profileDetails.get(memberId),
      db.profiles.get(memberId),
      db.likes.get(memberId),
    ])
    return { detail, base, liked: like?.liked ?? false }
  },
  /** One search result page with its profiles and the spec §4 similar ones. */
  searchPage: async (db: LocalDb, key: string, page: number) => {
    const row = await db.searchPages.get([key, page])
    if (!row) return { row: null, profiles: [], similar: [] }
    const [profiles, similar] = await Promise.all([
      db.profiles.bulkGet(row.ids),
      db.profiles.bulkGet(row.similarIds ?? []),
    ])
    return { row, profiles: present(profiles), similar: present(similar) }
  },
  /**
   * Webcam tiles stored for one filter key, each with the address of its
   * click (spec §7: the provider's page through our redirect), from the
   * endpoint table, which the page does not load.
   */
  cams: async (db: LocalDb, key: string) => {
    const row = await db.cams.get(key)
    return (
      row && {
        ...row,
        cams: row.cams.map((cam) => ({
          ...cam,
          href: endpointUrl('camRedirect', { account: cam.account }),
        })),
      }
    )
  },
  /**
   * The chat list in the server's order. A conversation begins with its first
   * message: one only opened (GET /api/chat.php makes its row) is left out,
   * on both sides, until someone writes.
   */
  chats: async (db: LocalDb) =>
    (await db.chats.orderBy('order').toArray()).filter((c) => c.last_message !== null),
  /** One conversation of the list. */
  chat: (db: LocalDb, id: number) => db.chats.get(id),
  /** A conversation's messages, oldest first (own pending ones last). */
  messages: (db: LocalDb, conversation: number) =>
    db.messages
      .where('[conversation+order]')
      .between([conversation, 0], [conversation, Number.MAX_SAFE_INTEGER])
      .toArray(),
  /** A likes list (spec §4: received new first, given) with its counts. */
  likes: async (db: LocalDb, type: 'given' | 'received') => {
    const [likedBy, likes, synced, total] = await Promise.all([
      db.likedBy.toArray(),
      db.likes.toArray(),
      kvGet(db, 'likesSyncedAt'),
      kvGet(db, 'likesCounts'),
    ])
    const likedIds = new Set(likes.filter((l) => l.liked).map((l) => l.id))
    const rows =
      type === 'received'
        ? receivedOrder(likedBy).map((r) => ({ id: r.id, isNew: r.likeNew }))
        : givenOrder(likes).map((r) => ({ id: r.id, isNew: false }))
    const profiles = await db.profiles.bulkGet(rows.map((r) => r.id))
    const entries: LikesEntry[] = rows.flatMap((r, i) => {
      const profile = profiles[i]
      return profile ? [{ profile, isNew: r.isNew, liked: likedIds.has(r.id) }] : []
    })
    return {
      entries,
      synced: synced !== undefined,
      newCount: likedBy.filter((r) => r.likeNew).length,
      // Lists are paged (48 a page): more exist than the store holds profiles for.
      more:
        total !== undefined &&
        entries.length < (type === 'received' ? total.received : total.given),
      pageSize: total?.pp ?? 1,
    }
  },
}

export type StoreReads = typeof storeReads
export type ReadName = keyof StoreReads
export type ReadArgs<N extends ReadName> = StoreReads[N] extends (
  db: LocalDb,
  ...args: infer A
) => unknown
  ? A
  : never
export type ReadValue<N extends ReadName> = Awaited<ReturnType<StoreReads[N]>>

type AnyRead = (db: LocalDb, ...args: unknown[]) => Promise<unknown>
const run = (db: LocalDb, name: ReadName, args: unknown[]) =>
  (storeReads[name] as AnyRead)(db, ...args)

/** A listener from the page (a Comlink proxy there: released when the watch ends). */
type Listener = ((value: unknown) => unknown) & { [releaseProxy]?: () => void }

/** The worker's handlers: `read` once, `watch` until `unwatch`. */
export function watchHandlers(db: LocalDb) {
  const watches = new Map<number, { sub: Subscription; listener: Listener }>()
  let last = 0
  return {
    readStore: <N extends ReadName>(name: N, ...args: ReadArgs<N>) =>
      run(db, name, args) as Promise<ReadValue<N>>,
    /** Calls `listener` with the read's value now and after every change; answers the watch's id. */
    watchStore<N extends ReadName>(
      name: N,
      args: ReadArgs<N>,
      listener: (value: ReadValue<N>) => unknown,
    ): number {
      const id = ++last
      const sub = liveQuery(() => run(db, name, args)).subscribe({
        next: (value) => void listener(value as ReadValue<N>),
        // A read that fails (storage blocked) leaves the page without the value, as offline.
        error: (e: unknown) => console.warn(`store read ${name} failed`, e),
      })
      watches.set(id, { sub, listener: listener as Listener })
      return id
    },
    unwatchStore(id: number): void {
      const watch = watches.get(id)
      if (!watch) return
      watches.delete(id)
      watch.sub.unsubscribe()
      watch.listener[releaseProxy]?.()
    },
  }
}
