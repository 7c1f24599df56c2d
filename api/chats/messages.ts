// Messages paid with credits. A send is one statement: the claim of its
// client id (api/http/idempotency.ts), the message, the debit of its cost
// through the ledger, the other member's unread count and the push job; the
// NOTIFY pokes follow the commit. A replay of the client id (a retry after a
// lost answer, or the same send twice at once) gets the first answer from
// the claim without a second debit.
import { createHash } from 'node:crypto'
import { and, asc, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import { type Db, hasPgCode } from '../../db/client.ts'
import { preparedStatement } from '../../db/prepared.ts'
import { conversationMembers, conversations, members, messages } from '../../db/schema/index.ts'
import { type Message, type MessagesResponse, SendMessageResponse } from '../contract/index.ts'
import { MESSAGES_PAGE_SIZE } from '../contract/rules/messages.ts'
import { debitInStatement, messageCost } from '../credits/index.ts'
import { notifyMembers, notifyMembersSoon } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { applyOnce, claimInStatement, replayOf, usedBefore } from '../http/idempotency.ts'
import { privacyOf, readReceiptsBetween } from '../presence/index.ts'
import { parseRows } from '../shared/rows.ts'
import { newMessageJobsSql, sendAnswerSql } from './message-sql.ts'
import {
  heldOpening,
  holdOpening,
  type Opening,
  openingOf,
  recordOpening,
  verdictOf,
} from './scam-cases.ts'

type Row = typeof messages.$inferSelect

/** A stored message as answered; its read mark only when read receipts pass between the two. */
const toMessage = (r: Row, receipts = false): Message => ({
  id: r.id,
  conversation: r.conversationId,
  from: r.senderId,
  text: r.body,
  sent_at: r.createdAt.toISOString(),
  client_id: r.clientId,
  read_at: receipts && r.readAt ? r.readAt.toISOString() : null,
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
  const other = await otherMember(db, memberId, q.conversation)
  const receipts = await readReceiptsBetween(db, memberId, other)
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
  const list = page.map((r) => toMessage(r, receipts))
  // The sender's own opening held for a moderator: shown to them, marked
  // (the conversation has no other message while it waits).
  if (page.length === 0 && q.before === undefined) {
    const held = await heldOpening(db, q.conversation, false)
    if (
      held?.status === 'held' &&
      held.memberId === memberId &&
      held.messageId !== null &&
      held.body !== null &&
      (q.after === undefined || held.messageId > q.after)
    )
      list.push({
        id: held.messageId,
        conversation: q.conversation,
        from: memberId,
        text: held.body,
        sent_at: held.createdAt.toISOString(),
        client_id: held.clientId,
        read_at: null,
        held: true,
      })
  }
  return {
    messages: list,
    has_more: hasMore,
    pp: MESSAGES_PAGE_SIZE,
  }
}

type SendOutcome = {
  created: boolean
  other: number
  /** A push job was enqueued with the message (the job runner can be poked). */
  pushed: boolean
  answer: SendMessageResponse
}

export interface SendInput {
  conversation: number
  text: string
  clientId: string
  /**
   * Base of the links of a mail to the recipient about this message
   * (api/accounts/deps.ts linkBase); null or absent: no mail.
   */
  mailBase?: string | null
}

/**
 * The send in one statement (prepared once, db/prepared.ts): the checks, the
 * claim of the client id (api/http/idempotency.ts) holding the answer, the
 * message, the debit and its ledger row, the conversation's newest message,
 * the recipient's unread count, and the push and mail jobs.
 */
const sendStatement = preparedStatement<
  'member' | 'conversation' | 'text' | 'clientId' | 'kind' | 'cost' | 'mailBase' | 'opening'
>(
  'send_message',
  (p) => sql`
    WITH conv AS (
      SELECT CASE WHEN member_low = ${p('member')} THEN member_high ELSE member_low END AS other,
        -- No message yet: this send would open the conversation, which the
        -- scam signals see first (api/chats/scam-cases.ts); stored only when
        -- the caller says they passed.
        last_message_id IS NULL AS opening
      FROM conversations
      WHERE id = ${p('conversation')} AND (member_low = ${p('member')} OR member_high = ${p('member')})
    ), me AS (
      -- Locked now (the debit below would lock it anyway), so the balance in
      -- the answer is the one the debit leaves, whatever a concurrent send did.
      SELECT credits FROM members WHERE id = ${p('member')} FOR UPDATE
    ), checks AS (
      SELECT conv.other,
        EXISTS (SELECT 1 FROM members m WHERE m.id = conv.other AND m.deleted_at IS NULL) AS live,
        EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${p('member')} AND b.blocked_id = conv.other)
                                        OR (b.blocker_id = conv.other AND b.blocked_id = ${p('member')})) AS blocked,
        (SELECT credits FROM me) AS credits, conv.opening,
        -- A first message to a member who takes them only from verified
        -- members (member_privacy.verified_only), from a sender who is not.
        conv.opening
          AND EXISTS (SELECT 1 FROM member_privacy mp WHERE mp.member_id = conv.other AND mp.verified_only)
          AND NOT EXISTS (SELECT 1 FROM members s WHERE s.id = ${p('member')} AND s.verified_at IS NOT NULL)
          AS unverified
      FROM conv
    ), fresh AS (
      -- The new message's id and time, known up front so the claim can hold the answer.
      SELECT nextval('messages_id_seq') AS id, date_trunc('milliseconds', now()) AS at
    ), ${claimInStatement({
      memberId: sql`${p('member')}::bigint`,
      clientId: sql`${p('clientId')}::uuid`,
      kind: sql`${p('kind')}::text`,
      response: sendAnswerSql(
        {
          id: sql`fresh.id`,
          conversation: sql`${p('conversation')}::bigint`,
          from: sql`${p('member')}::bigint`,
          text: sql`${p('text')}::text`,
          at: sql`fresh.at`,
          clientId: sql`${p('clientId')}::uuid`,
        },
        sql`checks.credits - ${p('cost')}::integer`,
      ),
      from: sql`FROM checks, fresh WHERE live AND NOT blocked AND NOT unverified AND credits >= ${p('cost')}
        AND (NOT checks.opening OR ${p('opening')}::boolean)`,
    })}, ins AS (
      INSERT INTO messages (id, conversation_id, sender_id, body, client_id, created_at)
      OVERRIDING SYSTEM VALUE
      SELECT fresh.id, ${p('conversation')}, ${p('member')}, ${p('text')}, ${p('clientId')}, fresh.at
      FROM claim, fresh
      RETURNING id, created_at
    ), ${debitInStatement({
      member: sql`${p('member')}`,
      amount: sql`${p('cost')}`,
      reason: 'message',
      after: 'ins',
      reference: sql`'message:' || ins.id`,
    })}, conv_time AS (
      UPDATE conversations
      SET last_message_at = ins.created_at, last_message_id = ins.id,
          last_message_sender = ${p('member')}, last_message_body = ${p('text')}
      FROM ins WHERE conversations.id = ${p('conversation')}
    ), unread AS (
      UPDATE conversation_members cm
      SET unread_count = cm.unread_count + 1, hidden_at = NULL
      FROM ins, checks
      WHERE cm.conversation_id = ${p('conversation')} AND cm.member_id = checks.other
    ), ${newMessageJobsSql({
      source: sql`ins, checks`,
      recipient: sql`checks.other`,
      sender: sql`${p('member')}::bigint`,
      conversation: sql`${p('conversation')}::bigint`,
      text: sql`${p('text')}::text`,
      message: sql`ins.id`,
      mailBase: sql`${p('mailBase')}::text`,
    })}
    SELECT checks.other, checks.live, checks.blocked, checks.opening, checks.unverified, claim.response,
      (SELECT count(*) FROM ins) AS stored, (SELECT count(*) FROM push) AS pushes
    FROM checks LEFT JOIN claim ON true`,
)

/**
 * The key of a send: the client id names one text to one conversation (the
 * text as a digest), so the id reused for another message is 422.
 */
const sendKey = (memberId: number, input: SendInput) => ({
  memberId,
  clientId: input.clientId,
  kind: `message:${input.conversation}:${createHash('sha256').update(input.text).digest('base64url').slice(0, 22)}`,
})

/**
 * POST /api/messages.php: 201 with the message and the balance after it.
 *
 * One statement, so one round trip and its own transaction: it checks that
 * the conversation is the sender's, the other member is live and no block
 * stands between them, and the balance covers the cost (the sender's row
 * locked); claims the client id with the answer (api/http/idempotency.ts
 * claimInStatement); and only when that claim happened stores the message,
 * debits the cost and writes the ledger row, moves the conversation's newest
 * message, counts it unread for the recipient (bringing back a chat they
 * deleted), when the recipient has a device to push to enqueues the push job,
 * and when a mail about it may be due enqueues that job to run a little later
 * (api/chats/message-mail.ts). The debit and its ledger row are the ledger's
 * (debitInStatement), unconditional on purpose: the CHECK (credits >= 0) on
 * members stays the guard. A replay of the client id, or the loser of the
 * same send twice at once (which waits on the winner's claim and then claims
 * nothing), stores and debits nothing and gets the first answer (replayOf).
 */
export async function sendMessage(
  db: Db,
  memberId: number,
  input: SendInput,
): Promise<SendOutcome> {
  const cost = await messageCost(db)
  const mailBase = input.mailBase ?? null
  const key = sendKey(memberId, input)
  const run = async (opening: boolean) => {
    let result: unknown
    try {
      result = await sendStatement(db, {
        member: memberId,
        conversation: input.conversation,
        text: input.text,
        clientId: input.clientId,
        kind: key.kind,
        cost,
        mailBase,
        opening,
      })
    } catch (e) {
      // The balance did not cover the debit after all: the CHECK failed and
      // nothing of this send is stored.
      if (isCheckViolation(e)) throw await insufficientCredits(db, memberId, cost)
      throw e
    }
    const [check] = parseRows(result, SendCheck)
    if (!check?.live) throw notFound()
    if (check.blocked) {
      throw new ApiFailure(403, 'blocked', 'conversation', 'one of you blocked the other')
    }
    return check
  }
  /** The recipient takes first messages only from verified members: nothing stored, nothing charged. */
  const verifiedOnly = async () => {
    // A replay of a send already answered (held, then released) still gets its first answer.
    const prior = await replayOf(db, key, SendMessageResponse)
    if (prior) return { created: false, other: 0, pushed: false, answer: prior }
    throw new ApiFailure(
      403,
      'verified_only',
      'conversation',
      'this member takes first messages from verified members only',
    )
  }
  let check = await run(false)
  const other = Number(check.other)
  if (check.unverified) {
    const replay = await verifiedOnly()
    return { ...replay, other }
  }
  let opening: Opening | null = null
  if (check.opening && Number(check.stored) === 0) {
    // The send would open the conversation: its scam signals first
    // (api/chats/scam-cases.ts), then it is refused, held or sent after all.
    opening = await openingOf(db, memberId, input.conversation, input.text)
    const verdict = opening ? verdictOf(opening, input.text) : null
    if (verdict && 'refuse' in verdict) {
      // A replay of a send already answered still gets its first answer.
      const prior = await replayOf(db, key, SendMessageResponse)
      if (prior) return { created: false, other, pushed: false, answer: prior }
      throw verdict.refuse
    }
    if (verdict && opening) {
      const signals = verdict.hold
      const textHash = opening.textHash
      const once = await applyOnce(db, key, SendMessageResponse, async (tx) => {
        const held = await holdOpening(
          tx,
          {
            member: memberId,
            conversation: input.conversation,
            text: input.text,
            clientId: input.clientId,
            cost,
            signals,
            textHash,
          },
          (t) => insufficientCredits(t, memberId, cost),
        )
        if (held instanceof ApiFailure) throw held
        return held.answer
      })
      return { created: !once.replay, other, pushed: false, answer: once.answer }
    }
    check = await run(true)
    if (check.unverified) return { ...(await verifiedOnly()), other }
  }
  if (check.response === null || Number(check.stored) === 0) {
    // Nothing claimed: the client id was used before (a replay), or the balance was short.
    const prior = await replayOf(db, key, SendMessageResponse)
    if (prior) return { created: false, other, pushed: false, answer: prior }
    throw await insufficientCredits(db, memberId, cost)
  }
  const answer = SendMessageResponse.parse(check.response)
  if (opening?.first)
    await recordOpening(db, {
      conversation: input.conversation,
      member: memberId,
      recipient: other,
      textHash: opening.textHash,
    })
  // After the commit, not inside it: PostgreSQL serialises the commits of
  // transactions that NOTIFY, holding its lock through the commit's WAL
  // flush; a NOTIFY alone writes no WAL, so its commit waits for no flush,
  // and the pokes of concurrent sends share one statement (notifyMembersSoon).
  // A poke lost to a crash between the two costs one poll interval (spec §9),
  // never data. The sender's own stream hears of it too (their other tabs).
  await notifyMembersSoon(db, [memberId, other], {
    type: 'messages',
    conversation: input.conversation,
  }).catch((e: unknown) => console.error('messages: poke failed', e))
  return { created: true, other, pushed: Number(check.pushes) > 0, answer }
}

/**
 * What the rate limit of a send needs to know, in one read: when the sender
 * signed up (an account younger than a day has tighter limits) and whether
 * `clientId` was used before (a replay, which is never counted nor refused:
 * api/http/member-limits.ts).
 */
export async function sendState(
  db: Db,
  memberId: number,
  clientId: string,
): Promise<{ signupDate: Date; replay: boolean }> {
  const [row] = await db
    .select({
      signupDate: members.signupDate,
      replay: sql<boolean>`${usedBefore(memberId, clientId)}`,
    })
    .from(members)
    .where(eq(members.id, memberId))
  // No row: the member is gone (the send answers that); count as the newest account.
  return { signupDate: row?.signupDate ?? new Date(), replay: row?.replay === true }
}

/** PostgreSQL's check_violation: here, CHECK (credits >= 0). */
const isCheckViolation = (e: unknown) => hasPgCode(e, '23514')

/** Spec-free but load-bearing for the client: 402 names the balance and the price. */
async function insufficientCredits(db: Db, memberId: number, cost: number): Promise<ApiFailure> {
  const [me] = await db
    .select({ credits: members.credits })
    .from(members)
    .where(eq(members.id, memberId))
  return new ApiFailure(402, 'insufficient_credits', undefined, 'not enough credits', {
    credits: me?.credits ?? 0,
    cost,
  })
}

/**
 * The send statement's one row: what it checked and what it stored (ids and
 * counts come as strings from node-postgres' bigint, as numbers from PGlite).
 */
const SendCheck = z.object({
  other: z.union([z.number(), z.string()]),
  live: z.boolean(),
  blocked: z.boolean(),
  /** The conversation had no message: nothing was stored unless the scam signals had passed. */
  opening: z.boolean(),
  /** A first message refused: the recipient takes them only from verified members. */
  unverified: z.boolean(),
  /** The claim's answer; null when nothing was claimed. */
  response: z.unknown(),
  stored: z.union([z.number(), z.string()]),
  pushes: z.union([z.number(), z.string()]),
})

/**
 * PUT /api/chat.php: the member has read the conversation (spec §4: unread 0).
 * With read receipts on, the other member's messages not read yet get their
 * read mark now, and the other member hears of it (a `seen` poke) when any did.
 */
export async function markRead(db: Db, memberId: number, conversationId: number): Promise<void> {
  const other = await otherMember(db, memberId, conversationId)
  const receipts = (await privacyOf(db, memberId)).read_receipts
  await db.transaction(async (tx) => {
    if (receipts) {
      const marked = await tx
        .update(messages)
        .set({ readAt: sql`now()` })
        .where(
          and(
            eq(messages.conversationId, conversationId),
            eq(messages.senderId, other),
            isNull(messages.readAt),
          ),
        )
        .returning({ id: messages.id })
      if (marked.length > 0) {
        await notifyMembers(tx, [other], { type: 'seen', conversation: conversationId })
      }
    }
    await tx
      .update(conversationMembers)
      // Read: the next message of this chat may be mailed again.
      .set({ unreadCount: 0, mailedAt: null })
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
