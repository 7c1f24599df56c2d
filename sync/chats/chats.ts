// The chat list (GET /api/chats.php, spec §9: polled with the user).
import type { SyncContext } from '../core/context.ts'
import type { Result } from '../core/errors.ts'
import { pull } from '../core/pull.ts'

export function syncChats(ctx: SyncContext): Promise<Result<number>> {
  return pull(ctx, 'chats', {}, 'chats', async ({ chats }) => {
    const rows = chats.map((c, order) => ({ ...c, id: c.conversation.id, order }))
    const { db } = ctx
    // The server's list is the truth: replace in one transaction so a reader
    // never sees half a list; if the tab dies mid-way nothing changes.
    await db.transaction('rw', [db.chats, db.profiles], async () => {
      await db.chats.clear()
      await db.chats.bulkPut(rows)
      const seenAt = ctx.now()
      await db.profiles.bulkPut(rows.map((r) => ({ ...r.profile, seenAt })))
    })
    return rows.length
  })
}
