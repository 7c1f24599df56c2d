// The likes lists (spec §4: received new first, given), from the store; the
// page refreshes them and the worker also polls them (spec §9).
import { useEffect } from 'react'
import { syncWorker } from '../../sync/client.ts'
import { useStored } from './stored.ts'

export type { LikesEntry } from '../../sync/store/watch.ts'

export type LikesListType = 'given' | 'received'

export function useLikes(type: LikesListType) {
  useEffect(() => {
    void syncWorker().syncLikes()
  }, [])
  return useStored('likes', [type])
}
