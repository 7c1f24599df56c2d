// The page's own reads of the store for its first paint, before the sync
// worker is up (docs/performance.md, "Repeat visit offline"): the worker's
// start (its script compiled, Dexie opening the store) takes longer than the
// page needs to render, so on a repeat visit the page reads the few things
// its first screen shows straight from IndexedDB, without Dexie (the main
// thread loads none), read-only, and the worker's answers replace them as
// they come. Each read answers what the worker's read of the same name
// answers (sync/store/watch.ts, compared in peek.test.ts).
import type { Profile } from '../../api/contract/index.ts'
import type { KvKey, KvValues } from './kv.ts'
import type { ChatRow, KvRow, LikeRow, ProfileRow, SearchPageRow } from './store.ts'
import type { ReadArgs, ReadName, ReadValue } from './watch.ts'

/** The store's name (store.ts DB_NAME, pinned in peek.test.ts): not imported, store.ts loads Dexie. */
export const STORE_NAME = 'amora'

const done = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })

/**
 * The store, opened at whatever version the worker last left it; null where
 * there is none yet (a first visit: it is never created here, Dexie creates
 * it with its tables) or IndexedDB is refused. The connection closes itself
 * when the worker needs a new version.
 */
export function openForPeek(name: string = STORE_NAME): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest
    try {
      request = indexedDB.open(name)
    } catch {
      resolve(null)
      return
    }
    // Only a store that does not exist yet is upgraded by an open without a
    // version: abort, and the empty store is not created.
    request.onupgradeneeded = () => request.transaction?.abort()
    request.onsuccess = () => {
      const db = request.result
      db.onversionchange = () => db.close()
      resolve(db)
    }
    request.onerror = () => resolve(null)
    request.onblocked = () => resolve(null)
  })
}

const present = (ps: (ProfileRow | undefined)[]): Profile[] => ps.flatMap((p) => (p ? [p] : []))

const getAll = <T>(
  db: IDBDatabase,
  table: string,
  keys: IDBValidKey[],
): Promise<(T | undefined)[]> => {
  const store = db.transaction(table, 'readonly').objectStore(table)
  return Promise.all(keys.map((k) => done(store.get(k) as IDBRequest<T | undefined>)))
}

/** The reads of watch.ts a first screen needs, on a plain IDBDatabase. */
const peekReads = {
  kv: async <K extends KvKey>(db: IDBDatabase, key: K) =>
    (await getAll<KvRow>(db, 'kv', [key]))[0]?.value as KvValues[K] | undefined,
  likedSet: async (db: IDBDatabase, ids: number[]) => {
    const rows = await getAll<LikeRow>(db, 'likes', ids)
    return new Set(rows.flatMap((r) => (r?.liked ? [r.id] : [])))
  },
  searchPage: async (db: IDBDatabase, key: string, page: number) => {
    const [row] = await getAll<SearchPageRow>(db, 'searchPages', [[key, page]])
    if (!row) return { row: null, profiles: [], similar: [] }
    const [profiles, similar] = await Promise.all([
      getAll<ProfileRow>(db, 'profiles', row.ids),
      getAll<ProfileRow>(db, 'profiles', row.similarIds ?? []),
    ])
    return { row, profiles: present(profiles), similar: present(similar) }
  },
  chats: async (db: IDBDatabase) => {
    const index = db.transaction('chats', 'readonly').objectStore('chats').index('order')
    const rows = await done(index.getAll() as IDBRequest<ChatRow[]>)
    return rows.filter((c) => c.last_message !== null)
  },
  chat: async (db: IDBDatabase, id: number) => (await getAll<ChatRow>(db, 'chats', [id]))[0],
} satisfies { [N in ReadName]?: (db: IDBDatabase, ...args: ReadArgs<N>) => Promise<ReadValue<N>> }

export type PeekName = keyof typeof peekReads
const isPeekable = (name: ReadName): name is PeekName => Object.hasOwn(peekReads, name)

type AnyPeek = (db: IDBDatabase, ...args: unknown[]) => Promise<unknown>

/** A read's value as the store holds it, or null where it could not be read (then ask the worker). */
export async function peekRead<N extends ReadName>(
  db: IDBDatabase,
  name: N,
  args: ReadArgs<N>,
): Promise<{ value: ReadValue<N> } | null> {
  if (!isPeekable(name)) return null
  try {
    return { value: (await (peekReads[name] as AnyPeek)(db, ...args)) as ReadValue<N> }
  } catch {
    // A table an older store does not have yet, a closed connection.
    return null
  }
}

/**
 * The page's first reads: each read once, shared by whoever asks; until
 * `end()` (the worker answered), then none, and the connection closes.
 */
export class FirstReads {
  #db: Promise<IDBDatabase | null> | undefined
  #ended = false
  readonly #reads = new Map<string, Promise<{ value: unknown } | null>>()
  readonly #settled = new Map<string, { value: unknown } | null>()

  constructor(private readonly name: string = STORE_NAME) {}

  /** Opens the store now (the page's start), so the first read does not wait for it. */
  open(): void {
    if (this.#ended || typeof indexedDB === 'undefined') return
    this.#db ??= openForPeek(this.name)
  }

  /** The read's value, or null when it cannot be told here (then the worker's answer is the first). */
  read<N extends ReadName>(name: N, args: ReadArgs<N>): Promise<{ value: ReadValue<N> } | null> {
    if (this.#ended || !isPeekable(name)) return Promise.resolve(null)
    this.open()
    const key = JSON.stringify([name, args])
    let read = this.#reads.get(key)
    if (!read) {
      read = (this.#db ?? Promise.resolve(null)).then((db) =>
        db ? peekRead(db, name, args) : null,
      )
      void read.then((r) => this.#settled.set(key, r))
      this.#reads.set(key, read)
    }
    return read as Promise<{ value: ReadValue<N> } | null>
  }

  /** The read's value if it already came (a render can show it at once), else undefined. */
  settled<N extends ReadName>(name: N, args: ReadArgs<N>): { value: ReadValue<N> } | undefined {
    if (this.#ended) return undefined
    return (this.#settled.get(JSON.stringify([name, args])) ?? undefined) as
      | { value: ReadValue<N> }
      | undefined
  }

  /** The worker answers now: no more reads here, and the connection closes. */
  end(): void {
    if (this.#ended) return
    this.#ended = true
    this.#reads.clear()
    this.#settled.clear()
    void this.#db?.then((db) => db?.close())
  }
}
