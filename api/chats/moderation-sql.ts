// What moderation needs of the messages table: a reported message in its
// conversation.
import { and, asc, desc, eq, gt, lt } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { messages } from '../../db/schema/index.ts'

/**
 * Message `id` with up to `around` messages of its conversation before and
 * after it, oldest first; empty when there is no such message.
 */
export async function messageInContext(db: Db, id: number, around: number) {
  const [target] = await db.select().from(messages).where(eq(messages.id, id))
  if (!target) return []
  const [before, after] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, target.conversationId), lt(messages.id, target.id)))
      .orderBy(desc(messages.id))
      .limit(around),
    db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, target.conversationId), gt(messages.id, target.id)))
      .orderBy(asc(messages.id))
      .limit(around),
  ])
  return [...before.reverse(), target, ...after]
}
