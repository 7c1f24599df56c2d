// The member's conversations in their data export (api/accounts/export.ts).
import { asc, eq, inArray, or } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { conversationMembers, conversations, messages } from '../../db/schema/index.ts'
import type { PictureStore } from '../images/index.ts'
import { attachmentsExport } from './member-attachments.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/**
 * The conversations section of the member's data export, oldest first: each
 * with the other member (by id), when the member hid it, and its messages
 * both ways (a photo or voice message with its file when it is the member's
 * own: member-attachments.ts).
 */
export async function conversationsExport(db: Db, memberId: number, pictures?: PictureStore) {
  const convs = await db
    .select()
    .from(conversations)
    .where(or(eq(conversations.memberLow, memberId), eq(conversations.memberHigh, memberId)))
    .orderBy(asc(conversations.id))
  const convIds = convs.map((c) => c.id)
  const msgs =
    convIds.length === 0
      ? []
      : await db
          .select()
          .from(messages)
          .where(inArray(messages.conversationId, convIds))
          .orderBy(asc(messages.id))
  const hidden = await db
    .select()
    .from(conversationMembers)
    .where(eq(conversationMembers.memberId, memberId))
  const files = new Map(
    await Promise.all(
      msgs.map(async (x) => [x.id, await attachmentsExport(x, memberId, pictures)] as const),
    ),
  )
  return convs.map((c) => ({
    id: c.id,
    with: c.memberLow === memberId ? c.memberHigh : c.memberLow,
    started_at: iso(c.createdAt),
    hidden_at: iso(hidden.find((h) => h.conversationId === c.id)?.hiddenAt ?? null),
    messages: msgs
      .filter((x) => x.conversationId === c.id)
      .map((x) => ({
        id: x.id,
        direction: x.senderId === memberId ? 'sent' : 'received',
        body: x.body,
        at: iso(x.createdAt),
        ...files.get(x.id),
      })),
  }))
}
