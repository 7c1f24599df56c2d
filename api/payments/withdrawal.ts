// The withdrawal function (CRD Art. 11a): a member withdraws from a purchase
// of credits within 14 days of paying, signed in (their purchases) or, without
// a session, by e-mail address and order number, confirmed through a link
// mailed to the order's address (the answer is the same whether or not the
// two match anything). The withdrawal is stored once per order (a second
// request changes nothing) with an acknowledgement mail stating its date and
// time, in the member's language, and a refund job in the same transaction.
//
// The refund: with the checkout's consent (CRD Art. 16(m), orders'
// withdrawal_consent_at) only the unused credits of the purchase, as a share of
// its price (rules/payments.ts withdrawalRefund); unused means what the
// purchase granted, less what was taken back before, and at most the member's
// balance. Those credits are taken from the balance (through the ledger, reason
// refund, reference withdrawal:<id>) in the withdrawal's own transaction with
// the member's row locked, so any set of withdrawals, at once or one after
// another, refunds at most the money of the credits never spent. The job claims the refund once through the member's
// idempotency record (api/http/idempotency.ts beginOnce: the withdrawal's
// refund client id, kind payments.withdrawal_refund:<withdrawal>), refunds
// through the console's refund path (refunds.ts) and pays out only what was
// taken; settle's reversal then finds those credits taken already. A refund
// the provider never accepts (the job's attempts run out) leaves the credits
// taken and the job in the console's failed jobs, for staff to refund by hand.
import { randomBytes, randomUUID } from 'node:crypto'
import { and, desc, eq, gt, inArray } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { orders, withdrawalLinks, withdrawals } from '../../db/schema/index.ts'
import type { Purchase, Withdrawal, WithdrawResponse } from '../contract/index.ts'
import {
  type TransactionStatus,
  WITHDRAWAL_PERIOD_MS,
  withdrawalRefund,
} from '../contract/rules/payments.ts'
import { debit } from '../credits/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { abandonOnce, beginOnce, finishOnce } from '../http/idempotency.ts'
import { enqueue, RetryAfter } from '../jobs/queue.ts'
import { storeMail } from '../mail/mailer.ts'
import { lockedMemberFields, memberFields } from '../shared/members.ts'
import { hashToken } from '../shared/tokens.ts'
import type { OrderRow } from './orders.ts'
import { type RefundDeps, refundedOf, refundThroughProvider } from './refunds.ts'
import { money, siteName } from './settle.ts'

/** The job that refunds a withdrawal's unused credits at the provider. */
export const WITHDRAWAL_REFUND = 'payments.withdrawal_refund'
/** A mailed confirmation link works this long. */
export const WITHDRAWAL_LINK_MS = 24 * 60 * 60_000
/** The purchases the page lists (the period is 14 days: the newest are the ones that count). */
const PURCHASE_ROWS = 50

type WithdrawalRow = typeof withdrawals.$inferSelect

const periodEnd = (o: OrderRow) =>
  new Date((o.grantedAt ?? o.createdAt).getTime() + WITHDRAWAL_PERIOD_MS)

const toWithdrawal = (w: WithdrawalRow, o: OrderRow): Withdrawal => ({
  order: o.publicId,
  withdrawn_at: w.createdAt.toISOString(),
  unused_credits: w.unusedCredits,
  refund_amount: w.refundAmount,
  currency: o.currency,
  refunded: w.refundedAt !== null,
})

const toPurchase = (o: OrderRow, w: WithdrawalRow | undefined, now: Date): Purchase => ({
  id: o.publicId,
  package: o.packageId,
  amount: o.amount,
  currency: o.currency,
  credits: o.credits,
  status: o.status as TransactionStatus,
  created_at: o.createdAt.toISOString(),
  withdraw_until: periodEnd(o).toISOString(),
  withdrawable: !w && refusal(o, now) === null,
  consent: o.withdrawalConsentAt !== null,
  withdrawal: w ? toWithdrawal(w, o) : null,
})

/** Why this order cannot be withdrawn from now, or null. */
function refusal(o: OrderRow, now: Date): ApiFailure | null {
  if (!o.grantedAt || o.status !== 'paid')
    return new ApiFailure(
      409,
      'not_withdrawable',
      'order',
      'this purchase is not paid or was refunded',
    )
  if (now.getTime() > periodEnd(o).getTime())
    return new ApiFailure(409, 'withdrawal_period_over', 'order', 'the 14 days have passed')
  return null
}

/** GET /api/withdrawals.php: the member's paid purchases with their withdrawal state. */
export async function purchasesOf(db: Db, memberId: number, now: Date): Promise<Purchase[]> {
  const rows = await db
    .select()
    .from(orders)
    .leftJoin(withdrawals, eq(withdrawals.orderId, orders.id))
    .where(
      and(
        eq(orders.memberId, memberId),
        inArray(orders.status, ['paid', 'refunded', 'charged_back']),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(PURCHASE_ROWS)
  return rows.map((r) => toPurchase(r.orders, r.withdrawals ?? undefined, now))
}

/** The member's own order of this public id; 404 for anyone else's (as for none). */
export async function ownOrder(db: Db, memberId: number, publicId: string): Promise<OrderRow> {
  const [o] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.publicId, publicId), eq(orders.memberId, memberId)))
  if (!o) throw notFound()
  return o
}

export interface WithdrawalDeps {
  /** The site's origin, for the mail's link. */
  base: string
  jobs?: { poke(): void } | undefined
}

/**
 * Withdraws from the order: once. A withdrawal made before is answered as it
 * is (applied false); a purchase unpaid, refunded or past its period is 409.
 */
export async function withdraw(
  db: Db,
  deps: WithdrawalDeps,
  order: OrderRow,
  via: 'member' | 'link',
  now: Date,
): Promise<WithdrawResponse> {
  const site = await siteName(db)
  const result = await db.transaction(async (tx) => {
    // The order's row lock orders two requests: the second finds the first's row.
    const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update')
    if (!o) throw notFound()
    const [prior] = await tx.select().from(withdrawals).where(eq(withdrawals.orderId, o.id))
    if (prior) return { withdrawal: toWithdrawal(prior, o), applied: false }
    const refused = refusal(o, now)
    if (refused) throw refused
    const me = await lockedMemberFields(tx, o.memberId, ['credits', 'email', 'name', 'language'])
    if (!me) throw notFound()
    const unused = Math.max(0, Math.min(o.credits - o.reversedCredits, me.credits))
    const due = withdrawalRefund(o.amount, o.credits, unused, o.withdrawalConsentAt !== null)
    const refundAmount = Math.max(0, Math.min(due, o.amount - (await refundedOf(tx, o.id))))
    const [row] = await tx
      .insert(withdrawals)
      .values({
        orderId: o.id,
        memberId: o.memberId,
        via,
        unusedCredits: unused,
        refundAmount,
        refundClientId: refundAmount > 0 ? randomUUID() : null,
        createdAt: now,
      })
      .returning()
    if (!row) throw new Error('withdrawal not stored')
    // The unused credits leave the balance here, under the member's row lock,
    // so the next withdrawal (concurrent or later) sees what is left; the
    // refund job only pays out what was taken, and settle's reversal finds
    // them taken already (reversed_credits).
    if (unused > 0) {
      const left = await debit(tx, o.memberId, unused, 'refund', `withdrawal:${row.id}`)
      if (left === null) throw new Error('withdrawal: balance moved under the row lock')
      await tx
        .update(orders)
        .set({ reversedCredits: o.reversedCredits + unused, updatedAt: now })
        .where(eq(orders.id, o.id))
    }
    await tx.delete(withdrawalLinks).where(eq(withdrawalLinks.orderId, o.id))
    if (refundAmount > 0)
      await enqueue(tx, {
        kind: WITHDRAWAL_REFUND,
        payload: { withdrawal: row.id },
        key: `${WITHDRAWAL_REFUND}:${row.id}`,
        maxAttempts: 20,
      })
    await storeMail(tx, {
      memberId: o.memberId,
      kind: 'withdrawal',
      to: me.email,
      locale: me.language,
      vars: {
        name: me.name,
        site,
        link: `${deps.base}/withdraw`,
        withdrawal: {
          order: o.publicId,
          at: dateTime(now, me.language),
          refund: money(refundAmount, o.currency, me.language),
          credits: unused,
        },
      },
    })
    return { withdrawal: toWithdrawal(row, o), applied: true }
  })
  if (result.applied) {
    deps.jobs?.poke()
    await notifyMembers(db, [order.memberId], { type: 'credits' }).catch(() => undefined)
  }
  return result
}

/** Date and time as the member reads them, with the zone named (UTC: the same for everyone). */
export const dateTime = (at: Date, locale: string) => {
  try {
    return new Intl.DateTimeFormat(locale, {
      dateStyle: 'long',
      timeStyle: 'long',
      timeZone: 'UTC',
    }).format(at)
  } catch {
    return at.toISOString()
  }
}

/**
 * POST /api/withdrawal_link.php: when the address is the order's member's,
 * a confirmation link goes to it; else nothing happens. Either way the
 * caller learns nothing (the route answers the same).
 */
export async function mailWithdrawalLink(
  db: Db,
  base: string,
  email: string,
  publicId: string,
  now: Date,
): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.publicId, publicId))
  const member = order
    ? await memberFields(db, order.memberId, ['id', 'email', 'name', 'language', 'deletedAt'])
    : undefined
  if (!order || !member || member.email.toLowerCase() !== email.toLowerCase()) return
  if (member.deletedAt) return
  const row = { order, member }
  const token = randomBytes(24).toString('base64url')
  const site = await siteName(db)
  await db.transaction(async (tx) => {
    await tx.insert(withdrawalLinks).values({
      tokenHash: hashToken(token),
      orderId: row.order.id,
      expiresAt: new Date(now.getTime() + WITHDRAWAL_LINK_MS),
    })
    await storeMail(tx, {
      memberId: row.member.id,
      kind: 'withdrawal_link',
      to: row.member.email,
      locale: row.member.language,
      vars: {
        name: row.member.name,
        site,
        link: `${base}/withdraw?token=${token}`,
        withdrawal: {
          order: row.order.publicId,
          at: dateTime(now, row.member.language),
          refund: '',
          credits: 0,
        },
      },
    })
  })
}

/** The order of a valid (unexpired) confirmation link; 404 otherwise. */
export async function orderOfLink(db: Db, token: string, now: Date): Promise<OrderRow> {
  const [row] = await db
    .select({ order: orders })
    .from(withdrawalLinks)
    .innerJoin(orders, eq(orders.id, withdrawalLinks.orderId))
    .where(and(eq(withdrawalLinks.tokenHash, hashToken(token)), gt(withdrawalLinks.expiresAt, now)))
  if (!row) throw notFound()
  return row.order
}

/** The purchase of an order (the link's page). */
export async function purchaseOf(db: Db, o: OrderRow, now: Date): Promise<Purchase> {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.orderId, o.id))
  return toPurchase(o, w, now)
}

/** The answer stored in the withdrawal refund's action record: the provider's refund id. */
const Refunded = z.object({ refund: z.string() })

/**
 * The refund job: refunds the withdrawal's amount once, through the console's
 * refund path. The claim is the member's action record of the refund (one
 * per withdrawal), as the console's is the staff member's: a second run
 * finds it and refunds nothing.
 */
export const withdrawalJobs = (db: Db, deps: () => RefundDeps) => ({
  [WITHDRAWAL_REFUND]: async (payload: unknown) => {
    const id = (payload as { withdrawal?: unknown }).withdrawal
    if (typeof id !== 'number') throw new Error(`${WITHDRAWAL_REFUND} without withdrawal`)
    const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id))
    if (!w?.refundClientId || w.refundedAt || w.refundAmount <= 0) return
    const key = {
      memberId: w.memberId,
      clientId: w.refundClientId,
      kind: `${WITHDRAWAL_REFUND}:${w.id}`,
    }
    const begun = await beginOnce(db, key, Refunded, async () => undefined).catch((e: unknown) => {
      // Another run holds the claim and is still at the provider: try again later.
      if (e instanceof ApiFailure && e.code === 'action_in_progress')
        throw new RetryAfter(60_000, 'refund under way')
      throw e
    })
    if ('replay' in begun) return
    try {
      await refundThroughProvider(
        db,
        deps(),
        { orderId: w.orderId, clientId: w.refundClientId, amount: w.refundAmount, staffId: null },
        async (tx, refundId) => {
          await tx
            .update(withdrawals)
            .set({ refundedAt: new Date() })
            .where(eq(withdrawals.id, w.id))
          await finishOnce(tx, key, { refund: refundId })
        },
      )
    } catch (e) {
      await abandonOnce(db, key)
      throw e
    }
  },
})
