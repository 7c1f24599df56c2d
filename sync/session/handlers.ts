// The session's part of the worker's Comlink api: who is signed in, logging
// in and out, syncing now, the page-hidden beacon, push state, worker events.
import type { User } from '../../api/contract/index.ts'
import type { Result } from '../core/errors.ts'
import type { SyncEvent } from '../core/events.ts'
import type { SearchFilters } from '../search/search-key.ts'

/** What these handlers call; the worker's wiring (sync/engine.ts) provides it. */
export interface SessionDeps {
  getUser(): Promise<User | null>
  login(email: string, password: string): Promise<Result<User>>
  logout(): Promise<Result<null>>
  refreshUser(): Promise<Result<User | null>>
  syncChats(): Promise<Result<number>>
  search(
    filters: SearchFilters,
    page: number,
    manual?: boolean,
    trafficsource?: string,
  ): Promise<Result<{ key: string }>>
  syncNow(): Promise<void>
  pageHidden(): Promise<void>
  setPushSubscribed(subscribed: boolean): Promise<void>
  subscribe(listener: (e: SyncEvent) => void): () => void
}

export function sessionHandlers(engine: SessionDeps) {
  return {
    getUser: () => engine.getUser(),
    login: (email: string, password: string) => engine.login(email, password),
    logout: () => engine.logout(),
    refreshUser: () => engine.refreshUser(),
    syncChats: () => engine.syncChats(),
    search: (...args: Parameters<SessionDeps['search']>) => engine.search(...args),
    syncNow: () => engine.syncNow(),
    pageHidden: () => engine.pageHidden(),
    setPushSubscribed: (subscribed: boolean) => engine.setPushSubscribed(subscribed),
    /** Events reach the page through a Comlink-proxied callback. */
    subscribe: (listener: (e: SyncEvent) => void) => {
      engine.subscribe(listener)
    },
  }
}

export type SessionHandlers = ReturnType<typeof sessionHandlers>
