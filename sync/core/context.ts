// What a sync domain gets from the worker: the store, a way to tell the page,
// the reaction to a refused session, and the clock. Domains never see the
// engine (sync/engine.ts is only the place where they are wired together).
import type { LocalDb } from '../store/store.ts'
import type { SyncError } from './errors.ts'
import type { SyncEvent } from './events.ts'

export interface SyncContext {
  db: LocalDb
  emit(event: SyncEvent): void
  /** A 403 from a member endpoint: ask for the user again (spec §8). */
  sessionGone(error: SyncError): Promise<void>
  now(): number
}
