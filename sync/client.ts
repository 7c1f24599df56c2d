// The page's handle on the sync worker. Import this (and store.ts) from app/;
// never the worker module itself.
import * as Comlink from 'comlink'
import type { SyncEvent } from './engine.ts'
import type { SyncApi } from './worker.ts'

export type { Result, SyncError } from './core/errors.ts'
export type { SearchFilters } from './search/search-key.ts'
export { searchKey } from './search/search-key.ts'
export type { SyncApi, SyncEvent }

let remote: Comlink.Remote<SyncApi> | undefined

export function syncWorker(): Comlink.Remote<SyncApi> {
  remote ??= Comlink.wrap<SyncApi>(
    new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'sync' }),
  )
  return remote
}

/** Subscribes to worker events; the callback crosses the boundary as a proxy. */
export function onSyncEvent(listener: (e: SyncEvent) => void): void {
  void syncWorker().subscribe(Comlink.proxy(listener))
}
