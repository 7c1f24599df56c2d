// The console's members and money: finding a member, their page, ending a
// session, credit adjustments, refunds through the payment provider and
// deletion on request. Every action writes its audit row inside the
// transaction of the action; money actions are applied once per client id of
// the console's form (api/http/idempotency.ts), so a double click or a retry
// applies once and gets the first answer.
import type { Db } from '../../db/client.ts'
import { deleteAccount, findMembers, type MemberRecord, memberRecord } from '../accounts/index.ts'
import {
  CreditAdjustResponse,
  type MemberDetail,
  type MemberOrderEntry,
  type MemberSearchResponse,
  type MemberSummary,
  RefundResponse,
} from '../contract/operator/members.ts'
import { balanceOf, credit, debit, ledgerRows, ledgerSum } from '../credits/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { abandonOnce, applyOnce, beginOnce, finishOnce, replayOf } from '../http/idempotency.ts'
import { photoCount } from '../images/index.ts'
import {
  memberOrders,
  type OrderRow,
  orderById,
  type RefundDeps,
  refundedByOrder,
  refundedOf,
  refundThroughProvider,
} from '../payments/index.ts'
import { deviceOf, endSessionOf, unexpiredSessions } from '../sessions/index.ts'
import { memberFields } from '../shared/members.ts'
import { audit } from './auth.ts'

export const MEMBER_PAGE = 20
/** The member page shows the newest ledger rows; the sum covers all of them. */
const LEDGER_ROWS = 200

const summary = (m: MemberRecord): MemberSummary => ({
  id: m.id,
  email: m.email,
  name: m.name,
  country: m.country,
  signup_date: m.signupDate.toISOString(),
  credits: m.credits,
  paid_user: m.paidUser,
  fictional: m.fictional,
  deleted: m.deletedAt !== null,
})

/** Members whose id is q, or whose email or name contains q; newest first. */
export async function searchMembers(db: Db, q: string, page = 1): Promise<MemberSearchResponse> {
  // An exact id or address first, then the newest members.
  const rows = await findMembers(db, q, MEMBER_PAGE + 1, (page - 1) * MEMBER_PAGE)
  return {
    members: rows.slice(0, MEMBER_PAGE).map(summary),
    page,
    more: rows.length > MEMBER_PAGE,
  }
}

const orderEntry = (o: OrderRow, refunded: number): MemberOrderEntry => ({
  id: o.id,
  public_id: o.publicId,
  status: o.status,
  package: o.packageId,
  method: o.method,
  currency: o.currency,
  amount: o.amount,
  credits: o.credits,
  reversed_credits: o.reversedCredits,
  refunded,
  provider: o.provider,
  payment_id: o.paymentId,
  created_at: o.createdAt.toISOString(),
})

/** Everything the member's page shows, or null for an unknown id. */
export async function memberDetail(db: Db, id: number, now: Date): Promise<MemberDetail | null> {
  const m = await memberRecord(db, id)
  if (!m) return null
  const photos = await photoCount(db, id)
  const sessionRows = await unexpiredSessions(db, id, now)
  const orderRows = await memberOrders(db, id, 100)
  const refundedBy = await refundedByOrder(db, id)
  const ledger = await ledgerRows(db, id, LEDGER_ROWS)
  return {
    account: {
      ...summary(m),
      activated_at: m.activatedAt?.toISOString() ?? null,
      deleted_at: m.deletedAt?.toISOString() ?? null,
      language: m.language,
      last_active_at: m.lastActiveAt.toISOString(),
    },
    profile: {
      gender: m.gender,
      date_of_birth: m.dateOfBirth,
      countryregion: m.countryregion,
      city: m.city,
      personal: m.personal,
      profile_fields: m.profileFields ?? {},
      notes: m.notes ?? {},
      photos,
    },
    signup: { trafficsource: m.trafficsource ?? null, signup_meta: m.signupMeta ?? null },
    sessions: sessionRows.map((s) => ({
      id: s.id,
      ...deviceOf(s.userAgent),
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
    })),
    orders: orderRows.map((o) => orderEntry(o, refundedBy.get(o.id) ?? 0)),
    ledger: ledger.map((l) => ({
      id: l.id,
      delta: l.delta,
      reason: l.reason,
      reference: l.reference,
      balance_after: l.balanceAfter,
      created_at: l.createdAt.toISOString(),
    })),
    ledger_sum: await ledgerSum(db, id),
  }
}

/** Ends one session of a member (the device is signed out at its next call); false if none. */
export async function endMemberSession(
  db: Db,
  staffId: number,
  input: { member_id: number; session_id: number; reason: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await endSessionOf(tx, input.member_id, input.session_id)
    if (!gone) return false
    await audit(tx, staffId, {
      action: 'member.session_end',
      targetType: 'member',
      targetId: input.member_id,
      reason: input.reason,
      details: { session: input.session_id, ...deviceOf(gone.userAgent) },
    })
    return true
  })
}

/**
 * Adds or takes credits with a reason: one ledger row `adjustment` whose
 * reference names the staff member, and the audit row, applied once per
 * client id of the console's form (api/http/idempotency.ts applyOnce): a
 * repeat gets the first answer with `applied: false`. A deduction beyond the
 * balance is refused (422 on `delta`) and changes nothing.
 */
export async function adjustCredits(
  db: Db,
  staffId: number,
  input: { member_id: number; client_id: string; delta: number; reason: string },
): Promise<CreditAdjustResponse> {
  const m = await memberFields(db, input.member_id, ['id'] as const)
  if (!m) throw notFound()
  const key = {
    staffId,
    clientId: input.client_id,
    kind: `credits.adjust:${input.member_id}:${input.delta}`,
  }
  const { answer, replay } = await applyOnce(db, key, CreditAdjustResponse, async (tx) => {
    const reference = `staff:${staffId}`
    const balance =
      input.delta > 0
        ? await credit(tx, input.member_id, input.delta, 'adjustment', reference)
        : await debit(tx, input.member_id, -input.delta, 'adjustment', reference)
    if (balance === null)
      throw new ApiFailure(422, 'insufficient_credits', 'delta', 'more than the balance')
    await audit(tx, staffId, {
      action: 'credits.adjust',
      targetType: 'member',
      targetId: input.member_id,
      reason: input.reason,
      details: { delta: input.delta, balance, client_id: input.client_id },
    })
    // The member's open app pulls its balance now (sent at commit).
    await notifyMembers(tx, [input.member_id], { type: 'credits' })
    return { balance, applied: true }
  })
  return replay ? { ...answer, applied: false } : answer
}

/**
 * Refunds (part of) an order from the console through the one refund path
 * (api/payments/refunds.ts: the refund row under the order's row lock, the
 * provider's refund, settle), audited in the transaction that stores the
 * provider's refund id. Applied once per client id of the console's form
 * (api/http/idempotency.ts beginOnce, the only claim): a repeat gets the first answer with
 * `applied: false`, a reused id 422, and a refund the provider refuses (or
 * one that is refused as too large) gives the id back.
 */
export async function refundOrder(
  db: Db,
  deps: RefundDeps,
  staffId: number,
  input: { order_id: number; client_id: string; amount: number; reason: string },
): Promise<RefundResponse> {
  const key = {
    staffId,
    clientId: input.client_id,
    kind: `payments.refund:${input.order_id}:${input.amount}`,
  }
  const repeated = (first: RefundResponse): RefundResponse => ({ ...first, applied: false })
  const order = await orderById(db, input.order_id)
  if (!order) throw notFound()
  const prior = await replayOf(db, key, RefundResponse)
  if (prior) return repeated(prior)
  const begun = await beginOnce(db, key, RefundResponse, async () => undefined)
  if ('replay' in begun) return repeated(begun.replay)
  try {
    const claim = { orderId: order.id, clientId: input.client_id, amount: input.amount, staffId }
    await refundThroughProvider(db, deps, claim, (tx, refundId) =>
      audit(tx, staffId, {
        action: 'payments.refund',
        targetType: 'member',
        targetId: order.memberId,
        reason: input.reason,
        details: {
          order: order.publicId,
          payment: order.paymentId,
          refund: refundId,
          amount: input.amount,
          currency: order.currency,
          client_id: input.client_id,
        },
      }),
    )
  } catch (e) {
    await abandonOnce(db, key)
    throw e
  }
  const now = await orderById(db, order.id)
  const answer: RefundResponse = {
    order: orderEntry(now ?? order, await refundedOf(db, order.id)),
    balance: await balanceOf(db, order.memberId),
    applied: true,
  }
  await finishOnce(db, key, answer)
  return answer
}

/**
 * Deletes an account on the member's request: the member's own deletion,
 * audited. The picture files to delete after the commit, or null for no such member.
 */
export async function deleteMemberOnRequest(
  db: Db,
  staffId: number,
  input: { member_id: number; reason: string },
): Promise<string[] | null> {
  const m = await memberFields(db, input.member_id, ['deletedAt'] as const)
  if (!m) return null
  return db.transaction(async (tx) => {
    const files = await deleteAccount(tx, input.member_id)
    await audit(tx, staffId, {
      action: 'member.delete',
      targetType: 'member',
      targetId: input.member_id,
      reason: input.reason,
      details: { already_deleted: m.deletedAt !== null, files: files.length },
    })
    return files
  })
}

/** Records a staff export of a member's data (the file itself is made by api/accounts/export.ts). */
export async function auditExport(
  db: Db,
  staffId: number,
  memberId: number,
  reason: string,
): Promise<void> {
  await audit(db, staffId, {
    action: 'member.export',
    targetType: 'member',
    targetId: memberId,
    reason,
  })
}
