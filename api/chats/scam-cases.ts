// The scam and spam signals on the message that opens a conversation (its
// first message), and the cases they make for the moderation queue. The
// thresholds are the rules' (api/contract/rules/scam.ts); the decisions are
// written down in docs/law.md (scam signals).
//
// - The text asks to move off the site or to pay (messageSignals), or the
//   sender was reported by REPORTS_TO_HOLD members: the message is HELD. It
//   is charged like any send (the sender's answer is the usual 201 with the
//   message and the balance after it), kept in first_messages instead of
//   messages (so the recipient has nothing: no message, no unread count, no
//   push, no mail) and waits in the moderation queue. Released, it is stored
//   in messages under the id the sender's answer named; refused, its credits
//   are refunded and the moderator's sanction follows the decide path.
// - The same text to DUPLICATE_RECIPIENTS members within a day, or
//   BURST_FIRST_MESSAGES new conversations within an hour from an account
//   younger than NEW_ACCOUNT_DAYS: the send is refused with 429 (nothing
//   stored, nothing charged), never silently dropped.
import { createHash } from 'node:crypto'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { conversationMembers, conversations, firstMessages } from '../../db/schema/index.ts'
import { blockedBetweenSql } from '../blocks/index.ts'
import { SendMessageResponse } from '../contract/index.ts'
import {
  BURST_FIRST_MESSAGES,
  DUPLICATE_RECIPIENTS,
  DUPLICATE_WINDOW_HOURS,
  messageSignals,
  NEW_ACCOUNT_DAYS,
  normaliseFirstText,
  REPORTS_TO_HOLD,
  REPORTS_WINDOW_DAYS,
} from '../contract/rules/scam.ts'
import { credit, debit } from '../credits/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure } from '../http/errors.ts'
import type { Tx } from '../http/idempotency.ts'
import { liveMemberSql, liveMembersSql } from '../shared/members.ts'
import { recentReportersSql } from '../shared/reports.ts'
import { parseRows } from '../shared/rows.ts'
import { PHOTO_MARK, photoAttachment } from './attachments.ts'
import { newMessageJobsSql, sendAnswerSql } from './message-sql.ts'

/** What the signals of an opening message know before it is sent. */
export interface Opening {
  /** The conversation has no message yet (and none held): this send opens it. */
  first: boolean
  /** A message of this sender that opened the conversation waits for a moderator. */
  underReview: boolean
  textHash: string
  /** First messages of this sender within the last hour. */
  recent: number
  /** Members this sender sent the same first text to within DUPLICATE_WINDOW_HOURS. */
  same: number
  /** Members who reported this sender within REPORTS_WINDOW_DAYS. */
  reports: number
  /** The account is younger than NEW_ACCOUNT_DAYS. */
  young: boolean
}

const num = z.union([z.number(), z.string()]).transform(Number)
const OpeningRow = z.object({
  first: z.boolean(),
  under_review: z.boolean(),
  recent: num,
  same: num,
  reporters: num,
  young: z.boolean().nullable(),
})

export const firstTextHash = (text: string) =>
  createHash('sha256').update(normaliseFirstText(text)).digest('base64url').slice(0, 22)

/**
 * One read before a send: whether it opens the conversation and, only then,
 * the counts its signals need (the subqueries of the CASE run only for a
 * first message). Null when the conversation is not the member's (the send
 * answers 404 itself).
 */
export async function openingOf(
  db: Db,
  memberId: number,
  conversation: number,
  text: string,
): Promise<Opening | null> {
  const textHash = firstTextHash(text)
  const result = await db.execute(sql`
    WITH c AS (
      SELECT c.last_message_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM first_messages f WHERE f.conversation_id = c.id
            AND f.status <> 'refused') AS first,
        EXISTS (SELECT 1 FROM first_messages f WHERE f.conversation_id = c.id
          AND f.member_id = ${memberId} AND f.status = 'held') AS under_review
      FROM conversations c
      WHERE c.id = ${conversation} AND (c.member_low = ${memberId} OR c.member_high = ${memberId})
    )
    SELECT c.first, c.under_review,
      CASE WHEN c.first THEN (SELECT count(*) FROM first_messages f
        WHERE f.member_id = ${memberId} AND f.created_at > now() - interval '1 hour') ELSE 0 END AS recent,
      CASE WHEN c.first THEN (SELECT count(DISTINCT f.recipient_id) FROM first_messages f
        WHERE f.member_id = ${memberId} AND f.text_hash = ${textHash}
          AND f.created_at > now() - make_interval(hours => ${DUPLICATE_WINDOW_HOURS})) ELSE 0 END AS same,
      CASE WHEN c.first THEN ${recentReportersSql(sql`${memberId}`, REPORTS_WINDOW_DAYS)}
        ELSE 0 END AS reporters,
      (SELECT m.signup_date > now() - make_interval(days => ${NEW_ACCOUNT_DAYS})
        FROM ${liveMembersSql} m WHERE m.id = ${memberId}) AS young
    FROM c`)
  const [row] = parseRows(result, OpeningRow)
  if (!row) return null
  return {
    first: row.first,
    underReview: row.under_review,
    textHash,
    recent: row.recent,
    same: row.same,
    reports: row.reporters,
    young: row.young === true,
  }
}

/**
 * What an opening message meets: refused (429, with the signal as the error
 * code), held (the signals that fired) or nothing. A message in a
 * conversation whose opening still waits for a moderator is refused (409):
 * the recipient has not seen the first one yet.
 */
export function verdictOf(
  opening: Opening,
  text: string,
): { hold: string[] } | { refuse: ApiFailure } | null {
  if (opening.underReview)
    return {
      refuse: new ApiFailure(
        409,
        'under_review',
        'conversation',
        'your first message here waits for a moderator',
      ),
    }
  if (!opening.first) return null
  if (opening.same >= DUPLICATE_RECIPIENTS)
    return {
      refuse: new ApiFailure(
        429,
        'duplicate_first_message',
        'text',
        `the same first message went to ${DUPLICATE_RECIPIENTS} members today; write this one yourself`,
      ),
    }
  if (opening.young && opening.recent >= BURST_FIRST_MESSAGES)
    return {
      refuse: new ApiFailure(
        429,
        'too_many_new_chats',
        'conversation',
        `a new account opens at most ${BURST_FIRST_MESSAGES} conversations an hour; try again later`,
      ),
    }
  const hold: string[] = messageSignals(text)
  if (opening.reports >= REPORTS_TO_HOLD) hold.push('reports')
  return hold.length > 0 ? { hold } : null
}

/** A refused opening's row as a new one (a later first message after a refusal). */
const reopened = (at: Date) => ({
  createdAt: at,
  status: 'delivered',
  signals: '',
  body: null,
  clientId: null,
  messageId: null,
  cost: null,
  decidedAt: null,
  decidedBy: null,
})

/** A delivered first message counts toward the duplicate and burst rules (a lost row costs a count, never a message). */
export async function recordOpening(
  db: Db,
  input: { conversation: number; member: number; recipient: number; textHash: string },
): Promise<void> {
  const row = {
    memberId: input.member,
    recipientId: input.recipient,
    textHash: input.textHash,
  }
  await db
    .insert(firstMessages)
    .values({ conversationId: input.conversation, ...row })
    .onConflictDoUpdate({
      target: firstMessages.conversationId,
      set: { ...row, ...reopened(new Date()) },
      setWhere: eq(firstMessages.status, 'refused'),
    })
}

const HoldChecks = z.object({
  other: num,
  live: z.boolean(),
  blocked: z.boolean(),
  id: num,
  at: z.union([z.string(), z.date()]).transform((v) => new Date(v)),
})

/** A held opening's checks as a send's, with the message id it reserves. */
async function holdChecks(tx: Tx, member: number, conversation: number) {
  const [c] = parseRows(
    await tx.execute(sql`
      WITH conv AS (
        SELECT CASE WHEN member_low = ${member} THEN member_high ELSE member_low END AS other
        FROM conversations
        WHERE id = ${conversation} AND (member_low = ${member} OR member_high = ${member})
      )
      SELECT conv.other,
        ${liveMemberSql(sql`conv.other`)} AS live,
        ${blockedBetweenSql(sql`${member}`, sql`conv.other`)} AS blocked,
        nextval('messages_id_seq') AS id, date_trunc('milliseconds', now()) AS at
      FROM conv`),
    HoldChecks,
  )
  return c
}

/**
 * Holds an opening message, inside the caller's once-only transaction
 * (api/http/idempotency.ts runOnce): the same checks as a send (404, 403
 * blocked, 402 short), the debit of its cost, a message id reserved for its
 * release, and the held row. The sender's answer is the one a delivered
 * message gets.
 */
export async function holdOpening(
  tx: Tx,
  input: {
    member: number
    conversation: number
    text: string
    clientId: string
    cost: number
    signals: string[]
    textHash: string
    /** A photo opening: its picture store name, delivered with it on release. */
    photo?: string | null
  },
  short: (tx: Tx) => Promise<ApiFailure>,
): Promise<{ answer: SendMessageResponse } | ApiFailure> {
  const c = await holdChecks(tx, input.member, input.conversation)
  if (!c?.live) return new ApiFailure(404, 'not_found')
  if (c.blocked)
    return new ApiFailure(403, 'blocked', 'conversation', 'one of you blocked the other')
  const credits = await debit(
    tx,
    input.member,
    input.cost,
    input.photo ? 'photo' : 'message',
    `message:${c.id}`,
  )
  if (credits === null) return short(tx)
  const row = {
    memberId: input.member,
    recipientId: c.other,
    textHash: input.textHash,
    createdAt: c.at,
    status: 'held',
    signals: input.signals.join(','),
    body: input.text,
    photo: input.photo ?? null,
    clientId: input.clientId,
    messageId: c.id,
    cost: input.cost,
    decidedAt: null,
    decidedBy: null,
  }
  // A refused opening makes way for the next (checked again, held again).
  const [stored] = await tx
    .insert(firstMessages)
    .values({ conversationId: input.conversation, ...row })
    .onConflictDoUpdate({
      target: firstMessages.conversationId,
      set: row,
      setWhere: eq(firstMessages.status, 'refused'),
    })
    .returning({
      // The answer of a send (one builder for both, message-sql.ts), marked held.
      answer: sendAnswerSql(
        {
          id: sql`${firstMessages.messageId}`,
          conversation: sql`${firstMessages.conversationId}`,
          from: sql`${firstMessages.memberId}`,
          text: sql`${firstMessages.body}`,
          at: sql`${firstMessages.createdAt}`,
          clientId: sql`${firstMessages.clientId}`,
          ...(input.photo
            ? { attachment: photoAttachment(sql`${firstMessages.photo}`).answer }
            : {}),
        },
        sql`${credits}::integer`,
        true,
      ),
    })
  if (!stored) return new ApiFailure(409, 'under_review', 'conversation')
  return { answer: SendMessageResponse.parse(stored.answer) }
}

/**
 * An opening message that was held (whatever was decided since), locked for
 * its decision when `lock`; null when the conversation's opening was never held.
 */
export async function heldOpening(db: Db, conversation: number, lock: boolean) {
  const q = db
    .select()
    .from(firstMessages)
    .where(and(eq(firstMessages.conversationId, conversation), isNotNull(firstMessages.body)))
  const [row] = lock ? await q.for('update') : await q
  return row ?? null
}

/** The held opening messages, oldest first, for the moderation queue. */
export const heldOpenings = (db: Db, limit: number) =>
  db
    .select()
    .from(firstMessages)
    .where(eq(firstMessages.status, 'held'))
    .orderBy(firstMessages.createdAt)
    .limit(limit)

/**
 * A moderator releases a held opening message (in the decision's
 * transaction): stored in messages under the id and time the sender's
 * answer named, the conversation's newest message, unread for the
 * recipient (the chat comes back to a list it was hidden from), the push
 * and mail jobs of a new message enqueued by the send's own rules
 * (message-sql.ts; `mailBase` null: no mail) and the live streams poked.
 * Only a held row is released, so twice delivers once.
 */
export async function releaseOpening(
  tx: Db,
  conversation: number,
  staffId: number,
  now: Date,
  mailBase: string | null = null,
): Promise<boolean> {
  const [f] = await tx
    .update(firstMessages)
    .set({ status: 'released', decidedAt: now, decidedBy: staffId })
    .where(and(eq(firstMessages.conversationId, conversation), eq(firstMessages.status, 'held')))
    .returning()
  if (!f || f.messageId === null || f.body === null) return false
  await tx.execute(sql`
    INSERT INTO messages (id, conversation_id, sender_id, body, client_id, created_at, photo)
    OVERRIDING SYSTEM VALUE
    VALUES (${f.messageId}, ${conversation}, ${f.memberId}, ${f.body}, ${f.clientId}, ${f.createdAt.toISOString()}::timestamptz, ${f.photo})`)
  await tx
    .update(conversations)
    .set({
      lastMessageAt: f.createdAt,
      lastMessageId: f.messageId,
      lastMessageSender: f.memberId,
      lastMessageBody: f.photo === null ? f.body : `${PHOTO_MARK}${f.body}`,
    })
    .where(eq(conversations.id, conversation))
  await tx
    .update(conversationMembers)
    .set({ unreadCount: sql`${conversationMembers.unreadCount} + 1`, hiddenAt: null })
    .where(
      and(
        eq(conversationMembers.conversationId, conversation),
        eq(conversationMembers.memberId, f.recipientId),
      ),
    )
  await tx.execute(
    sql`WITH ${newMessageJobsSql({
      source: sql`(VALUES (1)) AS one (x)`,
      recipient: sql`${f.recipientId}::bigint`,
      sender: sql`${f.memberId}::bigint`,
      conversation: sql`${conversation}::bigint`,
      text: sql`${f.body}::text`,
      message: sql`${f.messageId}::bigint`,
      mailBase: sql`${mailBase}::text`,
      notice: f.photo === null ? undefined : 'photo',
    })} SELECT 1`,
  )
  await notifyMembers(tx, [f.memberId, f.recipientId], { type: 'messages', conversation })
  return true
}

/**
 * A moderator refuses a held opening message (in the decision's
 * transaction): it is never delivered and its credits are refunded, once.
 */
export async function refuseOpening(
  tx: Db,
  conversation: number,
  staffId: number,
  now: Date,
): Promise<boolean> {
  const [f] = await tx
    .update(firstMessages)
    .set({ status: 'refused', decidedAt: now, decidedBy: staffId })
    .where(and(eq(firstMessages.conversationId, conversation), eq(firstMessages.status, 'held')))
    .returning()
  if (!f) return false
  if (f.cost)
    await credit(tx, f.memberId, f.cost, 'refund', `message:${f.messageId ?? conversation}`)
  return true
}
