// Messages paid with credits. A send is one statement: the claim of its
// client id (api/http/idempotency.ts), the message, the debit of its cost
// through the ledger, the other member's unread count and the push job; the
// NOTIFY pokes follow the commit. A replay of the client id (a retry after a
// lost answer, or the same send twice at once) gets the first answer from
// the claim without a second debit.
import { createHash } from 'node:crypto'
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  isNull,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { Context } from 'hono'
import { z } from 'zod'
import { type Db, hasPgCode } from '../../db/client.ts'
import { perDatabase, preparedStatement } from '../../db/prepared.ts'
import { conversationMembers, conversations, messages } from '../../db/schema/index.ts'
import { ageAssuranceRequired, ageGateOn, assuredSql } from '../age/index.ts'
import {
  Gift,
  type Message,
  type MessagesResponse,
  type Poke,
  RATE_LIMITED,
  SendMessageResponse,
} from '../contract/index.ts'
import { MESSAGES_PAGE_SIZE } from '../contract/rules/messages.ts'
import { balanceOf, debitInStatement, messageCost } from '../credits/index.ts'
import { notifyMembers, notifyMembersSoon } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { applyOnce, claimInStatement, replayOf, usedBeforeSql } from '../http/idempotency.ts'
import { actionBuckets, paceBuckets, paceParams } from '../http/member-limits.ts'
import {
  type Bucket,
  forgive,
  paceAllows,
  paceInStatement,
  paceRefusal,
  paceRowsJson,
} from '../http/ratelimit.ts'
import {
  type AuthEnv,
  sessionFromStatement,
  sessionInStatement,
  sessionMember,
  sessionParams,
} from '../http/session.ts'
import { privacyOf, readReceiptsBetween } from '../presence/index.ts'
import { payerRowSql } from '../shared/members.ts'
import { attachmentHiddenSql } from '../shared/reports.ts'
import { parseRows } from '../shared/rows.ts'
import type { SendGathering } from '../config.ts'
import {
  type Attachment,
  columnNamesSql,
  columnValuesSql,
  giftAttachment,
  photoAttachment,
  voiceAttachment,
} from './attachments.ts'
import { PHOTO_REMOVED } from './member-attachments.ts'
import { chatPhotoPath, newMessageJobsSql, sendAnswerSql, voicePath } from './message-sql.ts'
import {
  afterAgain,
  inConversationSql,
  otherMemberSql,
  type SendParams,
  sendBatch,
  sendGatherer,
  sendKeys,
  verdictSql,
} from './send-batch.ts'
import {
  heldOpening,
  holdOpening,
  type Opening,
  openingOf,
  recordOpening,
  verdictOf,
} from './scam-cases.ts'

type Row = typeof messages.$inferSelect

/**
 * A stored message as answered; its read mark only when read receipts pass
 * between the two. A photo is its address (api/chats/photos.ts), a voice
 * recording its address, type and length (api/chats/voice.ts); either, when
 * it is hidden from this viewer (reported by them, or a report on it
 * upheld) or its file removed with its sender's account
 * (member-attachments.ts), null and marked hidden.
 */
const toMessage = (r: Row & { attachmentHidden?: boolean }, receipts = false): Message => ({
  id: r.id,
  conversation: r.conversationId,
  from: r.senderId,
  text: r.body,
  sent_at: r.createdAt.toISOString(),
  client_id: r.clientId,
  read_at: receipts && r.readAt ? r.readAt.toISOString() : null,
  ...(r.gift ? { gift: Gift.parse(r.gift) } : {}),
  ...(r.photo === null
    ? {}
    : r.attachmentHidden || r.photo === PHOTO_REMOVED
      ? { photo: null, photo_hidden: true }
      : { photo: chatPhotoPath(r.photo) }),
  ...voiceOf(r),
})

/**
 * A voice message's `voice` as answered (nothing for any other message):
 * null and hidden when hidden from this viewer, or when its recording was
 * removed (its sender's account deleted: member-attachments.ts).
 */
const voiceOf = (r: Row & { attachmentHidden?: boolean }): Partial<Message> => {
  if (r.voiceType === null || r.voiceMs === null) return {}
  if (r.voice === null || r.attachmentHidden) return { voice: null, voice_hidden: true }
  const type = r.voiceType === 'audio/mp4' ? 'audio/mp4' : 'audio/webm'
  return { voice: { url: voicePath(r.voice), type, duration_ms: r.voiceMs } }
}

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

/** Whether message `messageId` exists and member `senderId` sent it (a report names one). */
export async function messageSentBy(db: Db, messageId: number, senderId: number) {
  const [m] = await db
    .select({ senderId: messages.senderId })
    .from(messages)
    .where(eq(messages.id, messageId))
  return m !== undefined && m.senderId === senderId
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
  // Whether this viewer no longer sees a message's photo or recording, in
  // the page's own read (asked only of the rows with one).
  const columns = {
    ...getTableColumns(messages),
    attachmentHidden: sql<boolean>`((${messages.photo} IS NOT NULL OR ${messages.voice} IS NOT NULL)
      AND ${attachmentHiddenSql(sql`${messages.id}`, sql`${memberId}::bigint`)})`,
  }
  const rows =
    q.after !== undefined
      ? await db
          .select(columns)
          .from(messages)
          .where(and(inConversation, gt(messages.id, q.after)))
          .orderBy(asc(messages.id))
          .limit(take)
      : (
          await db
            .select(columns)
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
        ...(held.photo === null ? {} : { photo: chatPhotoPath(held.photo) }),
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
   * (api/mail/site.ts linkBase); null or absent: no mail.
   */
  mailBase?: string | null
  /**
   * A photo message: the stored photo's name (api/images/chat-photos.ts)
   * and the digest of the bytes uploaded, which the client id's key names.
   */
  photo?: { name: string; digest: string } | undefined
  /** A gift message: the gift of the site's catalogue (api/gifts/), as sent. */
  gift?: Gift | undefined
  /**
   * A voice message: the stored recording's name (api/images/voice.ts), its
   * container type, its length (ms) and the digest of the bytes uploaded,
   * which the client id's key names.
   */
  voice?: { name: string; type: string; durationMs: number; digest: string } | undefined
}

/** The parameters every send statement takes. */
type SendParam = 'conversation' | 'text' | 'clientId' | 'kind' | 'cost' | 'mailBase' | 'opening'

/**
 * The CTEs `conv` and `checks` of a send statement: the conversation's other
 * member and whether this send opens it, then what the send must pass.
 */
function checksSql(
  p: (param: SendParam) => Placeholder<string>,
  member: SQL,
  attachment: Attachment | undefined,
): SQL {
  return sql`conv AS (
      SELECT ${otherMemberSql(member)} AS other,
        -- No message yet: this send would open the conversation, which the
        -- scam signals see first (api/chats/scam-cases.ts); stored only when
        -- the caller says they passed.
        last_message_id IS NULL AS opening
      FROM conversations
      WHERE id = ${p('conversation')} AND ${inConversationSql(member)}
    ), checks AS (
      SELECT conv.other, (SELECT credits FROM me) AS credits, conv.opening,
        ${verdictSql(member, sql`conv.other`, sql`conv.opening`, attachment)}
      FROM conv
    )`
}

/**
 * The body of a send statement, for the sender `member` (SQL), after the CTEs
 * of `before` (which must define `me`: the sender's row, locked, with
 * `credits`), with `allowed` (SQL boolean over them) as one more condition
 * of the claim: the checks, the claim of the client id
 * (api/http/idempotency.ts) holding the answer, the message, the debit and
 * its ledger row, the conversation's newest message, the recipient's unread
 * count, and the push and mail jobs.
 */
function sendSql(
  p: (param: SendParam) => Placeholder<string>,
  member: SQL,
  before: SQL,
  allowed: SQL,
  /** What the message carries besides its text (attachments.ts): its columns, booking, opening rule and mark. */
  attachment?: Attachment,
): SQL {
  return sql`
    WITH ${before}, ${checksSql(p, member, attachment)}, fresh AS (
      -- The new message's id and time, known up front so the claim can hold the answer.
      SELECT nextval('messages_id_seq') AS id, date_trunc('milliseconds', now()) AS at
    ), ${claimInStatement({
      memberId: sql`${member}::bigint`,
      clientId: sql`${p('clientId')}::uuid`,
      kind: sql`${p('kind')}::text`,
      response: sendAnswerSql(
        {
          id: sql`fresh.id`,
          conversation: sql`${p('conversation')}::bigint`,
          from: sql`${member}::bigint`,
          text: sql`${p('text')}::text`,
          at: sql`fresh.at`,
          clientId: sql`${p('clientId')}::uuid`,
          ...(attachment ? { attachment: attachment.answer } : {}),
        },
        sql`checks.credits - ${p('cost')}::integer`,
      ),
      from: sql`FROM checks, fresh WHERE live AND NOT blocked AND NOT unverified AND NOT opening_refused
        AND credits >= ${p('cost')}
        AND (NOT checks.opening OR ${p('opening')}::boolean) AND ${allowed}`,
    })}, ins AS (
      INSERT INTO messages (id, conversation_id, sender_id, body, client_id, created_at${columnNamesSql(attachment)})
      OVERRIDING SYSTEM VALUE
      SELECT fresh.id, ${p('conversation')}, ${member}, ${p('text')}, ${p('clientId')}, fresh.at${columnValuesSql(attachment)}
      FROM claim, fresh
      RETURNING id, created_at
    ), ${debitInStatement({
      member,
      amount: sql`${p('cost')}`,
      reason: attachment?.reason ?? 'message',
      after: 'ins',
      reference: sql`'message:' || ins.id`,
    })}, conv_time AS (
      UPDATE conversations
      SET last_message_at = ins.created_at, last_message_id = ins.id,
          last_message_sender = ${member},
          last_message_body = ${attachment?.mark ? sql`${attachment.mark}::text || ${p('text')}` : p('text')}
      FROM ins WHERE conversations.id = ${p('conversation')}
    ), unread AS (
      UPDATE conversation_members cm
      SET unread_count = cm.unread_count + 1, hidden_at = NULL
      FROM ins, checks
      WHERE cm.conversation_id = ${p('conversation')} AND cm.member_id = checks.other
    ), ${newMessageJobsSql({
      source: sql`ins, checks`,
      recipient: sql`checks.other`,
      sender: sql`${member}::bigint`,
      conversation: sql`${p('conversation')}::bigint`,
      text: sql`${p('text')}::text`,
      message: sql`ins.id`,
      mailBase: sql`${p('mailBase')}::text`,
      notice: attachment?.notice,
    })}`
}

/** What every send statement answers of its checks and its effects. */
const sendResult = sql`checks.other, checks.live, checks.blocked, checks.opening, checks.unverified,
      checks.opening_refused,
      claim.response, (SELECT count(*) FROM ins) AS stored, (SELECT count(*) FROM push) AS pushes`

/**
 * The send of a member already known (prepared once, db/prepared.ts): the
 * second statement of an opening, once its scam signals passed.
 */
const sendStatement = preparedStatement<SendParam | 'member'>(
  'send_message',
  (p) =>
    sql`${sendSql(
      p,
      sql`${p('member')}`,
      // Locked now (the debit below would lock it anyway), so the balance in
      // the answer is the one the debit leaves, whatever a concurrent send did.
      sql`me AS (${payerRowSql(sql`${p('member')}`)})`,
      sql`true`,
    )}
    SELECT ${sendResult} FROM checks LEFT JOIN claim ON true`,
)

/**
 * The send of a message with an attachment (attachments.ts), prepared once
 * per kind: the member's send, its columns stored and booked as the kind;
 * `P` names the parameters the attachment's values take.
 */
const attachedSendStatement = <P extends string>(
  name: string,
  attachment: (p: (param: P) => Placeholder<string>) => Attachment,
) =>
  preparedStatement<SendParam | 'member' | P>(
    name,
    (p) =>
      sql`${sendSql(
        p,
        sql`${p('member')}`,
        sql`me AS (${payerRowSql(sql`${p('member')}`)})`,
        sql`true`,
        attachment(p),
      )}
    SELECT ${sendResult} FROM checks LEFT JOIN claim ON true`,
  )

/** A photo message (api/chats/photos.ts): the chat photo's name. */
const photoSendStatement = attachedSendStatement<'photo'>('send_photo_message', (p) =>
  photoAttachment(sql`${p('photo')}::text`),
)

/** A gift (api/chats/gifts.ts): the gift as sent (jsonb text). */
const giftSendStatement = attachedSendStatement<'gift'>('send_gift_message', (p) =>
  giftAttachment(sql`${p('gift')}::jsonb`),
)

/** A voice message (api/chats/voice.ts): the recording's name, type and length. */
const voiceSendStatement = attachedSendStatement<'voice' | 'voiceType' | 'voiceMs'>(
  'send_voice_message',
  (p) =>
    voiceAttachment({
      name: sql`${p('voice')}::text`,
      type: sql`${p('voiceType')}::text`,
      ms: sql`${p('voiceMs')}::integer`,
    }),
)

/** The send statement for `input`'s kind, run with the common parameters and the attachment's own. */
function runSendStatement(db: Db, input: SendInput, params: Record<SendParam | 'member', unknown>) {
  if (input.photo) return photoSendStatement(db, { ...params, photo: input.photo.name })
  if (input.gift) return giftSendStatement(db, { ...params, gift: JSON.stringify(input.gift) })
  if (input.voice)
    return voiceSendStatement(db, {
      ...params,
      voice: input.voice.name,
      voiceType: input.voice.type,
      voiceMs: input.voice.durationMs,
    })
  return sendStatement(db, params)
}

/** The parameters of the send statement that checks the session itself. */
type SessionSendParam =
  | SendParam
  | 'hash'
  | 'now'
  | 'idleSince'
  | 'touchBefore'
  | 'gate'
  | 'paced'
  | 'paceMinute'
  | 'paceHour'
  | 'youngSince'
  | 'keepSince'

/**
 * The common send in one round trip (prepared once): the request's session
 * (and its renewal, api/http/session.ts sessionInStatement), whether the
 * client id was used before (a replay is neither gated nor counted), the age
 * gate when the site has one (`gate`, from the cached settings), the
 * member's pace (api/http/member-limits.ts: every new attempt counts, and a
 * send over the limit stores nothing), then the send itself. The live poke
 * follows the commit (notifyMembersSoon), shared by concurrent sends.
 */
const sessionSendStatement = preparedStatement<SessionSendParam>('send_message_session', (p) => {
  const member = sql`(SELECT id FROM me)`
  const before = sql`${sessionInStatement({
    hash: sql`${p('hash')}`,
    now: sql`${p('now')}`,
    idleSince: sql`${p('idleSince')}`,
    touchBefore: sql`${p('touchBefore')}`,
  })}, me AS (
      ${payerRowSql(sql`(SELECT member_id FROM sess)`)}
    ), prior AS (
      SELECT ${usedBeforeSql(sql`me.id`, sql`${p('clientId')}::uuid`)} AS replay FROM me
    ), gate AS (
      SELECT (NOT ${p('gate')}::boolean OR ${assuredSql(sql`me.id`)}) AS assured FROM me
    ), ${paceInStatement({
      key: sql`'member:' || me.id`,
      from: sql`me, prior, gate`,
      counts: sql`${p('paced')}::boolean AND NOT prior.replay AND gate.assured`,
      buckets: paceBuckets('message', sql`me.signup_date`, {
        minute: sql`${p('paceMinute')}`,
        hour: sql`${p('paceHour')}`,
        youngSince: sql`${p('youngSince')}`,
      }),
      keepSince: sql`${p('keepSince')}`,
    })}`
  const allowed = sql`NOT (SELECT replay FROM prior) AND (SELECT assured FROM gate)
    AND ${paceAllows(actionBuckets('message'))}`
  return sql`${sendSql(p, member, before, allowed)}
    SELECT sess.member_id, sess.id AS session_id, sess.expires_at,
      EXISTS (SELECT 1 FROM sess_touch) AS touched,
      coalesce((SELECT replay FROM prior), false) AS replay,
      coalesce((SELECT assured FROM gate), true) AS assured,
      ${paceRowsJson()} AS pace,
      ${sendResult}
    FROM (SELECT 1) AS one LEFT JOIN sess ON true LEFT JOIN checks ON true LEFT JOIN claim ON true`
})

/**
 * The common send through its database's gatherer (api/chats/send-batch.ts):
 * alone when few sends are at work, else with the others waiting.
 */
const gatheredSend = perDatabase((db: Db) =>
  sendGatherer<SendParams, unknown>({
    alone: (params) => sessionSendStatement(db, params),
    together: (sends) => sendBatch(db, sends),
    keys: sendKeys,
    afterAgain,
  }),
)

/**
 * The key of a send: the client id names one text to one conversation (the
 * text as a digest), so the id reused for another message is 422.
 */
const sendKey = (memberId: number, input: SendInput) => ({
  memberId,
  clientId: input.clientId,
  kind: sendKind(input),
})
const sendKind = (input: SendInput) =>
  input.gift
    ? `gift:${input.conversation}:${input.gift.slug}`
    : input.photo
      ? `photo:${input.conversation}:${digestOf(`${input.photo.digest}\n${input.text}`)}`
      : input.voice
        ? `voice:${input.conversation}:${digestOf(`${input.voice.digest}\n${input.voice.durationMs}`)}`
        : `message:${input.conversation}:${digestOf(input.text)}`
const digestOf = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22)

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
  /** The common send's statement ran already (sendAsSession): its result and the cost it charged. */
  first?: { check?: SendCheckRow; cost: number },
): Promise<SendOutcome> {
  const cost = first?.cost ?? (await messageCost(db))
  const mailBase = input.mailBase ?? null
  const key = sendKey(memberId, input)
  const judge = (check: SendCheckRow | undefined) => {
    if (!check?.live) throw notFound()
    if (check.blocked) {
      throw new ApiFailure(403, 'blocked', 'conversation', 'one of you blocked the other')
    }
    return check
  }
  const run = async (opening: boolean) => {
    let result: unknown
    const params = {
      member: memberId,
      conversation: input.conversation,
      text: input.text,
      clientId: input.clientId,
      kind: key.kind,
      cost,
      mailBase,
      opening,
    }
    try {
      result = await runSendStatement(db, input, params)
    } catch (e) {
      // The balance did not cover the debit after all: the CHECK failed and
      // nothing of this send is stored.
      if (isCheckViolation(e)) throw await insufficientCredits(db, memberId, cost)
      throw e
    }
    return judge(parseRows(result, SendCheck)[0])
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
  /** The attachment's opening rule refused it (attachments.ts): nothing stored, nothing charged. */
  const openingRefused = async () => {
    const prior = await replayOf(db, key, SendMessageResponse)
    if (prior) return { created: false, other: 0, pushed: false, answer: prior }
    throw openingRefusal(input)
  }
  let check = first?.check ? judge(first.check) : await run(false)
  const other = Number(check.other)
  if (check.unverified) {
    const replay = await verifiedOnly()
    return { ...replay, other }
  }
  if (check.opening_refused) return { ...(await openingRefused()), other }
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
            photo: input.photo?.name ?? null,
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
    if (check.opening_refused) return { ...(await openingRefused()), other }
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
  const poke = { type: 'messages', conversation: input.conversation } as const
  await Promise.all([
    notifyMembersSoon(db, [memberId], poke),
    // The recipient's poke carries the message: their open chat shows it
    // without waiting for its pull (docs/live.md, "The message in the poke").
    notifyMembersSoon(db, [other], withMessage(poke, answer.message)),
  ]).catch((e: unknown) => console.error('messages: poke failed', e))
  return { created: true, other, pushed: Number(check.pushes) > 0, answer }
}

/**
 * The bytes a poke carrying its message may take: PostgreSQL refuses a
 * NOTIFY payload of 8000 bytes or more, and a message of MESSAGE_MAX
 * characters can take 4 bytes each. A longer one goes without: it is pulled.
 */
export const POKE_MESSAGE_MAX_BYTES = 7_000

/** `poke` with the message the recipient will pull, when it fits a NOTIFY. */
export function withMessage(poke: Poke, message: Message): Poke {
  const hinted = { ...poke, message }
  return Buffer.byteLength(JSON.stringify(hinted)) <= POKE_MESSAGE_MAX_BYTES ? hinted : poke
}

/** Why `input`'s attachment may not open this conversation (its opening rule, attachments.ts). */
const openingRefusal = (input: SendInput) =>
  input.gift
    ? giftNeedsConversation()
    : input.voice
      ? voiceNeedsConversation()
      : photoNeedsVerification()

/**
 * A voice message goes into a conversation that has begun, never opens one:
 * the scam signals read an opening's words, and a recording has none they can read.
 */
export const voiceNeedsConversation = () =>
  new ApiFailure(
    409,
    'voice_needs_conversation',
    'conversation',
    'a voice message goes into a conversation that has begun: send a message first',
  )

/** A gift goes into a conversation that has begun, never opens one: nothing to hold a scam check on. */
export const giftNeedsConversation = () =>
  new ApiFailure(
    409,
    'gift_needs_conversation',
    'conversation',
    'a gift goes into a conversation that has begun: send a message first',
  )

/** The first-message rule for photos (docs/messages-and-credits.md, "Photos in chats"). */
export const photoNeedsVerification = () =>
  new ApiFailure(
    403,
    'photo_needs_verification',
    'file',
    'a first message cannot carry a photo until your profile photo is verified',
  )

/** PostgreSQL's check_violation: here, CHECK (credits >= 0). */
const isCheckViolation = (e: unknown) => hasPgCode(e, '23514')

/** Spec-free but load-bearing for the client: 402 names the balance and the price. */
async function insufficientCredits(db: Db, memberId: number, cost: number): Promise<ApiFailure> {
  return new ApiFailure(402, 'insufficient_credits', undefined, 'not enough credits', {
    credits: await balanceOf(db, memberId),
    cost,
  })
}

/**
 * The send statement's one row: what it checked and what it stored (ids and
 * counts come as strings from node-postgres' bigint, as numbers from PGlite).
 */
type SendCheckRow = z.infer<typeof SendCheck>
const SendCheck = z.object({
  other: z.union([z.number(), z.string()]),
  live: z.boolean(),
  blocked: z.boolean(),
  /** The conversation had no message: nothing was stored unless the scam signals had passed. */
  opening: z.boolean(),
  /** A first message refused: the recipient takes them only from verified members. */
  unverified: z.boolean(),
  /** The attachment's opening rule refused it: a photo from an unverified member, a gift or a voice message. */
  opening_refused: z.boolean(),
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

/** The pace buckets' counts a send statement answers (json, or its text on PGlite). */
const PaceCounts = z.array(z.object({ bucket: z.string(), count: z.number() }))

/** The common send statement's row: the session, the replay, the gate and the pace, then the send's checks. */
const SessionSendRow = z.object({
  member_id: z.union([z.number(), z.string()]).nullable(),
  session_id: z.union([z.number(), z.string()]).nullable(),
  expires_at: z.union([z.date(), z.string()]).nullable(),
  touched: z.boolean(),
  replay: z.boolean(),
  assured: z.boolean(),
  pace: z.union([PaceCounts, z.string().transform((text) => PaceCounts.parse(JSON.parse(text)))]),
  other: z.union([z.number(), z.string()]).nullable(),
  live: z.boolean().nullable(),
  blocked: z.boolean().nullable(),
  opening: z.boolean().nullable(),
  unverified: z.boolean().nullable(),
  opening_refused: z.boolean().nullable(),
  response: z.unknown(),
  stored: z.union([z.number(), z.string()]),
  pushes: z.union([z.number(), z.string()]),
})

export interface SessionSendOptions {
  /** The request's host (the age gate is per site). */
  host: string | undefined
  /** Count the member's pace (api/http/member-limits.ts); off only for benchmarks and bulk tests. */
  paced: boolean
  /** When sends go together (api/chats/send-batch.ts; api/config.ts loadSendGathering). */
  gathering: SendGathering
}

/**
 * POST /api/messages.php in one round trip for the common send (not an
 * opening, inside the pace, with no age check to pass or one passed): the
 * session check, the replay check, the age gate, the pace and the send are
 * one statement (sessionSendStatement); the settings and the cost come from
 * the process's caches. A replay, an opening and the rare refusals take
 * more trips (sendMessage). Sets the request's member (as requireMember).
 */
export async function sendAsSession(
  c: Context<AuthEnv>,
  db: Db,
  input: SendInput,
  options: SessionSendOptions,
): Promise<SendOutcome & { memberId: number }> {
  const session = sessionParams(c)
  if (!session) throw new ApiFailure(403, 'not_logged_in')
  const [gate, cost] = await Promise.all([ageGateOn(db, options.host, 'message'), messageCost(db)])
  const now = session.now.getTime()
  const pace = paceParams('message', now)
  let result: unknown
  try {
    const params: SendParams = {
      hash: session.hash,
      now: session.now,
      idleSince: session.idleSince,
      touchBefore: session.touchBefore,
      gate,
      paced: options.paced,
      ...pace,
      conversation: input.conversation,
      text: input.text,
      clientId: input.clientId,
      kind: sendKind(input),
      cost,
      mailBase: input.mailBase ?? null,
      opening: false,
    }
    result = await gatheredSend(db)(params, options.gathering)
  } catch (e) {
    // A concurrent spend took the balance between the check and the debit: nothing stored.
    if (!isCheckViolation(e)) throw e
    const memberId = await sessionMember(c, db, { renewCookie: false })
    if (memberId === null) throw new ApiFailure(403, 'not_logged_in')
    throw await insufficientCredits(db, memberId, cost)
  }
  const [row] = parseRows(result, SessionSendRow)
  if (!row) throw new Error('send: the statement answered no row')
  const memberId = sessionFromStatement(c, session, {
    memberId: row.member_id === null ? null : Number(row.member_id),
    sessionId: row.session_id === null ? null : Number(row.session_id),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    touched: row.touched,
  })
  // A replay gets its first answer whatever changed since: not gated, not counted.
  if (row.replay) return { ...(await sendMessage(db, memberId, input)), memberId }
  if (!row.assured) throw ageAssuranceRequired()
  const retryAfter = paceRefusal(row.pace, now)
  if (retryAfter !== null) {
    c.header('Retry-After', String(retryAfter))
    throw new ApiFailure(429, RATE_LIMITED, undefined, 'too many messages, try again later')
  }
  const check =
    row.other === null
      ? undefined
      : {
          other: row.other,
          live: row.live === true,
          blocked: row.blocked === true,
          opening: row.opening === true,
          unverified: row.unverified === true,
          opening_refused: row.opening_refused === true,
          response: row.response ?? null,
          stored: row.stored,
          pushes: row.pushes,
        }
  const outcome = await sendMessage(db, memberId, input, {
    check: check ?? { ...NO_CONVERSATION },
    cost,
  })
  // The same send raced this one and won: this attempt was a replay after all, not counted.
  if (!outcome.created)
    await Promise.all(
      row.pace.map((p) => forgive(db, p.bucket as Bucket, `member:${memberId}`, now)),
    )
  return { ...outcome, memberId }
}

/** The checks of a conversation that is not the member's (404). */
const NO_CONVERSATION: SendCheckRow = {
  other: 0,
  live: false,
  blocked: false,
  opening: false,
  unverified: false,
  opening_refused: false,
  response: null,
  stored: 0,
  pushes: 0,
}
