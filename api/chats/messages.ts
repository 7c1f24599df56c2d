// Messages paid with credits. A send is one transaction: the message (under
// its sender's client id, unique), the debit of its cost through the ledger
// and the other member's unread count; the NOTIFY pokes follow the commit. A replay of the client id (a retry after a
// lost answer, or the same send twice at once) finds the stored message and
// returns the first answer without a second debit.
import { and, asc, desc, eq, gt, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  conversationMembers,
  conversations,
  creditLedger,
  members,
  messages,
} from '../../db/schema.ts'
import type { Message, MessagesResponse, SendMessageResponse } from '../contract/index.ts'
import { MESSAGES_PAGE_SIZE } from '../contract/rules/messages.ts'
import { debit, messageCost } from '../credits/ledger.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { enqueuePush } from '../push/notify.ts'

type Row = typeof messages.$inferSelect

const toMessage = (r: Row): Message => ({
  id: r.id,
  conversation: r.conversationId,
  from: r.senderId,
  text: r.body,
  sent_at: r.createdAt.toISOString(),
  client_id: r.clientId,
})

/**
 * The other member of a conversation `memberId` is in; 404 for a conversation
 * that does not exist or is someone else's (no way to probe which).
 */
export async function otherMember(db: Db, memberId: number, conversationId: number) {
  const [row] = await db
    .select({ low: conversations.memberLow, high: conversations.memberHigh })
    .from(conversations)
    .where(
      and(
        eq(conversations.id, conversationId),
        or(eq(conversations.memberLow, memberId), eq(conversations.memberHigh, memberId)),
      ),
    )
  if (!row) throw notFound()
  return row.low === memberId ? row.high : row.low
}

/**
 * One page of a conversation, 50 messages in the order they were sent:
 * the newest page by default, older ones with `before`, newer ones (a sync
 * since the last message seen) with `after`. `has_more` says whether more
 * lie further in that direction.
 */
export async function listMessages(
  db: Db,
  memberId: number,
  q: { conversation: number; before?: number | undefined; after?: number | undefined },
): Promise<MessagesResponse> {
  await otherMember(db, memberId, q.conversation)
  const inConversation = eq(messages.conversationId, q.conversation)
  const take = MESSAGES_PAGE_SIZE + 1
  const rows =
    q.after !== undefined
      ? await db
          .select()
          .from(messages)
          .where(and(inConversation, gt(messages.id, q.after)))
          .orderBy(asc(messages.id))
          .limit(take)
      : (
          await db
            .select()
            .from(messages)
            .where(
              q.before !== undefined
                ? and(inConversation, lt(messages.id, q.before))
                : inConversation,
            )
            .orderBy(desc(messages.id))
            .limit(take)
        ).reverse()
  const hasMore = rows.length > MESSAGES_PAGE_SIZE
  const page = hasMore
    ? q.after !== undefined
      ? rows.slice(0, MESSAGES_PAGE_SIZE)
      : rows.slice(1)
    : rows
  return { messages: page.map(toMessage), has_more: hasMore, pp: MESSAGES_PAGE_SIZE }
}

type SendOutcome = { created: boolean; other: number; answer: SendMessageResponse }

export interface SendInput {
  conversation: number
  text: string
  clientId: string
}

/** POST /api/messages.php: 201 with the message and the balance after it. */
export async function sendMessage(
  db: Db,
  memberId: number,
  input: SendInput,
): Promise<SendOutcome> {
  const cost = await messageCost(db)
  const out = await db.transaction(async (tx): Promise<SendOutcome> => {
    // One statement checks the conversation is mine, the other member is live
    // and no block stands between us, and inserts the message under its client
    // id (a replay inserts nothing).
    const result = await tx.execute(sql`
      WITH conv AS (
        SELECT CASE WHEN member_low = ${memberId} THEN member_high ELSE member_low END AS other
        FROM conversations
        WHERE id = ${input.conversation} AND (member_low = ${memberId} OR member_high = ${memberId})
      ), checks AS (
        SELECT conv.other,
          EXISTS (SELECT 1 FROM members m WHERE m.id = conv.other AND m.deleted_at IS NULL) AS live,
          EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${memberId} AND b.blocked_id = conv.other)
                                          OR (b.blocker_id = conv.other AND b.blocked_id = ${memberId})) AS blocked
        FROM conv
      ), ins AS (
        INSERT INTO messages (conversation_id, sender_id, body, client_id)
        SELECT ${input.conversation}, ${memberId}, ${input.text}, ${input.clientId}
        FROM checks WHERE live AND NOT blocked
        ON CONFLICT (sender_id, client_id) WHERE client_id IS NOT NULL DO NOTHING
        RETURNING id, created_at
      )
      SELECT checks.other, checks.live, checks.blocked, ins.id, ins.created_at
      FROM checks LEFT JOIN ins ON true`)
    const [check] = rowsOf<{
      other: number | string
      live: boolean
      blocked: boolean
      id: number | string | null
      created_at: string | Date | null
    }>(result)
    if (!check?.live) throw notFound()
    const other = Number(check.other)
    if (check.blocked) {
      throw new ApiFailure(403, 'blocked', 'conversation', 'one of you blocked the other')
    }
    const insertedId = check.id
    if (insertedId === null) {
      return { created: false, other, answer: await replay(tx, memberId, input) }
    }
    const messageId = Number(insertedId)
    const credits = await debit(tx, memberId, cost, 'message', `message:${messageId}`)
    if (credits === null) {
      const [me] = await tx
        .select({ credits: members.credits })
        .from(members)
        .where(eq(members.id, memberId))
      throw new ApiFailure(402, 'insufficient_credits', undefined, 'not enough credits', {
        credits: me?.credits ?? 0,
        cost,
      })
    }
    const row: Row = {
      id: messageId,
      conversationId: input.conversation,
      senderId: memberId,
      body: input.text,
      createdAt: new Date(check.created_at ?? Date.now()),
      clientId: input.clientId,
    }
    await tx
      .update(conversations)
      .set({ lastMessageAt: row.createdAt })
      .where(eq(conversations.id, input.conversation))
    // A new message puts the chat back into the recipient's list (a chat they
    // deleted reappears with it, as in every messenger) and counts as unread.
    await tx
      .update(conversationMembers)
      .set({ unreadCount: sql`${conversationMembers.unreadCount} + 1`, hiddenAt: null })
      .where(
        and(
          eq(conversationMembers.conversationId, input.conversation),
          eq(conversationMembers.memberId, other),
        ),
      )
    // Push to the recipient's devices (api/push), with the commit: a job of the queue.
    const [me] = await tx
      .select({ name: members.name })
      .from(members)
      .where(eq(members.id, memberId))
    await enqueuePush(tx, other, {
      kind: 'message',
      from: { id: memberId, name: me?.name ?? '' },
      conversation: input.conversation,
      text: input.text,
      message: messageId,
    })
    return { created: true, other, answer: { message: toMessage(row), credits } }
  })
  if (out.created) {
    // After the commit, not inside it: PostgreSQL serialises the commits of
    // transactions that NOTIFY, and a send is the hot path. A poke lost to a
    // crash between the two costs one poll interval (spec §9), never data.
    // The sender's own stream hears of it too (their other tabs).
    await notifyMembers(db, [memberId, out.other], {
      type: 'messages',
      conversation: input.conversation,
    }).catch((e: unknown) => console.error('messages: poke failed', e))
  }
  return out
}

/** A client id seen before: the first answer, or 422 when it named another message. */
async function replay(tx: Db, memberId: number, input: SendInput): Promise<SendMessageResponse> {
  const [prior] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.senderId, memberId), eq(messages.clientId, input.clientId)))
  if (!prior) throw new ApiFailure(409, 'action_in_progress', 'client_id')
  if (prior.conversationId !== input.conversation || prior.body !== input.text) {
    throw new ApiFailure(422, 'client_id_reused', 'client_id', 'this id named another message')
  }
  const [paid] = await tx
    .select({ balanceAfter: creditLedger.balanceAfter })
    .from(creditLedger)
    .where(
      and(eq(creditLedger.memberId, memberId), eq(creditLedger.reference, `message:${prior.id}`)),
    )
  return { message: toMessage(prior), credits: paid?.balanceAfter ?? 0 }
}

/** Rows of a raw `execute`: node-postgres answers {rows}, PGlite answers {rows} too. */
function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: T[] }).rows
  return Array.isArray(rows) ? rows : (result as T[])
}

/** PUT /api/chat.php: the member has read the conversation (spec §4: unread 0). */
export async function markRead(db: Db, memberId: number, conversationId: number): Promise<void> {
  await otherMember(db, memberId, conversationId)
  await db.transaction(async (tx) => {
    await tx
      .update(conversationMembers)
      .set({ unreadCount: 0 })
      .where(
        and(
          eq(conversationMembers.conversationId, conversationId),
          eq(conversationMembers.memberId, memberId),
        ),
      )
    await notifyMembers(tx, [memberId], { type: 'read', conversation: conversationId })
  })
}

/**
 * DELETE /api/chat.php: the conversation leaves this member's list only; the
 * other member keeps it. A later message from either side brings it back.
 */
export async function hideChat(db: Db, memberId: number, conversationId: number): Promise<void> {
  await otherMember(db, memberId, conversationId)
  await db.transaction(async (tx) => {
    await tx
      .update(conversationMembers)
      .set({ hiddenAt: new Date(), unreadCount: 0 })
      .where(
        and(
          eq(conversationMembers.conversationId, conversationId),
          eq(conversationMembers.memberId, memberId),
        ),
      )
    await notifyMembers(tx, [memberId], { type: 'chats' })
  })
}
