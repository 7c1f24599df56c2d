import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { type Db, readSnapshot } from '../../db/client.ts'
import { blocks, conversationMembers, conversations, members } from '../../db/schema.ts'
import type { ChatEntry } from '../contract/index.ts'
import { imagesOf, profileColumns, toProfile } from '../profiles/profiles.ts'

/**
 * Spec §3 chat entries of a member: newest conversation first, hidden ones
 * left out. Two round trips however many chats (bench/messages.ts measures
 * 200 at 10 million messages): the list, whose newest message sits on the
 * conversation row (the send keeps it there), then the other members and
 * their pictures at once, all from one snapshot (a member deleted between the
 * two reads cannot leave a chat without its profile or the reverse).
 */
export function chatsOf(db: Db, memberId: number): Promise<ChatEntry[]> {
  return readSnapshot(db, (tx) => chatsIn(tx, memberId))
}

async function chatsIn(db: Db, memberId: number): Promise<ChatEntry[]> {
  const other = sql<number>`CASE WHEN ${conversations.memberLow} = ${memberId}
    THEN ${conversations.memberHigh} ELSE ${conversations.memberLow} END`
  const rows = await db
    .select({
      id: conversations.id,
      otherId: other,
      unread: conversationMembers.unreadCount,
      lastBody: conversations.lastMessageBody,
      lastCreatedAt: conversations.lastMessageAt,
      lastSenderId: conversations.lastMessageSender,
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(
      and(
        eq(conversationMembers.memberId, memberId),
        isNull(conversationMembers.hiddenAt),
        // A block either way hides the chat on both sides. The member's blocks
        // are read once (a hashed set), not probed per conversation.
        sql`${other} NOT IN (SELECT ${blocks.blockedId} FROM ${blocks} WHERE ${blocks.blockerId} = ${memberId}
          UNION ALL SELECT ${blocks.blockerId} FROM ${blocks} WHERE ${blocks.blockedId} = ${memberId})`,
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
          r.lastCreatedAt && r.lastBody !== null && r.lastSenderId !== null
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
