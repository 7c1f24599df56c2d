// The member's conversations in their data export (api/accounts/export.ts).
import { asc, eq, inArray, or } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { conversationMembers, conversations, messages } from '../../db/schema/index.ts'
import { type PictureStore, voiceDataUrl } from '../images/index.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

type Row = typeof messages.$inferSelect

/**
 * A voice message's part of the export: its type and length, and for the
 * member's own recordings the bytes read from `pictures` (a `data:` URL,
 * null when the store has it no more), so the document stays complete after
 * the account, and so its recordings, are deleted. Another member's
 * recording is theirs: named by type and length only.
 */
async function voiceExport(x: Row, memberId: number, pictures: PictureStore | undefined) {
  if (x.voiceType === null || x.voiceMs === null) return {}
  const own = x.senderId === memberId && x.voice !== null && pictures
  return {
    voice: {
      type: x.voiceType,
      duration_ms: x.voiceMs,
      ...(x.senderId === memberId
        ? { recording: own ? await voiceDataUrl(pictures, x.voice!) : null }
        : {}),
    },
  }
}

/**
 * The conversations section of the member's data export, oldest first: each
 * with the other member (by id), when the member hid it, and its messages
 * both ways (a voice message with its recording when it is the member's own).
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
  const voices = new Map(
    await Promise.all(
      msgs.map(async (x) => [x.id, await voiceExport(x, memberId, pictures)] as const),
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
        ...voices.get(x.id),
      })),
  }))
}
