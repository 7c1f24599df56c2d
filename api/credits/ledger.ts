// The credits ledger: every change of a balance is a row here, written in the
// same transaction as its effect (a message, a purchase, a refund). The
// balance moves only by a conditional UPDATE (`credits >= cost`) under a
// CHECK (credits >= 0), so no interleaving of requests can make it negative,
// and it always equals the sum of the member's ledger deltas.
import { and, eq, gte, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { creditLedger, members, siteSettings } from '../../db/schema/index.ts'

export type LedgerReason = 'message' | 'purchase' | 'bonus' | 'refund' | 'adjustment'

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
  const [row] = await tx
    .update(members)
    .set({ credits: sql`${members.credits} - ${amount}` })
    .where(and(eq(members.id, memberId), gte(members.credits, amount)))
    .returning({ credits: members.credits })
  if (!row) return null
  await tx
    .insert(creditLedger)
    .values({ memberId, delta: -amount, reason, reference, balanceAfter: row.credits })
  return row.credits
}

/** Adds `amount` credits (a purchase, a bonus, a refund); the new balance. */
export async function credit(
  tx: Db,
  memberId: number,
  amount: number,
  reason: LedgerReason,
  reference: string,
): Promise<number> {
  const [row] = await tx
    .update(members)
    .set({ credits: sql`${members.credits} + ${amount}` })
    .where(eq(members.id, memberId))
    .returning({ credits: members.credits })
  if (!row) throw new Error(`credit: no member ${memberId}`)
  await tx
    .insert(creditLedger)
    .values({ memberId, delta: amount, reason, reference, balanceAfter: row.credits })
  return row.credits
}

/**
 * Sets the balance to zero through an adjustment row (the developer panel's
 * "set credits to zero", spec §2); the new balance, 0.
 */
export async function zeroCredits(db: Db, memberId: number, reference: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [me] = await tx
      .select({ credits: members.credits })
      .from(members)
      .where(eq(members.id, memberId))
      .for('update')
    if (me && me.credits > 0) await debit(tx, memberId, me.credits, 'adjustment', reference)
    return 0
  })
}

export async function balanceOf(db: Db, memberId: number): Promise<number> {
  const [row] = await db
    .select({ credits: members.credits })
    .from(members)
    .where(eq(members.id, memberId))
  return row?.credits ?? 0
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

/** Read again at most this often: an operator's change applies within seconds, without a read per send. */
const COST_TTL_MS = 5_000
const costCache = new WeakMap<Db, { at: number; value: number }>()

/** The operator's price of a message in credits (site_settings `message_cost_credits`). */
export async function messageCost(db: Db): Promise<number> {
  const hit = costCache.get(db)
  if (hit && Date.now() - hit.at < COST_TTL_MS) return hit.value
  const value = await readMessageCost(db)
  costCache.set(db, { at: Date.now(), value })
  return value
}

/** Drops the cached cost, so an operator's change applies on this server's next send. */
export function forgetMessageCost(db: Db): void {
  costCache.delete(db)
}

async function readMessageCost(db: Db): Promise<number> {
  const [row] = await db
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(eq(siteSettings.key, 'message_cost_credits'))
  const value = row?.value
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : DEFAULT_MESSAGE_COST
}
