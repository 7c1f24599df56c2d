// The common send of several members in one statement, when sends come
// faster than the database answers them (docs/performance.md, "Several
// sends in one statement"). A lone send runs its own statement
// (api/chats/messages.ts, the session's send): a batch of one costs the
// database more than that. While `inFlight` send statements run, the
// sends that come wait; when one comes back, the waiting ones go together
// in one statement, which does for each what the lone statement does, with
// each send's own parameters (its time, its settings, its cost). What each
// send answers is the lone statement's row, so the caller reads it the same
// way. A send that finds nothing at work in a busy process waits `waitMs`
// for the sends on their way (companyWindow), so they do not go as a lone
// send and a batch behind it.
//
// The rules that keep it the lone send's equal:
// - no session and no conversation twice among the statements at work
//   (a batch's or a lone one's): a statement changes a row once, and two
//   statements at work never wait on each other's sender or conversation;
// - the payers' rows are locked in the order of their ids;
// - a member with two sessions in one batch (two devices) sends once in it;
//   the other send waits first in line for the next statement (`again`);
// - a batch that fails (whatever the reason) runs each of its sends alone,
//   so one send's failure is its own and nothing is stored twice (the
//   failed batch stored nothing).
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { SendGathering } from '../config.ts'
import { preparedStatement } from '../../db/prepared.ts'
import { assuredSql } from '../age/index.ts'
import { blockedBetweenSql } from '../blocks/index.ts'
import { debitEachInStatement } from '../credits/index.ts'
import { claimInStatement, usedBeforeSql } from '../http/idempotency.ts'
import { sendBatches, sendStatements } from '../http/metrics.ts'
import { actionBuckets, paceBuckets } from '../http/member-limits.ts'
import { paceAllows, paceInStatement, paceRowsJson } from '../http/ratelimit.ts'
import { sessionInStatement } from '../http/session.ts'
import { verifiedOnlySql } from '../presence/index.ts'
import { liveMemberSql, payerRowsSql, verifiedMemberSql } from '../shared/members.ts'
import { type Attachment, openingRefusedSql } from './attachments.ts'
import { newMessageJobsSql, sendAnswerSql } from './message-sql.ts'

/** The other member of a conversation row (conversations' columns) for `member`. */
export const otherMemberSql = (member: SQL): SQL =>
  sql`CASE WHEN member_low = ${member} THEN member_high ELSE member_low END`

/** SQL true when a conversation row (conversations' columns) is `member`'s. */
export const inConversationSql = (member: SQL): SQL =>
  sql`(member_low = ${member} OR member_high = ${member})`

/**
 * What a send must pass, as select items `live`, `blocked`, `unverified`
 * and `opening_refused`, for the sender `member` to `other`, where
 * `opening` says the send would open the conversation.
 */
export function verdictSql(
  member: SQL,
  other: SQL,
  opening: SQL,
  attachment: Attachment | undefined,
): SQL {
  return sql`${liveMemberSql(other)} AS live,
        ${blockedBetweenSql(member, other)} AS blocked,
        -- A first message to a member who takes them only from verified
        -- senders (their privacy choice verified_only), from one who is not.
        ${opening}
          AND ${verifiedOnlySql(other)}
          AND NOT ${verifiedMemberSql(member)}
          AS unverified,
        -- The attachment's opening rule (attachments.ts): a photo opens a
        -- conversation only from a verified member, a gift or a voice never.
        ${opening} AND ${openingRefusedSql(attachment, verifiedMemberSql(member))}
          AS opening_refused`
}

/**
 * The per-send values of the batched statement: the lone statement's
 * parameter, its column in `req` and its type. `opening` is not among them:
 * the common send never stores an opening (it takes a second trip).
 */
const COLUMNS = [
  ['hash', 'hash', 'text'],
  ['now', 'now', 'timestamptz'],
  ['idleSince', 'idle_since', 'timestamptz'],
  ['touchBefore', 'touch_before', 'timestamptz'],
  ['gate', 'gate', 'boolean'],
  ['paced', 'paced', 'boolean'],
  ['paceMinute', 'pace_minute', 'timestamptz'],
  ['paceHour', 'pace_hour', 'timestamptz'],
  ['youngSince', 'young_since', 'timestamptz'],
  ['keepSince', 'keep_since', 'timestamptz'],
  ['conversation', 'conversation', 'bigint'],
  ['text', 'body', 'text'],
  ['clientId', 'client_id', 'uuid'],
  ['kind', 'kind', 'text'],
  ['cost', 'cost', 'integer'],
  ['mailBase', 'mail_base', 'text'],
] as const

/** The lone statement's parameters of one send (api/chats/messages.ts sessionSendStatement). */
export type SendParams = Record<(typeof COLUMNS)[number][0] | 'opening', unknown>

/** The pace's key of a member (api/http/member-limits.ts: per member). */
const paceKey = (member: SQL) => sql`'member:' || ${member}`

/**
 * The batched common send: `req` has a row per send (`n`, its place, and
 * its values), and the answer a row per send with the lone statement's
 * columns, `n` and `again`. Every table is reached through its owner's
 * fragment, as in the lone statement; the fragments take their set-shaped
 * form here.
 */
const batchedSendSql = (sends: SQL): SQL =>
  sql`WITH ${batchBeforeSql(sends)}, ${batchChecksSql()}, ${batchEffectsSql()}
    ${batchResultSql}`

/**
 * The CTEs before a batch's checks: `req`, the sessions (`sess`,
 * `sess_touch`), one send a member (`one`), the payers' rows locked (`me`),
 * the replays (`prior`), the age gate (`gate`) and the pace (`pace`,
 * `pace_stale`), each keyed by the send's place `n`.
 */
function batchBeforeSql(sends: SQL): SQL {
  const defs = sql.raw(COLUMNS.map(([, column, type]) => `${column} ${type}`).join(', '))
  return sql`req AS (
      SELECT * FROM json_to_recordset(${sends}::json) AS req(n integer, ${defs})
    ), ${sessionInStatement({
      hash: sql`req.hash`,
      now: sql`req.now`,
      idleSince: sql`req.idle_since`,
      touchBefore: sql`req.touch_before`,
      each: { from: sql`req`, carry: sql`req.n` },
    })}, one AS (
      -- A member logged in twice (two devices) sends once in a batch (a
      -- statement changes a row once); the other send goes in the next statement.
      SELECT sess.n, sess.member_id,
        row_number() OVER (PARTITION BY sess.member_id ORDER BY sess.n) = 1 AS first
      FROM sess
    ), me AS (
      ${payerRowsSql({
        from: sql`(SELECT * FROM one WHERE first) AS one`,
        id: sql`one.member_id`,
        carry: sql`one.n`,
      })}
    ), prior AS (
      SELECT me.n, ${usedBeforeSql(sql`me.id`, sql`req.client_id`)} AS replay
      FROM me JOIN req USING (n)
    ), gate AS (
      SELECT me.n, (NOT req.gate OR ${assuredSql(sql`me.id`)}) AS assured
      FROM me JOIN req USING (n)
    ), ${paceInStatement({
      key: paceKey(sql`me.id`),
      from: sql`me JOIN req USING (n) JOIN prior USING (n) JOIN gate USING (n)`,
      counts: sql`req.paced AND NOT prior.replay AND gate.assured`,
      buckets: paceBuckets('message', sql`me.signup_date`, {
        minute: sql`req.pace_minute`,
        hour: sql`req.pace_hour`,
        youngSince: sql`req.young_since`,
      }),
      // The earliest of the batch: a window a few milliseconds stale stays
      // until the next new window drops it.
      keepSince: sql`(SELECT min(keep_since) FROM req)`,
    })}`
}

/**
 * The CTEs `checks` (what each send must pass, as checksSql of the lone
 * statement), `fresh` (each new message's id and time) and `claim` (the
 * client ids claimed, for the sends that passed everything).
 */
function batchChecksSql(): SQL {
  return sql`checks AS (
      SELECT me.n, me.id AS member, conv.other, me.credits, conv.opening,
        ${verdictSql(sql`me.id`, sql`conv.other`, sql`conv.opening`, undefined)}
      FROM me JOIN req USING (n) CROSS JOIN LATERAL (
        SELECT ${otherMemberSql(sql`me.id`)} AS other, last_message_id IS NULL AS opening
        FROM conversations WHERE id = req.conversation AND ${inConversationSql(sql`me.id`)}
      ) AS conv
    ), fresh AS (
      SELECT checks.n, nextval('messages_id_seq') AS id, date_trunc('milliseconds', now()) AS at
      FROM checks
    ), ${claimInStatement({
      memberId: sql`checks.member`,
      clientId: sql`req.client_id`,
      kind: sql`req.kind`,
      response: sendAnswerSql(
        {
          id: sql`fresh.id`,
          conversation: sql`req.conversation`,
          from: sql`checks.member`,
          text: sql`req.body`,
          at: sql`fresh.at`,
          clientId: sql`req.client_id`,
        },
        sql`checks.credits - req.cost`,
      ),
      from: sql`FROM checks JOIN fresh USING (n) JOIN req USING (n) JOIN prior USING (n) JOIN gate USING (n)
        WHERE checks.live AND NOT checks.blocked AND NOT checks.unverified AND NOT checks.opening_refused
          AND checks.credits >= req.cost AND NOT checks.opening AND NOT prior.replay AND gate.assured
          AND ${paceAllows(actionBuckets('message'), paceKey(sql`checks.member`))}`,
    })}`
}

/**
 * The effects of the claimed sends: the messages (`ins`, then `paid` with
 * each one's send), the debits and their ledger rows, the conversations'
 * newest messages, the recipients' unread counts, the push and mail jobs.
 */
function batchEffectsSql(): SQL {
  return sql`ins AS (
      INSERT INTO messages (id, conversation_id, sender_id, body, client_id, created_at)
      OVERRIDING SYSTEM VALUE
      SELECT fresh.id, req.conversation, claim.member_id, req.body, req.client_id, fresh.at
      FROM claim JOIN checks ON checks.member = claim.member_id JOIN fresh USING (n) JOIN req USING (n)
      RETURNING id, created_at
    ), paid AS (
      SELECT fresh.n, ins.id, ins.created_at, checks.member, checks.other, req.conversation,
        req.body, req.cost, req.mail_base
      FROM ins JOIN fresh ON fresh.id = ins.id JOIN checks USING (n) JOIN req USING (n)
    ), ${debitEachInStatement({
      member: sql`paid.member`,
      amount: sql`paid.cost`,
      reason: 'message',
      after: 'paid',
      reference: sql`'message:' || paid.id`,
    })}, conv_time AS (
      UPDATE conversations
      SET last_message_at = paid.created_at, last_message_id = paid.id,
          last_message_sender = paid.member, last_message_body = paid.body
      FROM paid WHERE conversations.id = paid.conversation
    ), unread AS (
      UPDATE conversation_members cm
      SET unread_count = cm.unread_count + 1, hidden_at = NULL
      FROM paid
      WHERE cm.conversation_id = paid.conversation AND cm.member_id = paid.other
    ), ${newMessageJobsSql({
      source: sql`paid`,
      recipient: sql`paid.other`,
      sender: sql`paid.member`,
      conversation: sql`paid.conversation`,
      text: sql`paid.body`,
      message: sql`paid.id`,
      mailBase: sql`paid.mail_base`,
    })}`
}

/** A row per send: the lone statement's columns, `n` and `again`. */
const batchResultSql = sql`SELECT req.n, sess.member_id, sess.id AS session_id, sess.expires_at,
      EXISTS (SELECT 1 FROM sess_touch WHERE sess_touch.id = sess.id) AS touched,
      sess.n IS NOT NULL AND NOT one.first AS again,
      coalesce(prior.replay, false) AS replay, coalesce(gate.assured, true) AS assured,
      ${paceRowsJson(paceKey(sql`sess.member_id`))} AS pace,
      checks.other, checks.live, checks.blocked, checks.opening, checks.unverified,
      checks.opening_refused, claim.response,
      (SELECT count(*) FROM paid WHERE paid.n = req.n) AS stored,
      -- Whether the batch enqueued a push (the job runner is poked once for it).
      (SELECT count(*) FROM push) AS pushes
    FROM req LEFT JOIN sess USING (n) LEFT JOIN one USING (n) LEFT JOIN prior USING (n)
      LEFT JOIN gate USING (n) LEFT JOIN checks USING (n)
      LEFT JOIN claim ON claim.member_id = checks.member
    ORDER BY req.n`

/** The batched statement, prepared once (db/prepared.ts): its one parameter is the sends as json. */
const batchedStatement = preparedStatement<'sends'>('send_message_batch', (p) =>
  batchedSendSql(sql`${p('sends')}`),
)

/** A row of the batched statement: the lone statement's row, its send's place and `again`. */
type BatchRow = Record<string, unknown> & { n: number; again: boolean | null; touched: boolean }

/**
 * Runs the common send of `sends` (no session and no conversation twice) in
 * one statement: for each, the lone statement's result (`{ rows: [row] }`),
 * or `again` when its member sent in this batch already.
 */
export async function sendBatch(
  db: Db,
  sends: readonly SendParams[],
): Promise<({ result: { rows: unknown[] } } | { again: { touched: boolean } })[]> {
  const json = JSON.stringify(
    sends.map((send, i) => {
      const row: Record<string, unknown> = { n: i + 1 }
      for (const [param, column] of COLUMNS) row[column] = send[param]
      return row
    }),
  )
  const result = (await batchedStatement(db, { sends: json })) as { rows: BatchRow[] }
  const answers: ({ result: { rows: unknown[] } } | { again: { touched: boolean } })[] = []
  for (const { n, again, ...row } of result.rows)
    answers[Number(n) - 1] = again
      ? { again: { touched: row.touched } }
      : { result: { rows: [row] } }
  return answers
}

/** What runs a send: alone (the lone statement), or with others (sendBatch). */
export interface SendRunners<P, R> {
  alone(params: P): Promise<R>
  together(params: readonly P[]): Promise<({ result: R } | { again: { touched: boolean } })[]>
  /** What no two statements at work may share: the session and the conversation. */
  keys(params: P): readonly unknown[]
  /** The result of a send that went alone after its batch (`again`), given what the batch did to its session. */
  afterAgain(result: R, again: { touched: boolean }): R
}

interface Waiting<P, R> {
  params: P
  keys: readonly unknown[]
  resolve(result: R): void
  reject(e: unknown): void
}

/** What answers a statement's sends once the next statement is on its way. */
type Settle = () => void

/**
 * Runs `batch` in one statement; what answers its sends. A send its batch
 * left for later (`again`: its member sent in the batch already) waits
 * again (`requeue`), first in line; a failed batch's sends go each alone
 * (`alone`), before the answers.
 */
async function together<P, R>(
  runners: SendRunners<P, R>,
  batch: Waiting<P, R>[],
  alone: (w: Waiting<P, R>) => Promise<Settle>,
  requeue: (w: Waiting<P, R>[]) => void,
): Promise<Settle> {
  let answers: Awaited<ReturnType<SendRunners<P, R>['together']>>
  try {
    answers = await runners.together(batch.map((w) => w.params))
  } catch {
    // Nothing of the batch is stored: each send alone, its failure its own.
    sendStatements.inc({ way: 'fallback' }, batch.length)
    const settles = await Promise.all(batch.map(alone))
    return () => {
      for (const settle of settles) settle()
    }
  }
  sendStatements.inc({ way: 'batched' }, batch.length)
  sendBatches.inc()
  const later: Waiting<P, R>[] = []
  const settles = batch.map((w, i): Settle => {
    const answer = answers[i]
    if (!answer) return () => w.reject(new Error('send batch: no row for a send'))
    if ('result' in answer) return () => w.resolve(answer.result)
    sendStatements.inc({ way: 'again' })
    later.push({ ...w, resolve: (r) => w.resolve(runners.afterAgain(r, answer.again)) })
    return () => {}
  })
  requeue(later)
  return () => {
    for (const settle of settles) settle()
  }
}

/**
 * One database's send statements at work and the sends that wait for them:
 * `send` runs one send alone when fewer than `inFlight` statements work and
 * none shares its keys (after `waitMs` for company when the process is
 * busy: companyWindow), else it waits, and every statement that comes back
 * lets the waiting ones go, as many as `most` in one statement, none with a
 * key of a statement at work or of another in the batch.
 */
export function sendGatherer<P, R>(runners: SendRunners<P, R>) {
  /** When each statement at work started (performance.now()). */
  const started = new Set<{ at: number }>()
  const { hold, free } = keyHolds()
  const waiting: Waiting<P, R>[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const alone = (w: Waiting<P, R>): Promise<Settle> =>
    runners.alone(w.params).then(
      (r) => () => w.resolve(r),
      (e: unknown) => () => w.reject(e),
    )
  const first = (w: Waiting<P, R>) => {
    sendStatements.inc({ way: 'alone' })
    return alone(w)
  }
  const room = (g: SendGathering) => roomBeside(started, g)

  function start(batch: Waiting<P, R>[], gathering: SendGathering) {
    const statement = { at: performance.now() }
    started.add(statement)
    company.close()
    const keys = batch.flatMap((w) => w.keys)
    hold(keys, 1)
    const done =
      batch.length === 1
        ? first(batch[0]!)
        : together(runners, batch, alone, (later) => waiting.unshift(...later))
    // The next statement goes first, then the answers: the database works on
    // it while this process writes this one's answers.
    void done.then((settle) => {
      started.delete(statement)
      hold(keys, -1)
      pump(gathering)
      settle()
    })
  }

  function pump(gathering: SendGathering) {
    while (waiting.length > 0 && room(gathering)) {
      const batch = takeBatch(waiting, free, gathering.most)
      if (batch.length === 0) return
      start(batch, gathering)
    }
    // Sends wait: look again once the statements at work would count as stalled.
    if (waiting.length > 0 && timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined
        pump(gathering)
      }, gathering.stallMs)
      timer.unref?.()
    }
  }

  const company = companyWindow(pump)

  return (params: P, gathering: SendGathering): Promise<R> => {
    const keys = runners.keys(params)
    if (gathering.inFlight === 0) {
      sendStatements.inc({ way: 'alone' })
      return runners.alone(params)
    }
    return new Promise<R>((resolve, reject) => {
      const w = { params, keys, resolve, reject }
      if (company.open) waiting.push(w)
      else if (waiting.length === 0 && free(keys) && room(gathering)) {
        if (company.opens(gathering)) waiting.push(w)
        else start([w], gathering)
      } else {
        waiting.push(w)
        pump(gathering)
      }
    })
  }
}

/**
 * The keys (sessions, conversations) of the statements at work: `hold`
 * counts them in (1) or out (-1); `free` says whether none of `keys` is held.
 */
function keyHolds() {
  const held = new Map<unknown, number>()
  return {
    hold(keys: readonly unknown[], by: 1 | -1) {
      for (const k of keys) {
        const n = (held.get(k) ?? 0) + by
        if (n === 0) held.delete(k)
        else held.set(k, n)
      }
    },
    free: (keys: readonly unknown[]) => keys.every((k) => !held.has(k)),
  }
}

/**
 * The wait of a send that finds no statement at work in a busy process (one
 * that started a statement less than BUSY_MS ago): the answers it just
 * wrote bring their senders' next sends within a fraction of a millisecond,
 * so the send waits `waitMs` for them and they go in one statement, not a
 * lone one and a batch behind it (a lone statement costs the database about
 * as much as four sends of a batch: bench/RESULTS.md, "The database path
 * alone"). The sends that come meanwhile wait with it; a process that sent
 * nothing for BUSY_MS sends at once. `open` while the window is open;
 * `opens` opens it when the process is busy, and says whether it did;
 * `close` when a statement starts.
 */
function companyWindow(pump: (g: SendGathering) => void) {
  let lastStart = Number.NEGATIVE_INFINITY
  let timer: ReturnType<typeof setTimeout> | undefined
  return {
    get open() {
      return timer !== undefined
    },
    opens(g: SendGathering): boolean {
      if (g.waitMs === 0 || performance.now() - lastStart >= BUSY_MS) return false
      timer = setTimeout(() => {
        timer = undefined
        pump(g)
      }, g.waitMs)
      return true
    },
    close() {
      lastStart = performance.now()
      if (timer === undefined) return
      clearTimeout(timer)
      timer = undefined
    },
  }
}

/** A process that started a send statement this recently (ms) is busy (see companyWindow). */
const BUSY_MS = 20

/**
 * Whether another statement may start beside those `started`: fewer than
 * `inFlight` at work, not counting those stalled (at work longer than
 * `stallMs`: waiting on a lock, say), and at most STALLED_MORE beside the
 * stalled ones.
 */
function roomBeside(started: ReadonlySet<{ at: number }>, g: SendGathering): boolean {
  const since = performance.now() - g.stallMs
  let atWork = 0
  for (const s of started) if (s.at > since) atWork++
  return atWork < Math.max(g.inFlight, 1) && started.size < g.inFlight + STALLED_MORE
}

/** Statements that may start beside the stalled ones (see roomBeside). */
const STALLED_MORE = 8

/**
 * Takes out of `waiting` the sends of the next statement, in the order they
 * came: at most `most`, none with a key of a statement at work (`free`) or
 * of another send taken.
 */
function takeBatch<W extends { keys: readonly unknown[] }>(
  waiting: W[],
  free: (keys: readonly unknown[]) => boolean,
  most: number,
): W[] {
  const batch: W[] = []
  const taken = new Set<unknown>()
  for (let i = 0; i < waiting.length && batch.length < most; ) {
    const w = waiting[i]!
    if (free(w.keys) && w.keys.every((k) => !taken.has(k))) {
      batch.push(w)
      for (const k of w.keys) taken.add(k)
      waiting.splice(i, 1)
    } else i++
  }
  return batch
}

/** What no two send statements at work share: the session and the conversation. */
export const sendKeys = (params: SendParams): readonly unknown[] => [
  `session:${String(params.hash)}`,
  `conversation:${String(params.conversation)}`,
]

/**
 * The lone result of a send that its batch left for later (`again`): the
 * batch renewed its session, so the result says so (the cookie is renewed).
 */
export function afterAgain(result: unknown, again: { touched: boolean }): unknown {
  if (!again.touched) return result
  const { rows } = result as { rows: Record<string, unknown>[] }
  return { ...(result as object), rows: rows.map((r) => ({ ...r, touched: true })) }
}
