import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { conversationMembers, conversations, members, messages } from '../../db/schema.ts'
import type { ChatEntry } from '../contract/index.ts'
import { profilesFor } from './profiles.ts'

/** Spec §3 chat entries of a member: newest conversation first, hidden ones left out. */
export async function chatsOf(db: Db, memberId: number): Promise<ChatEntry[]> {
  const other = sql<number>`CASE WHEN ${conversations.memberLow} = ${memberId}
    THEN ${conversations.memberHigh} ELSE ${conversations.memberLow} END`
  const rows = await db
    .select({
      id: conversations.id,
      otherId: other,
      unread: conversationMembers.unreadCount,
      lastAt: conversations.lastMessageAt,
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(and(eq(conversationMembers.memberId, memberId), isNull(conversationMembers.hiddenAt)))
    .orderBy(sql`${conversations.lastMessageAt} DESC NULLS LAST`, desc(conversations.id))
  if (rows.length === 0) return []

  const ids = rows.map((r) => r.id)
  const otherIds = rows.map((r) => Number(r.otherId))
  const [others, lasts] = await Promise.all([
    db
      .select()
      .from(members)
      .where(and(sql`${members.id} IN ${otherIds}`, isNull(members.deletedAt))),
    // The newest message of each conversation, in one query.
    db
      .selectDistinctOn([messages.conversationId], {
        conversationId: messages.conversationId,
        body: messages.body,
        createdAt: messages.createdAt,
        senderId: messages.senderId,
      })
      .from(messages)
      .where(sql`${messages.conversationId} IN ${ids}`)
      .orderBy(messages.conversationId, desc(messages.id)),
  ])
  const profiles = new Map((await profilesFor(db, others)).map((p) => [p.id, p]))
  const lastBy = new Map(lasts.map((m) => [m.conversationId, m]))
  return rows.flatMap((r) => {
    const profile = profiles.get(Number(r.otherId))
    if (!profile) return [] // the other member deleted their account
    const last = lastBy.get(r.id)
    return [
      {
        conversation: { id: r.id },
        profile,
        num_unread_messages: r.unread,
        last_message: last
          ? {
              body: last.body,
              created_at: last.createdAt.toISOString(),
              from_me: last.senderId === memberId,
            }
          : null,
      },
    ]
  })
}
