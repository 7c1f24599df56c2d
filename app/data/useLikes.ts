// The likes lists (spec §4: received new first, given), from the store; the
// page refreshes them and the worker also polls them (spec §9).
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import type { Profile } from '../../api/contract/index.ts'
import { syncWorker } from '../../sync/client.ts'
import { givenOrder, receivedOrder } from '../../sync/likes/reconcile.ts'
import { kvGet } from '../../sync/store/kv.ts'
import { localDb } from '../../sync/store/store.ts'

export type LikesListType = 'given' | 'received'

export interface LikesEntry {
  profile: Profile
  isNew: boolean
  liked: boolean
}

export function useLikes(type: LikesListType) {
  useEffect(() => {
    void syncWorker().syncLikes()
  }, [])
  return useLiveQuery(async () => {
    const db = localDb()
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
  }, [type])
}
