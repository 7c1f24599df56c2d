// The provider's word: the webhook (POST /api/payments/webhook.php, only the
// payment id) and the reconcile job both call `settlePayment`, which fetches
// the payment from the provider and applies it to its order:
// - paid: the credits are granted once, in ONE transaction with the ledger
//   row (reason purchase, reference payment:<id>, unique) and the order's
//   granted_at, set by a conditional UPDATE — any number of deliveries, at
//   once or one after another, grant once;
// - failed / canceled / expired: the order says so, nothing granted, and the
//   use of its discount code that the order reserved is given back (once:
//   `closeOrder` in api/payments/orders.ts);
// - refunded or charged back: the unspent credits go back through the ledger
//   (reason refund), never below a zero balance. The discount code's use is
//   NOT given back: the code did its work on a paid order (the member got its
//   bonus or price), and a refund must not turn into a fresh use of a one-use
//   code (buy with the welcome code, refund, buy with it again).
import { and, eq, isNull, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { orders } from '../../db/schema/index.ts'
import { credit, debit } from '../credits/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { countSettlement } from '../http/metrics.ts'
import { RetryAfter } from '../jobs/queue.ts'
import { storeMail } from '../mail/mailer.ts'
import { DEFAULT_SETTINGS, storedValue } from '../settings/index.ts'
import { lockedMemberFields, markPaidUser } from '../shared/members.ts'
import { reserveCodeUse } from './discounts.ts'
import { closeOrder, type OrderRow, PAYMENT_CHECK } from './orders.ts'
import type { PaymentProvider, ProviderPayment } from './provider.ts'

export interface SettleDeps {
  provider: PaymentProvider
  /** The site's origin, for the receipt mail's link. */
  base: string
}

export type SettleOutcome = 'unknown' | 'granted' | 'unchanged' | 'closed' | 'reversed'

const FINAL_FAILURES = new Set(['failed', 'canceled', 'expired'])

/** Applies the provider's state of payment `paymentId` to its order. */
export async function settlePayment(
  db: Db,
  deps: SettleDeps,
  paymentId: string,
): Promise<SettleOutcome> {
  const payment = await deps.provider.getPayment(paymentId)
  const order = await orderOf(db, payment)
  if (!order) return 'unknown'
  let outcome: SettleOutcome = 'unchanged'
  if (payment.status === 'paid') {
    if (!order.grantedAt && (await grant(db, deps, order))) outcome = 'granted'
    if (payment.refunded + payment.chargedBack > 0 && (await reverse(db, order.id, payment)))
      outcome = 'reversed'
  } else if (FINAL_FAILURES.has(payment.status)) {
    const status = payment.status as 'failed' | 'canceled' | 'expired'
    if (await closeOrder(db, order.id, status)) {
      outcome = 'closed'
      await notifyMembers(db, [order.memberId], { type: 'credits' }).catch(() => undefined)
    }
  }
  countSettlement(outcome, payment.status)
  return outcome
}

/** The order of a payment: by its id, else by the order id in its metadata (a webhook faster than our own update). */
async function orderOf(db: Db, payment: ProviderPayment): Promise<OrderRow | undefined> {
  const [byPayment] = await db.select().from(orders).where(eq(orders.paymentId, payment.id))
  if (byPayment) return byPayment
  if (!payment.orderId) return undefined
  const [linked] = await db
    .update(orders)
    .set({ paymentId: payment.id })
    .where(and(eq(orders.publicId, payment.orderId), isNull(orders.paymentId)))
    .returning()
  if (linked) return linked
  // Our own update stored the id between the two statements above: read it again,
  // else this delivery would be dropped and the credits wait for the reconcile job.
  const [late] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.publicId, payment.orderId), eq(orders.paymentId, payment.id)))
  return late
}

/** Grants an order's credits once; false when another delivery already did. */
async function grant(db: Db, deps: SettleDeps, order: OrderRow): Promise<boolean> {
  const site = await siteName(db)
  const granted = await db.transaction(async (tx) => {
    const pay = (also?: SQL) =>
      tx
        .update(orders)
        .set({ status: 'paid', grantedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(orders.id, order.id), isNull(orders.grantedAt), also))
        .returning()
    // A pending order still holds the use of its discount code, reserved with
    // the order: paying it counts nothing more.
    const [fromPending] = await pay(eq(orders.status, 'pending'))
    // Paid after we closed it (failed, canceled or expired, e.g. the provider
    // answered our create call too late): closing gave the use back, so it is
    // taken again. The member paid the price the code gave; if the last use
    // went to another order meanwhile, their credits are not taken away for it.
    const [reopened] = fromPending ? [] : await pay()
    const row = fromPending ?? reopened
    if (!row) return null
    if (reopened?.discountCode) await reserveCodeUse(tx, reopened.discountCode)
    const balance = await credit(
      tx,
      row.memberId,
      row.credits,
      'purchase',
      `payment:${row.paymentId}`,
    )
    // Spec §3 paid_user: the first paid order makes a paying member (§6: no webcam tiles).
    const me = await markPaidUser(tx, row.memberId)
    if (me)
      await storeMail(tx, {
        memberId: row.memberId,
        kind: 'receipt',
        to: me.email,
        locale: me.language,
        vars: {
          name: me.name,
          site,
          link: `${deps.base}/transactions/${row.publicId}`,
          receipt: {
            credits: row.credits,
            amount: money(row.amount, row.currency, me.language),
            balance,
            transaction: row.publicId,
          },
        },
      })
    return row
  })
  if (!granted) return false
  await notifyMembers(db, [granted.memberId], { type: 'credits' }).catch((e: unknown) =>
    console.error('payments: poke failed', e),
  )
  return true
}

/**
 * Takes back the credits of what was refunded or charged back so far, in
 * proportion to the amount, minus what was taken before; only what the
 * member still holds (spent credits bought messages that were sent).
 */
async function reverse(db: Db, orderId: number, payment: ProviderPayment): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    if (!o?.grantedAt) return false
    const back = Math.min(o.amount, payment.refunded + payment.chargedBack)
    const due = Math.min(o.credits, Math.ceil((o.credits * back) / o.amount))
    const status =
      payment.chargedBack > 0 ? 'charged_back' : back >= o.amount ? 'refunded' : o.status
    if (due <= o.reversedCredits && status === o.status) return false
    const me = await lockedMemberFields(tx, o.memberId, ['credits'])
    const take = Math.min(Math.max(0, due - o.reversedCredits), me?.credits ?? 0)
    if (take > 0) await debit(tx, o.memberId, take, 'refund', `refund:${o.paymentId}:${due}`)
    await tx
      .update(orders)
      .set({ reversedCredits: Math.max(due, o.reversedCredits), status, updatedAt: new Date() })
      .where(eq(orders.id, o.id))
    await notifyMembers(tx, [o.memberId], { type: 'credits' })
    return true
  })
}

/** The site's name for the receipt (settings `name`): one row, not the whole settings. */
export async function siteName(db: Db): Promise<string> {
  const value = await storedValue(db, 'name')
  return typeof value === 'string' ? value : DEFAULT_SETTINGS.name
}

/** Money as the member reads it: "€ 19,95" in Dutch, "zł 89.99" becomes "89,99 zł" in Polish. */
export const money = (minor: number, currency: string, locale: string) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100)

/** The reconcile job's handler: settle an order still pending; retry while the provider says open. */
export const paymentJobs = (db: Db, deps: () => SettleDeps) => ({
  [PAYMENT_CHECK]: async (payload: unknown) => {
    const id = (payload as { order?: unknown }).order
    if (typeof id !== 'string') throw new Error(`${PAYMENT_CHECK} without order`)
    const [o] = await db.select().from(orders).where(eq(orders.publicId, id))
    if (o?.status !== 'pending') return
    if (o.paymentId) await settlePayment(db, deps(), o.paymentId)
    // Never reached the provider (a crash between our insert and its answer):
    // nobody can pay it, so it expires and gives back its code's use.
    else await closeOrder(db, o.id, 'expired', isNull(orders.paymentId))
    const [after] = await db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, o.id))
    // Mollie expires an open payment within a day at most: ask again until then.
    if (after?.status === 'pending') throw new RetryAfter(60 * 60_000, 'payment still open')
  },
})
