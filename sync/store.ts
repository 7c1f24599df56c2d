// The local store: IndexedDB through Dexie. The sync worker is its only
// writer; the app reads it with useLiveQuery. Dexie broadcasts every change to
// the other tabs and workers of the origin, so each live query updates itself.
import Dexie, { type EntityTable } from 'dexie'
import type { ChatEntry, Profile, SearchResponse, User } from '../api/contract/index.ts'

export const DB_NAME = 'amora'

export interface KvRow {
  key: 'user' | 'lastSync'
  value: unknown
}

/** One search result page: ids into `profiles`, so a profile is stored once. */
export interface SearchPageRow {
  key: string
  page: number
  ids: number[]
  numResults: number
  filters: SearchResponse['filters']
  filterOptions: SearchResponse['filter_options']
  fetchedAt: number
}

export interface ProfileRow extends Profile {
  seenAt: number
}

export interface ChatRow extends ChatEntry {
  id: number
  /** Position in the server's order (newest conversation first). */
  order: number
}

/** A member action waiting to reach the server (likes, messages, deletes). */
export interface OutboxRow {
  /** Client-generated UUID: the server applies each id at most once. */
  id: string
  kind: string
  payload: unknown
  createdAt: number
  attempts: number
  lastError?: string
}

export class LocalDb extends Dexie {
  kv!: EntityTable<KvRow, 'key'>
  searchPages!: Dexie.Table<SearchPageRow, [string, number]>
  profiles!: EntityTable<ProfileRow, 'id'>
  chats!: EntityTable<ChatRow, 'id'>
  outbox!: EntityTable<OutboxRow, 'id'>

  constructor(name = DB_NAME) {
    super(name)
    this.version(1).stores({
      kv: 'key',
      searchPages: '[key+page], fetchedAt',
      profiles: 'id',
      chats: 'id, order',
      outbox: 'id, createdAt',
    })
  }

  /** Logout (ARCHITECTURE): nothing of the member stays on the device. */
  async wipe(): Promise<void> {
    await this.transaction('rw', this.tables, () => Promise.all(this.tables.map((t) => t.clear())))
  }
}

let shared: LocalDb | undefined
/** The one instance of this context (page or worker). */
export const localDb = (): LocalDb => {
  shared ??= new LocalDb()
  return shared
}

export type { User }
