// The install badge (spec §4): unread messages + new likes (+ new visits), computed by the
// worker from the store after every sync, so it is right even when no push
// told the service worker. The two numbers behind it are stored too (kv
// `counts`): the header, the mobile menu and the document title show them.
import { badgeCount as badgeRule } from '../../api/contract/rules/badge.ts'
import type { SyncContext } from '../core/context.ts'
import { type Counts, kvGet, kvPut } from '../store/kv.ts'
import type { LocalDb } from '../store/store.ts'

/** Unread messages and new likes in the synced lists: what the header, title and badge count. */
export async function badgeCounts(db: LocalDb): Promise<Counts> {
  const chats = await db.chats.toArray()
  const unread = chats.reduce((sum, c) => sum + Math.max(0, c.num_unread_messages), 0)
  const newLikes = await db.likedBy.filter((l) => l.likeNew).count()
  const newVisits = (await kvGet(db, 'visitors'))?.new_count ?? 0
  // The likes menu holds the visitors too: its number counts both.
  return { unread, likes: newLikes + newVisits }
}

export async function badgeCount(db: LocalDb): Promise<number> {
  const { unread, likes } = await badgeCounts(db)
  return badgeRule(unread, likes)
}

/**
 * Recomputes the badge and tells the page when it changed; `epoch` is the
 * store's (sync/core/fence.ts) when the sync that calls this began. A sync
 * that finishes after a wipe (logout, an expired session) writes and
 * announces nothing: a late badge of the member would otherwise follow the
 * logout's 0 and leave a row on the device. The check, the count, the write
 * and the event are one transaction, so a wipe waits for it or it sees the
 * wipe.
 */
export function publishBadge(
  ctx: SyncContext,
  epoch: number = ctx.db.epoch,
): Promise<number | null> {
  const { db } = ctx
  return db.transaction('rw', [db.chats, db.likedBy, db.kv], async () => {
    if (db.epoch !== epoch) return null
    const counts = await badgeCounts(db)
    const count = badgeRule(counts.unread, counts.likes)
    // The header's and the title's numbers, from the same count as the badge.
    const stored = await kvGet(db, 'counts')
    if (stored?.unread !== counts.unread || stored.likes !== counts.likes)
      await kvPut(db, 'counts', counts)
    if ((await kvGet(db, 'badge')) !== count) {
      await kvPut(db, 'badge', count)
      ctx.emit({ type: 'badge', count })
    }
    return count
  })
}
