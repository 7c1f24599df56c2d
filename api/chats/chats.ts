import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { perDatabase } from '../../db/prepared.ts'
import { conversationMembers, conversations } from '../../db/schema/index.ts'
import { blockedWithSql } from '../blocks/index.ts'
import type { ChatEntry } from '../contract/index.ts'
import { approvedImagesSql } from '../images/index.ts'
import { profileColumns, toProfile } from '../profiles/index.ts'
import { liveMemberJoin, liveMemberSql } from '../shared/members.ts'

/** The list's statement, built once per database (on PostgreSQL a named prepared statement). */
const chatsQuery = perDatabase((db) => {
  const memberId = sql.placeholder('member')
  const other = sql<number>`CASE WHEN ${conversations.memberLow} = ${memberId}
    THEN ${conversations.memberHigh} ELSE ${conversations.memberLow} END`
  return (
    db
      .select({
        conversationId: conversations.id,
        unread: conversationMembers.unreadCount,
        lastBody: conversations.lastMessageBody,
        lastCreatedAt: conversations.lastMessageAt,
        lastSenderId: conversations.lastMessageSender,
        ...profileColumns,
        // The partner's approved pictures only, oldest first (imagesOf): a
        // pending one is for its owner and the moderators alone.
        images: approvedImagesSql(sql`${profileColumns.id}`),
      })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      // The partner, unless they deleted their account.
      .innerJoin(...liveMemberJoin(other))
      .where(
        and(
          eq(conversationMembers.memberId, memberId),
          isNull(conversationMembers.hiddenAt),
          // A block either way hides the chat on both sides. The member's blocks
          // are read once (a hashed set), not probed per conversation.
          sql`${other} NOT IN (${blockedWithSql(memberId)})`,
        ),
      )
      .orderBy(sql`${conversations.lastMessageAt} DESC NULLS LAST`, desc(conversations.id))
      .prepare('chats_of')
  )
})

/**
 * Spec §3 chat entries of a member: newest conversation first, hidden ones
 * left out. One statement however many chats (bench/messages.ts measures 200
 * at 10 million messages), so one round trip and one snapshot: the list,
 * whose newest message sits on the conversation row (the send keeps it
 * there), with the other member and their approved pictures. A chat whose other member
 * deleted their account is left out.
 */
export async function chatsOf(db: Db, memberId: number): Promise<ChatEntry[]> {
  const rows = await chatsQuery(db).execute({ member: memberId })
  return rows.map((r) => ({
    conversation: { id: r.conversationId },
    profile: toProfile(r, r.images),
    num_unread_messages: r.unread,
    last_message:
      r.lastCreatedAt && r.lastBody !== null && r.lastSenderId !== null
        ? {
            body: r.lastBody,
            created_at: r.lastCreatedAt.toISOString(),
            from_me: r.lastSenderId === memberId,
          }
        : null,
  }))
}

/**
 * The install badge's unread messages of `memberId` as a scalar SQL
 * expression, for a caller's single statement: the unread counts of the
 * chats chatsOf lists (not hidden, partner not deleted, no block either way).
 */
export const unreadChatsCountSql = (memberId: number): SQL => {
  const other = sql`CASE WHEN c.member_low = cm.member_id THEN c.member_high ELSE c.member_low END`
  return sql`(SELECT coalesce(sum(cm.unread_count), 0)::int
    FROM conversation_members cm
    JOIN conversations c ON c.id = cm.conversation_id
    WHERE cm.member_id = ${memberId} AND cm.hidden_at IS NULL
      AND ${liveMemberSql(other)}
      AND ${other} NOT IN (${blockedWithSql(memberId)}))`
}
