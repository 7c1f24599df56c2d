// The one refund path: a refund at the payment provider of (part of) a paid
// order, then the provider's new state applied through settle (the unspent
// credits go back through the ledger, never below zero). The console's refunds
// (api/operator/members.ts) and a member's withdrawal (withdrawal.ts) both use
// it. Each caller claims its refund once through its idempotency record
// (api/http/idempotency.ts beginOnce: the staff member's client id, or the
// member's withdrawal) before it calls this; here the refund's row
// (staff_refunds, keyed on that client id, with the amount) is written under
// the order's row lock, so concurrent refunds never refund more than was
// paid; a refund the provider refuses deletes the row again.
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { orders, staffRefunds } from '../../db/schema/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import type { PaymentProvider } from './provider.ts'
import { settlePayment } from './settle.ts'

export interface RefundDeps {
  provider: PaymentProvider
  /** The site's origin, for settle's receipt links. */
  base: string
}

export interface RefundClaim {
  orderId: number
  /** The client id the caller claimed (beginOnce): the refund row's key. */
  clientId: string
  /** Minor units of the order's currency. */
  amount: number
  /** The staff member who refunds; null for the member's own withdrawal. */
  staffId: number | null
}

/** What was refunded of an order through this path so far, minor units. */
export async function refundedOf(db: Db, orderId: number): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${staffRefunds.amount}), 0)` })
    .from(staffRefunds)
    .where(eq(staffRefunds.orderId, orderId))
  return Number(row?.sum ?? 0)
}

/** What was refunded through this path of each order of a member, minor units by order id. */
export async function refundedByOrder(db: Db, memberId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({
      orderId: staffRefunds.orderId,
      sum: sql<string>`sum(${staffRefunds.amount})`,
    })
    .from(staffRefunds)
    .innerJoin(orders, eq(orders.id, staffRefunds.orderId))
    .where(eq(orders.memberId, memberId))
    .groupBy(staffRefunds.orderId)
  return new Map(rows.map((r) => [r.orderId, Number(r.sum)]))
}

/**
 * Refunds `claim.amount` of the order at the provider, for a caller that has
 * claimed `claim.clientId` (beginOnce): that claim is the only one, so a
 * retry never gets here twice. `record` runs in the transaction that stores
 * the provider's refund id (the console's audit row, the withdrawal's
 * refunded time). Throws 422 not_refundable for an unpaid order, 422
 * refund_too_large beyond what is left, 503 when the provider refuses.
 */
export async function refundThroughProvider(
  db: Db,
  deps: RefundDeps,
  claim: RefundClaim,
  record?: (tx: Db, refundId: string) => Promise<void>,
): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, claim.orderId))
  if (!order) throw notFound()
  if (!order.grantedAt || !order.paymentId || order.provider !== deps.provider.name)
    throw new ApiFailure(422, 'not_refundable', 'order_id', 'the order was not paid')
  const paymentId = order.paymentId
  // What the provider says is left also counts refunds made elsewhere (its dashboard).
  const payment = await deps.provider.getPayment(paymentId)
  const left = payment.amount - payment.refunded - payment.chargedBack
  await db.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, order.id)).for('update')
    const ours = await refundedOf(tx, order.id)
    if (claim.amount > Math.min(left, order.amount - ours))
      throw new ApiFailure(422, 'refund_too_large', 'amount', 'more than is left to refund')
    const stored = await tx
      .insert(staffRefunds)
      .values({
        clientId: claim.clientId,
        orderId: order.id,
        staffId: claim.staffId,
        amount: claim.amount,
      })
      .onConflictDoNothing()
      .returning({ clientId: staffRefunds.clientId })
    // The key is one caller's claim; another actor's refund under the same id is refused.
    if (stored.length === 0)
      throw new ApiFailure(422, 'client_id_reused', 'client_id', 'this id named another refund')
  })
  let refundId: string
  try {
    refundId = (
      await deps.provider.refund(paymentId, claim.amount, `Refund of order ${order.publicId}`)
    ).id
  } catch (e) {
    await db.delete(staffRefunds).where(eq(staffRefunds.clientId, claim.clientId))
    console.error('refund: the provider refused', e)
    throw new ApiFailure(503, 'provider_unavailable')
  }
  await db.transaction(async (tx) => {
    await tx
      .update(staffRefunds)
      .set({ providerRefundId: refundId })
      .where(eq(staffRefunds.clientId, claim.clientId))
    await record?.(tx, refundId)
  })
  try {
    await settlePayment(db, { provider: deps.provider, base: deps.base }, paymentId)
  } catch (e) {
    // The refund stands at the provider; its webhook or the reconcile job applies it.
    console.error('refund: settling after the refund failed', e)
  }
}
