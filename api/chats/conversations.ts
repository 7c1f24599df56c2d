import { and, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { conversationMembers, conversations } from '../../db/schema/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { memberFields } from '../shared/members.ts'

/**
 * The conversation between `memberId` and `other` (spec §7 GET /api/chat.php),
 * created on first use. Race-safe: two first requests at once both INSERT ...
 * ON CONFLICT DO NOTHING on the ordered pair (conversations_pair_key); on
 * PostgreSQL the second waits for the first to commit, then both SELECT the one
 * row. A chat the member had hidden from their list comes back; the other
 * member's hidden flag stays as they left it.
 */
export async function conversationWith(db: Db, memberId: number, other: number): Promise<number> {
  if (other === memberId) throw new ApiFailure(400, 'invalid_input', 'profile', 'own profile')
  const memberLow = Math.min(memberId, other)
  const memberHigh = Math.max(memberId, other)
  return db.transaction(async (tx) => {
    const live = await memberFields(tx, other, ['deletedAt'])
    // Unknown and deleted look the same: the answer reveals nothing.
    if (!live || live.deletedAt !== null) throw notFound()
    await tx
      .insert(conversations)
      .values({ memberLow, memberHigh })
      .onConflictDoNothing({ target: [conversations.memberLow, conversations.memberHigh] })
    const [conversation] = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.memberLow, memberLow), eq(conversations.memberHigh, memberHigh)))
    if (!conversation) throw new Error('conversation missing right after its upsert')
    const conversationId = conversation.id
    await tx
      .insert(conversationMembers)
      .values([
        { conversationId, memberId },
        { conversationId, memberId: other },
      ])
      .onConflictDoNothing()
    await tx
      .update(conversationMembers)
      .set({ hiddenAt: null })
      .where(
        and(
          eq(conversationMembers.conversationId, conversationId),
          eq(conversationMembers.memberId, memberId),
          isNotNull(conversationMembers.hiddenAt),
        ),
      )
    return conversationId
  })
}
