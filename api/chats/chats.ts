import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { blocks, conversationMembers, conversations, members, messages } from '../../db/schema.ts'
import type { ChatEntry } from '../contract/index.ts'
import { imagesOf, profileColumns, toProfile } from '../profiles/profiles.ts'

/**
 * Spec §3 chat entries of a member: newest conversation first, hidden ones
 * left out. Two round trips however many chats (bench/search.ts measures 200):
 * the list with each newest message, then the other members and their
 * pictures at once.
 */
export async function chatsOf(db: Db, memberId: number): Promise<ChatEntry[]> {
  const other = sql<number>`CASE WHEN ${conversations.memberLow} = ${memberId}
    THEN ${conversations.memberHigh} ELSE ${conversations.memberLow} END`
  // The newest message of each conversation: one backward probe of
  // messages_conversation_idx per conversation (LATERAL ... LIMIT 1), so the
  // cost does not grow with the length of the chats.
  const last = db
    .select({ body: messages.body, createdAt: messages.createdAt, senderId: messages.senderId })
    .from(messages)
    .where(eq(messages.conversationId, conversations.id))
    .orderBy(desc(messages.id))
    .limit(1)
    .as('last')
  const rows = await db
    .select({
      id: conversations.id,
      otherId: other,
      unread: conversationMembers.unreadCount,
      lastBody: last.body,
      lastCreatedAt: last.createdAt,
      lastSenderId: last.senderId,
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .leftJoinLateral(last, sql`true`)
    .where(
      and(
        eq(conversationMembers.memberId, memberId),
        isNull(conversationMembers.hiddenAt),
        // A block either way hides the chat on both sides.
        sql`NOT EXISTS (SELECT 1 FROM ${blocks} WHERE (${blocks.blockerId} = ${memberId} AND ${blocks.blockedId} = ${other}) OR (${blocks.blockerId} = ${other} AND ${blocks.blockedId} = ${memberId}))`,
      ),
    )
    .orderBy(sql`${conversations.lastMessageAt} DESC NULLS LAST`, desc(conversations.id))
  if (rows.length === 0) return []

  // Both keyed by ids already known, so they run side by side.
  const otherIds = rows.map((r) => Number(r.otherId))
  const [others, imgs] = await Promise.all([
    db
      .select(profileColumns)
      .from(members)
      .where(and(inArray(members.id, otherIds), isNull(members.deletedAt))),
    imagesOf(db, otherIds),
  ])
  const profiles = new Map(others.map((m) => [m.id, toProfile(m, imgs.get(m.id) ?? [])]))
  return rows.flatMap((r) => {
    const profile = profiles.get(Number(r.otherId))
    if (!profile) return [] // the other member deleted their account
    return [
      {
        conversation: { id: r.id },
        profile,
        num_unread_messages: r.unread,
        last_message:
          r.lastCreatedAt && r.lastBody !== null
            ? {
                body: r.lastBody,
                created_at: r.lastCreatedAt.toISOString(),
                from_me: r.lastSenderId === memberId,
              }
            : null,
      },
    ]
  })
}
