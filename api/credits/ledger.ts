// The credits ledger: every change of a balance is a row here, written in the
// same transaction as its effect (a message, a purchase, a refund), under a
// CHECK (credits >= 0), so no interleaving of requests can make a balance
// negative, and it always equals the sum of the member's ledger deltas. A
// debit comes in two forms, both this module's: `debit` (its own statements,
// conditional on the balance: null when it does not cover the amount) and
// `debitInStatement` (parts of a caller's single statement that stores the
// effect first: the paid send, api/chats/messages.ts).
import { eq, type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { creditLedger } from '../../db/schema/index.ts'
import { storedValue } from '../settings/index.ts'
import {
  memberFields,
  payerRowSql,
  updateMemberSql,
  updateMembersFromSql,
} from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'

const Balance = z.object({ credits: z.number() })

/**
 * Adds `delta` (negative: takes) to the member's balance, under CHECK
 * (credits >= 0); the new balance, or null when there is no such member or,
 * with `covering`, the balance is below it (nothing changed).
 */
async function addToBalance(tx: Db, memberId: number, delta: number, covering?: number) {
  const [row] = await rowsOf(
    tx,
    updateMemberSql(
      sql`${memberId}`,
      sql`credits = credits + ${delta}::integer`,
      covering === undefined ? sql`true` : sql`credits >= ${covering}::integer`,
      sql`credits`,
    ),
    Balance,
  )
  return row?.credits ?? null
}

/** What a ledger row is for: the paid actions (a debit each) and what adds credits. */
export const SPEND_REASONS = ['message', 'photo', 'voice', 'unlock', 'gift'] as const
export type SpendReason = (typeof SPEND_REASONS)[number]
export type LedgerReason = SpendReason | 'purchase' | 'bonus' | 'refund' | 'adjustment'

/**
 * Takes `amount` credits if the balance covers them; the new balance, or
 * null (and nothing changed) when it does not.
 */
export async function debit(
  tx: Db,
  memberId: number,
  amount: number,
  reason: LedgerReason,
  reference: string,
): Promise<number | null> {
  const balance = await addToBalance(tx, memberId, -amount, amount)
  if (balance === null) return null
  await tx
    .insert(creditLedger)
    .values({ memberId, delta: -amount, reason, reference, balanceAfter: balance })
  return balance
}

/** A debit in a caller's statement: who pays what, for which effect (the CTE `after`), booked how. */
interface DebitInStatement {
  member: SQL
  amount: SQL
  reason: LedgerReason
  after: string
  reference: SQL
}

/**
 * The debit as two common table expressions of a caller's single statement:
 * `debit` takes `amount` from `member` once the CTE named `after` (the effect
 * it pays for) has a row, and `ledger` writes its row, referenced as
 * `reference` (SQL over `after`'s columns). Unlike `debit`, the update is not
 * conditional on the balance: the effect is already stored in the same
 * statement, so an overdraft (a concurrent spend) must fail the CHECK and the
 * whole statement, never store an effect without its debit. The caller reads
 * the new balance from `debit.credits`.
 */
export function debitInStatement(input: DebitInStatement): SQL {
  const after = sql.raw(input.after)
  return sql`debit AS (
      ${updateMemberSql(
        input.member,
        sql`credits = credits - ${input.amount}`,
        sql`EXISTS (SELECT 1 FROM ${after})`,
        sql`credits`,
      )}
    ), ${ledgerRowsSql(input, sql`${after}, debit`)}`
}

/** The CTE `ledger`: the debit's ledger rows, one per row of `from` (which holds `debit`). */
const ledgerRowsSql = (input: DebitInStatement, from: SQL) =>
  sql`ledger AS (
      INSERT INTO credit_ledger (member_id, delta, reason, reference, balance_after)
      SELECT ${input.member}, -${input.amount}::integer, ${sql.raw(`'${input.reason}'`)}, ${input.reference}, debit.credits
      FROM ${from}
    )`

/**
 * debitInStatement for several payers in one statement (the gathered send,
 * api/chats/send-batch.ts): `debit` takes `amount` from `member` for each
 * row of the CTE `after` (no member twice), both expressions over its
 * columns, and `ledger` writes each debit's row. The same unconditional
 * update: an overdraft fails the CHECK and the whole statement.
 */
export function debitEachInStatement(input: DebitInStatement): SQL {
  const after = sql.raw(input.after)
  return sql`debit AS (
      ${updateMembersFromSql(
        after,
        input.member,
        sql`credits = credits - ${input.amount}`,
        sql`credits`,
      )}
    ), ${ledgerRowsSql(input, sql`${after} JOIN debit ON debit.id = ${input.member}`)}`
}

/** Adds `amount` credits (a purchase, a bonus, a refund); the new balance. */
export async function credit(
  tx: Db,
  memberId: number,
  amount: number,
  reason: LedgerReason,
  reference: string,
): Promise<number> {
  const balance = await addToBalance(tx, memberId, amount)
  if (balance === null) throw new Error(`credit: no member ${memberId}`)
  await tx
    .insert(creditLedger)
    .values({ memberId, delta: amount, reason, reference, balanceAfter: balance })
  return balance
}

/**
 * Sets the balance to zero through an adjustment row (the developer panel's
 * "set credits to zero", spec §2); the new balance, 0.
 */
export async function zeroCredits(db: Db, memberId: number, reference: string): Promise<number> {
  return db.transaction(async (tx) => {
    // The row locked: a concurrent spend waits, so the debit takes all there is.
    const [me] = await rowsOf(tx, payerRowSql(sql`${memberId}`), Balance)
    const credits = me?.credits ?? 0
    if (credits > 0) await debit(tx, memberId, credits, 'adjustment', reference)
    return 0
  })
}

export async function balanceOf(db: Db, memberId: number): Promise<number> {
  return (await memberFields(db, memberId, ['credits']))?.credits ?? 0
}

/** The sum of a member's ledger deltas: equal to the balance, always (tests check it). */
export async function ledgerSum(db: Db, memberId: number): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${creditLedger.delta}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.memberId, memberId))
  return Number(row?.sum ?? 0)
}

/** Credits one message costs unless the operator set `message_cost_credits`. */
export const DEFAULT_MESSAGE_COST = 10

/**
 * Read again at least this often. An operator's change does not wait for it:
 * it is sent to every process in its transaction (notifyCacheChange,
 * api/events/bus.ts) and each drops its copy (forgetMessageCost); this only
 * bounds a copy kept by a process that missed the NOTIFY.
 */
const COST_TTL_MS = 60_000
/** The cache's name on the caches channel (api/events/bus.ts CACHES_CHANNEL). */
export const MESSAGE_COST_CACHE = 'message_cost'
const costCache = new WeakMap<Db, { at: number; value: number }>()

/** The operator's price of a message in credits (site_settings `message_cost_credits`). */
export async function messageCost(db: Db): Promise<number> {
  const hit = costCache.get(db)
  if (hit && Date.now() - hit.at < COST_TTL_MS) return hit.value
  const value = await readMessageCost(db)
  costCache.set(db, { at: Date.now(), value })
  return value
}

/** Drops the cached cost: the next send reads the operator's price again. */
export function forgetMessageCost(db: Db): void {
  costCache.delete(db)
}

async function readMessageCost(db: Db): Promise<number> {
  const value = await storedValue(db, 'message_cost_credits')
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : DEFAULT_MESSAGE_COST
}
