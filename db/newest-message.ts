// The newest message of a conversation lives on its row (conversations
// last_message_*), written by the send itself (api/chats/messages.ts). Code
// that writes messages in bulk without sending them (the demo seed, the
// benchmarks, tests) sets it afterwards with this statement.
import { sql } from 'drizzle-orm'
import type { Db } from './client.ts'

/** Plain SQL, for callers on a bare `pg` client too; `$where` narrows the conversations. */
export const newestMessageUpdate = (where = 'true') => `
  UPDATE conversations c
  SET last_message_id = m.id, last_message_sender = m.sender_id,
      last_message_body = m.body, last_message_at = m.created_at
  FROM (
    SELECT DISTINCT ON (conversation_id) conversation_id, id, sender_id, body, created_at
    FROM messages ORDER BY conversation_id, id DESC
  ) m
  WHERE m.conversation_id = c.id AND (${where})`

export async function refreshNewestMessages(db: Db, conversationIds?: number[]): Promise<void> {
  const ids = conversationIds?.filter(Number.isSafeInteger)
  await db.execute(
    sql.raw(
      newestMessageUpdate(ids === undefined ? 'true' : `c.id IN (${ids.join(',') || 'NULL'})`),
    ),
  )
}
