// The install badge (spec §4): unread messages + new likes, computed by the
// worker from the store after every sync, so it is right even when no push
// told the service worker.
import type { SyncContext } from '../core/context.ts'
import { kvGet, kvPut } from '../store/kv.ts'
import type { LocalDb } from '../store/store.ts'

export async function badgeCount(db: LocalDb): Promise<number> {
  const chats = await db.chats.toArray()
  const unread = chats.reduce((sum, c) => sum + Math.max(0, c.num_unread_messages), 0)
  const newLikes = await db.likedBy.filter((l) => l.likeNew).count()
  return unread + newLikes
}

/** Recomputes the badge and tells the page when it changed. */
export async function publishBadge(ctx: SyncContext): Promise<number> {
  const count = await badgeCount(ctx.db)
  if ((await kvGet(ctx.db, 'badge')) !== count) {
    await kvPut(ctx.db, 'badge', count)
    ctx.emit({ type: 'badge', count })
  }
  return count
}
