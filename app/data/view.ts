// Pure helpers the pages apply to stored data (no Dexie, no zod), shared with
// the worker: webcam tiles in the grid, settings readers, likes order.

export type { GridItem } from '../../sync/members/view.ts'
export {
  camsKey,
  fictionalIconOf,
  mayShowCams,
  memberResellOf,
  searchVisible,
  visibleListOf,
  withCamTiles,
} from '../../sync/members/view.ts'
