// The worker's actions, for the pages: the one door from app/ to the sync
// worker besides the read hooks of this folder. Reads go through the hooks
// (live queries of the store); actions (login, like, sign-up steps, uploads)
// through `worker()`. Nothing else in app/ imports sync/.
export type {
  Result,
  SearchFilters,
  SyncApi,
  SyncError,
  SyncEvent,
} from '../../sync/client.ts'
export {
  firstReads,
  holdWorkerStart,
  onSyncEvent,
  searchKey,
  syncWorker as worker,
} from '../../sync/client.ts'
export type { SearchPageRow } from '../../sync/store/store.ts'
