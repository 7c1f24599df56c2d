// Idempotency of every action that carries a client-generated id
// (docs/architecture.md, "The API"): likes, messages, orders, the console's credit
// adjustments and refunds, and the refund of a member's withdrawal (its job
// claims the withdrawal's refund id as the member's action). The rule,
// written here only:
// - a client id is applied at most once per actor (a member, or a staff member);
// - a replay (the sync worker's outbox or the console retrying after a lost
//   answer) gets the first answer back and changes nothing;
// - the id reused for another action or another target is 422 client_id_reused;
// - two identical requests at once apply once.
// The record of each applied id is a row of member_actions or staff_actions
// (actor, client id) holding what the action was (`kind`) and its answer.
// Callers use one of three forms of the same claim:
// - `applyOnce` / `runOnce`: the effect runs in ONE transaction with the record;
// - `beginOnce` … `finishOnce` / `abandonOnce`: an action with a step outside
//   the database (the payment provider), claimed first, answered at the end;
// - `claimInStatement` + `replayOf`: the claim as a part of the caller's single
//   statement (the paid send, api/chats/messages.ts).
import { type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { parseRows } from '../shared/rows.ts'
import { ApiFailure } from './errors.ts'

/** The transaction handle an effect runs in (a Db in every way that matters). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Who applies the action: a member (the app) or a staff member (the console). */
export type Actor = { memberId: number } | { staffId: number }

export type ActionKey = Actor & {
  /** The client-generated UUID of the action (contract ClientId). */
  clientId: string
  /**
   * What the action is. Callers put the target in it (`like:42`,
   * `credits.adjust:7:+100`), so that an id reused for another action or
   * another target is refused with 422 rather than answered with an
   * unrelated stored response.
   */
  kind: string
}

/** An action's answer, and whether it is a replay (the first answer given again). */
export interface Once<T> {
  answer: T
  replay: boolean
}

/** What the record holds while its action runs (see `beginOnce`). */
const PENDING = { pending: true }
const isPending = (response: unknown) =>
  typeof response === 'object' &&
  response !== null &&
  (response as { pending?: unknown }).pending === true

/** The table and actor column of a key's record. */
function recordOf(key: ActionKey): { table: SQL; actor: SQL; id: number } {
  return 'staffId' in key
    ? { table: sql.raw('staff_actions'), actor: sql.raw('staff_id'), id: key.staffId }
    : { table: sql.raw('member_actions'), actor: sql.raw('member_id'), id: key.memberId }
}

const PriorRow = z.object({ kind: z.string(), response: z.unknown() })

/** The row a claim's INSERT returns when it claimed the client id. */
const ClaimedRow = z.object({ kind: z.string() })

/**
 * Inserts the key's record with `response` unless the id was used before:
 * true when this request claimed it. On PostgreSQL a concurrent identical
 * request's INSERT ... ON CONFLICT DO NOTHING waits on the first one's
 * uncommitted key, then inserts nothing if that committed (or claims the id
 * itself if it rolled back). PGlite has one connection and runs transactions
 * one after another, so the same holds trivially.
 */
async function claim(tx: Db, key: ActionKey, response: unknown): Promise<boolean> {
  const r = recordOf(key)
  const rows = parseRows(
    await tx.execute(sql`INSERT INTO ${r.table} (${r.actor}, client_id, kind, response)
      VALUES (${r.id}, ${key.clientId}, ${key.kind}, ${JSON.stringify(response)}::jsonb)
      ON CONFLICT DO NOTHING RETURNING kind`),
    ClaimedRow,
  )
  return rows.length > 0
}

type Prior<T> = { state: 'none' } | { state: 'running' } | { state: 'answered'; answer: T }

/** What the record of `key` says, with the rule on reuse (422) and stale answers (409). */
async function priorOf<S extends z.ZodType>(
  db: Db,
  key: ActionKey,
  schema: S,
): Promise<Prior<z.output<S>>> {
  const r = recordOf(key)
  const [prior] = parseRows(
    await db.execute(sql`SELECT kind, response FROM ${r.table}
      WHERE ${r.actor} = ${r.id} AND client_id = ${key.clientId}`),
    PriorRow,
  )
  if (!prior) return { state: 'none' }
  // A key reused for another action: 422, as Stripe and the IETF
  // Idempotency-Key draft answer it (409 is theirs for "still running").
  if (prior.kind !== key.kind)
    throw new ApiFailure(422, 'client_id_reused', 'client_id', 'this id named another action')
  if (isPending(prior.response)) return { state: 'running' }
  const stored = schema.safeParse(prior.response)
  if (!stored.success) {
    // A response stored by an older release that no longer fits the
    // contract: refuse the replay rather than apply the action twice.
    console.error('idempotency: stored response does not parse', key, stored.error.issues)
    throw new ApiFailure(409, 'replay_unavailable', 'client_id')
  }
  return { state: 'answered', answer: stored.data }
}

/**
 * How long a request waits for the first request with its id to finish (an
 * action begun with `beginOnce` whose outside step is still running) before
 * it answers 409 action_in_progress and the client tries again. A double
 * click or a retry racing the first request so gets the first answer.
 */
const RUNNING_WAIT_MS = 10_000

/**
 * The answer to a request whose id was used before: the stored first answer
 * (waited for while the first request still runs), 422 client_id_reused when
 * the id named another action, 409 action_in_progress when the first request
 * is still running after the wait. Null when the id was never used. Call it
 * outside a transaction (the first request must be able to finish).
 */
export async function replayOf<S extends z.ZodType>(
  db: Db,
  key: ActionKey,
  schema: S,
): Promise<z.output<S> | null> {
  const until = Date.now() + RUNNING_WAIT_MS
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const prior = await priorOf(db, key, schema)
    if (prior.state === 'none') return null
    if (prior.state === 'answered') return prior.answer
    if (Date.now() + pause > until) throw new ApiFailure(409, 'action_in_progress', 'client_id')
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}

/** The answer of an id this request found claimed; gone only by a purge (409: try again). */
async function storedAnswer<S extends z.ZodType>(db: Db, key: ActionKey, schema: S) {
  const prior = await replayOf(db, key, schema)
  if (prior === null) throw new ApiFailure(409, 'action_in_progress', 'client_id')
  return prior
}

async function store(tx: Db, key: ActionKey, response: unknown): Promise<void> {
  const r = recordOf(key)
  await tx.execute(sql`UPDATE ${r.table} SET response = ${JSON.stringify(response)}::jsonb
    WHERE ${r.actor} = ${r.id} AND client_id = ${key.clientId}`)
}

/**
 * Runs `effect` at most once per (actor, client id), in ONE transaction with
 * the record of it; a later call with the same key gets the stored answer
 * without running anything. An effect that throws leaves no record, so a
 * failed action can be retried with the same id.
 */
export async function applyOnce<S extends z.ZodType>(
  db: Db,
  key: ActionKey,
  schema: S,
  effect: (tx: Tx) => Promise<z.output<S>>,
): Promise<Once<z.output<S>>> {
  const done = await db.transaction(async (tx) => {
    if (!(await claim(tx, key, PENDING))) return null
    const answer = await effect(tx)
    await store(tx, key, answer)
    return { answer, replay: false }
  })
  return done ?? { answer: await storedAnswer(db, key, schema), replay: true }
}

/** `applyOnce` for a caller that answers a replay like the first request. */
export async function runOnce<S extends z.ZodType>(
  db: Db,
  key: ActionKey,
  schema: S,
  effect: (tx: Tx) => Promise<z.output<S>>,
): Promise<z.output<S>> {
  return (await applyOnce(db, key, schema, effect)).answer
}

/**
 * The first part of an action with a step outside the database: claims the
 * id and runs `start` (the action's own rows) in one transaction, and
 * commits with the record pending. The caller then does the outside step and
 * either stores the answer (`finishOnce`) or, when that step failed without
 * effect, gives the id back (`abandonOnce`). A request with the same id in
 * between waits for the answer (replayOf).
 */
export async function beginOnce<S extends z.ZodType, T>(
  db: Db,
  key: ActionKey,
  schema: S,
  start: (tx: Tx) => Promise<T>,
): Promise<{ replay: z.output<S> } | { started: T }> {
  const begun = await db.transaction(async (tx) =>
    (await claim(tx, key, PENDING)) ? { started: await start(tx) } : null,
  )
  return begun ?? { replay: await storedAnswer(db, key, schema) }
}

/** Stores the answer of an action begun with `beginOnce` (in `tx`, with its last changes). */
export const finishOnce = (tx: Db, key: ActionKey, answer: unknown): Promise<void> =>
  store(tx, key, answer)

/** Gives back the id of an action begun with `beginOnce` whose outside step failed. */
export async function abandonOnce(db: Db, key: ActionKey): Promise<void> {
  const r = recordOf(key)
  await db.execute(sql`DELETE FROM ${r.table}
    WHERE ${r.actor} = ${r.id} AND client_id = ${key.clientId} AND response = ${JSON.stringify(PENDING)}::jsonb`)
}

/**
 * The claim as a common table expression `claim` of a caller's single
 * statement, for a member's action whose answer the statement can compute
 * up front: inserts the record (`response`, SQL over `from`'s columns) for
 * each row of `from` (a FROM … WHERE clause: the action's checks) unless the
 * id was used before, and returns the claiming `member_id` and the stored
 * `response` (a statement of several members' actions, the gathered send,
 * joins each back by its member). The caller's effect
 * runs FROM claim, so a replay (or the loser of two identical requests at
 * once, which waits on the winner's key) changes nothing; the caller then
 * answers it with `replayOf`.
 */
export function claimInStatement(input: {
  memberId: SQL
  clientId: SQL
  kind: SQL
  response: SQL
  from: SQL
}): SQL {
  return sql`claim AS (
      INSERT INTO member_actions (member_id, client_id, kind, response)
      SELECT ${input.memberId}, ${input.clientId}, ${input.kind}, ${input.response}
      ${input.from}
      ON CONFLICT DO NOTHING
      RETURNING member_id, response
    )`
}

/**
 * SQL true when the member used `clientId` before (a replay, which a rate
 * limit neither counts nor refuses: api/http/member-limits.ts).
 */
export const usedBefore = (memberId: number, clientId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM member_actions a
    WHERE a.member_id = ${memberId} AND a.client_id = ${clientId})`

/** usedBefore for SQL operands: the member and the client id as expressions of the caller's statement. */
export const usedBeforeSql = (memberId: SQL, clientId: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM member_actions a WHERE a.member_id = ${memberId} AND a.client_id = ${clientId})`
