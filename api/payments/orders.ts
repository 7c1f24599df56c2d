// Orders (POST /api/orders.php): a package, a method and perhaps a discount
// code become an order row (applied once per client id, like every member
// action: api/http/idempotency.ts) and a payment at the provider; the answer is the checkout URL.
// Amounts and credits are decided here from the package and the code, never
// from the client. Nothing is granted here: only the provider's word does
// that (api/payments/settle.ts).
//
// A discount code's use is reserved here, in the transaction of the order row
// (uses < max_uses, a conditional update), so two orders racing for the last
// use make one order and one 409 discount_used_up. The use is given back when
// the order closes unpaid (failed, canceled, expired: `closeOrder`, once, on
// the order's pending → closed update) and kept once it is paid, also if it
// is refunded or charged back later.
import { randomBytes } from 'node:crypto'
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { orders, paymentCustomers } from '../../db/schema/index.ts'
import { type CreditHistoryResponse, OrderResponse, type Transaction } from '../contract/index.ts'
import {
  bonusCredits,
  currencyOf,
  discounted,
  MANDATE_METHODS,
  methodsFor,
  type PaymentMethod,
} from '../contract/rules/payments.ts'
import { ledgerRows } from '../credits/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { abandonOnce, beginOnce, finishOnce, replayOf } from '../http/idempotency.ts'
import { enqueue } from '../jobs/queue.ts'
import { memberFields } from '../shared/members.ts'
import { checkCode, releaseCodeUse, reserveCodeUse } from './discounts.ts'
import { packageIn } from './packages.ts'
import type { PaymentProvider, SequenceType } from './provider.ts'

export type OrderRow = typeof orders.$inferSelect

/** The reconcile job: asks the provider about an order whose webhook may have been lost. */
export const PAYMENT_CHECK = 'payments.check'
/** First reconcile this long after the order; then with the queue's backoff. */
export const CHECK_AFTER_MS = 15 * 60_000

export interface OrderDeps {
  provider: PaymentProvider
  /** The site's public origin (PUBLIC_URL, else the request's): redirect and webhook URLs. */
  base: string
}

export interface OrderInput {
  package: string
  method: PaymentMethod
  discountCode?: string | undefined
  clientId: string
  /** A repeat order may charge the member's mandate without a checkout. */
  repeat?: boolean
  /** The checkout's CRD Art. 16(m) consent (the API refuses an order without it). */
  withdrawalConsent?: boolean
}

export const toTransaction = (o: OrderRow): Transaction => ({
  id: o.publicId,
  status: o.status as Transaction['status'],
  package: o.packageId,
  method: o.method,
  currency: o.currency,
  amount: o.amount,
  credits: o.credits,
  credits_added: o.grantedAt ? o.credits - o.reversedCredits : 0,
  created_at: o.createdAt.toISOString(),
})

const answerOf = (o: OrderRow): OrderResponse => ({
  transaction: toTransaction(o),
  checkout_url: o.checkoutUrl,
})

/** 128 random bits: the transaction page is public, so its address must not be guessable. */
const publicId = () => randomBytes(16).toString('base64url')

/**
 * The key of an order: the client id names one package, method and code, so
 * the id reused for another order is 422.
 */
const orderKey = (memberId: number, input: OrderInput) => ({
  memberId,
  clientId: input.clientId,
  kind: `order:${input.package}:${input.method}:${input.discountCode ?? ''}`,
})

/**
 * POST /api/orders.php: the order (201), or the first answer to a replay of
 * its client id (200). Applied once per client id (api/http/idempotency.ts
 * beginOnce): the id is claimed with the order row, the provider's payment is
 * made, and the answer stored; a replay meanwhile waits for that answer. A
 * provider that fails closes the order and gives the id back (503: the
 * client tries again with the same id).
 */
export async function createOrder(
  db: Db,
  deps: OrderDeps,
  memberId: number,
  input: OrderInput,
): Promise<{ created: boolean; answer: OrderResponse }> {
  const me = await memberFields(db, memberId, ['country', 'name', 'email'])
  if (!me) throw notFound()
  const key = orderKey(memberId, input)
  const prior = await replayOf(db, key, OrderResponse)
  if (prior) return { created: false, answer: prior }

  if (!methodsFor(me.country).includes(input.method))
    throw new ApiFailure(400, 'invalid_input', 'method', 'method: not offered in your country')
  const currency = currencyOf(me.country)
  const pkg = await packageIn(db, input.package, currency)
  if (!pkg) throw new ApiFailure(400, 'invalid_input', 'package', 'package: no such package')
  const code = input.discountCode ? await checkCode(db, memberId, input.discountCode) : null
  const base = pkg.credits + pkg.bonus
  const credits = base + (code?.bonusPercent ? bonusCredits(pkg.credits, code.bonusPercent) : 0)
  const amount = code?.percentOff ? discounted(pkg.price, code.percentOff) : pkg.price

  const mandateCapable = MANDATE_METHODS.includes(input.method)
  const customerId = mandateCapable ? await customerOf(db, deps.provider, memberId, me) : null
  const mandateId = input.repeat && customerId ? await deps.provider.validMandate(customerId) : null
  const sequenceType: SequenceType = mandateId ? 'recurring' : customerId ? 'first' : 'oneoff'

  const id = publicId()
  const begun = await beginOnce(db, key, OrderResponse, async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        publicId: id,
        memberId,
        clientId: input.clientId,
        packageId: pkg.id,
        method: input.method,
        currency,
        amount,
        credits,
        discountCode: code?.code ?? null,
        provider: deps.provider.name,
        sequenceType,
        withdrawalConsentAt: input.withdrawalConsent ? new Date() : null,
      })
      .returning()
    if (!row) throw new Error('orders: the insert returned no row')
    // The code's use, taken with the order or not at all: the loser of a race
    // for the last use rolls its order (and its claim of the id) back.
    if (row.discountCode && !(await reserveCodeUse(tx, row.discountCode)))
      throw new ApiFailure(409, 'discount_used_up', 'discount_code', 'this code has been used up')
    // A reconcile in case the webhook never comes (spec: credits are never lost).
    await enqueue(tx, {
      kind: PAYMENT_CHECK,
      payload: { order: row.publicId },
      runAt: new Date(Date.now() + CHECK_AFTER_MS),
      key: `${PAYMENT_CHECK}:${row.publicId}`,
      maxAttempts: 12,
    })
    return row
  })
  // The same client id raced us and won: its answer, as for any replay.
  if ('replay' in begun) return { created: false, answer: begun.replay }
  const inserted = begun.started

  try {
    const payment = await deps.provider.createPayment({
      amount,
      currency,
      description: `${credits} credits (${pkg.id})`,
      method: input.method,
      redirectUrl: `${deps.base}/transactions/${id}`,
      webhookUrl: `${deps.base}/api/payments/webhook.php`,
      orderId: id,
      sequenceType,
      ...(customerId ? { customerId } : {}),
      ...(mandateId ? { mandateId } : {}),
    })
    const answer = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(orders)
        .set({ paymentId: payment.id, checkoutUrl: payment.checkoutUrl, updatedAt: new Date() })
        .where(eq(orders.id, inserted.id))
        .returning()
      const first = answerOf(row ?? inserted)
      await finishOnce(tx, key, first)
      return first
    })
    return { created: true, answer }
  } catch (e) {
    console.error('payments: create failed', e)
    await closeOrder(db, inserted.id, 'failed')
    await abandonOnce(db, key)
    throw new ApiFailure(503, 'payment_provider_unavailable', undefined, 'try again in a moment')
  }
}

/**
 * Closes a pending order unpaid and gives back its code's use, in one
 * transaction. The conditional pending → closed update is the exactly-once
 * guard: a repeated webhook, a retried job or a racing grant finds the order
 * no longer pending and releases nothing. False when it was not pending (or
 * `also` did not hold).
 */
export async function closeOrder(
  db: Db,
  orderId: number,
  status: 'failed' | 'canceled' | 'expired',
  also?: SQL,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'), also))
      .returning({ discountCode: orders.discountCode })
    if (!row) return false
    if (row.discountCode) await releaseCodeUse(tx, row.discountCode)
    return true
  })
}

/** The member's customer at the provider (for mandates), made once. */
async function customerOf(
  db: Db,
  provider: PaymentProvider,
  memberId: number,
  me: { name: string; email: string },
): Promise<string | null> {
  const [known] = await db
    .select({ id: paymentCustomers.customerId })
    .from(paymentCustomers)
    .where(
      and(eq(paymentCustomers.memberId, memberId), eq(paymentCustomers.provider, provider.name)),
    )
  if (known) return known.id
  try {
    const id = await provider.createCustomer({ name: me.name, email: me.email })
    await db
      .insert(paymentCustomers)
      .values({ memberId, provider: provider.name, customerId: id })
      .onConflictDoNothing()
    const [row] = await db
      .select({ id: paymentCustomers.customerId })
      .from(paymentCustomers)
      .where(
        and(eq(paymentCustomers.memberId, memberId), eq(paymentCustomers.provider, provider.name)),
      )
    return row?.id ?? null
  } catch (e) {
    // Without a customer the order is a plain one-off payment: repeat orders use the checkout.
    console.error('payments: customer not created', e)
    return null
  }
}

/** The last paid order: what /credits/repeat-order buys again. */
export async function lastPaidOrder(db: Db, memberId: number) {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.memberId, memberId),
        inArray(orders.status, ['paid', 'refunded', 'charged_back']),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(1)
  return row
}

/** GET /api/transactions.php?id=: public, addressed by the unguessable id. */
export async function transactionOf(db: Db, id: string): Promise<Transaction> {
  const [row] = await db.select().from(orders).where(eq(orders.publicId, id))
  if (!row) throw notFound()
  return toTransaction(row)
}

/** The last 100 ledger rows shown on /credits. */
const HISTORY_ROWS = 100

/** GET /api/credit_history.php: purchases, spends and refunds with the balance after each. */
export async function creditHistory(db: Db, memberId: number): Promise<CreditHistoryResponse> {
  const [rows, last] = await Promise.all([
    ledgerRows(db, memberId, HISTORY_ROWS),
    lastPaidOrder(db, memberId),
  ])
  const orderOf = await purchaseOrders(db, memberId, rows)
  return {
    entries: rows.map((r) => {
      const order = orderOf.get(r.reference ?? '')
      return {
        id: r.id,
        delta: r.delta,
        reason: r.reason,
        balance_after: r.balanceAfter,
        at: r.createdAt.toISOString(),
        ...(order ? { order } : {}),
      }
    }),
    last_order: last ? { package: last.packageId, method: last.method } : null,
  }
}

/** The public ids of the orders behind purchase rows (reference `payment:<id>`), by reference. */
async function purchaseOrders(
  db: Db,
  memberId: number,
  rows: { reason: string; reference: string | null }[],
): Promise<Map<string, string>> {
  const payments = rows
    .filter((r) => r.reason === 'purchase' && r.reference?.startsWith('payment:'))
    .map((r) => (r.reference as string).slice('payment:'.length))
  if (payments.length === 0) return new Map()
  const found = await db
    .select({ paymentId: orders.paymentId, publicId: orders.publicId })
    .from(orders)
    .where(and(eq(orders.memberId, memberId), inArray(orders.paymentId, payments)))
  return new Map(found.map((o) => [`payment:${o.paymentId}`, o.publicId]))
}

/** The member who placed the order of this public id, or null (no such order). */
export async function orderMember(db: Db, publicId: string): Promise<number | null> {
  const [row] = await db
    .select({ memberId: orders.memberId })
    .from(orders)
    .where(eq(orders.publicId, publicId))
  return row?.memberId ?? null
}
