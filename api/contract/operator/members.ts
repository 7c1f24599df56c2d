// Console endpoints of the members part: find a member, their page (account,
// profile, sign-up source, sessions, transactions, ledger), end a session,
// adjust credits, refund an order, export a member's data and delete an
// account on request. Every action carries the staff member's reason and is
// written to the audit log; money actions carry the form's client id, so a
// double click or a retry applies once (see api/contract/operator/staff.ts
// for the rules every console endpoint follows).
import { z } from 'zod'
import { Id } from '../common.ts'

const reason = z.string().trim().min(1).max(500)

export const MemberSearchQuery = z.object({
  /** An email (or part), a name (or part), or a member id. */
  q: z.string().trim().min(1).max(254),
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(1000).optional(),
})

export const MemberSummary = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  country: z.string(),
  signup_date: z.string(),
  credits: z.number().int(),
  paid_user: z.boolean(),
  fictional: z.boolean(),
  deleted: z.boolean(),
})
export type MemberSummary = z.infer<typeof MemberSummary>

export const MemberSearchResponse = z.object({
  members: z.array(MemberSummary),
  page: z.number().int(),
  /** Whether a next page exists. */
  more: z.boolean(),
})
export type MemberSearchResponse = z.infer<typeof MemberSearchResponse>

export const MemberQuery = z.object({ id: Id })

export const MemberSessionEntry = z.object({
  id: z.number().int(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
})

export const MemberOrderEntry = z.object({
  id: z.number().int(),
  public_id: z.string(),
  status: z.string(),
  package: z.string(),
  method: z.string(),
  currency: z.string(),
  amount: z.number().int(),
  credits: z.number().int(),
  reversed_credits: z.number().int(),
  /** Minor units refunded through the console so far. */
  refunded: z.number().int(),
  provider: z.string(),
  payment_id: z.string().nullable(),
  created_at: z.string(),
})
export type MemberOrderEntry = z.infer<typeof MemberOrderEntry>

export const LedgerEntry = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  reason: z.string(),
  reference: z.string().nullable(),
  balance_after: z.number().int(),
  created_at: z.string(),
})
export type LedgerEntry = z.infer<typeof LedgerEntry>

export const MemberDetail = z.object({
  account: MemberSummary.extend({
    activated_at: z.string().nullable(),
    deleted_at: z.string().nullable(),
    language: z.string(),
    last_active_at: z.string(),
  }),
  profile: z.object({
    gender: z.string(),
    date_of_birth: z.string(),
    countryregion: z.string().nullable(),
    city: z.string().nullable(),
    personal: z.string().nullable(),
    profile_fields: z.record(z.string(), z.string()),
    notes: z.record(z.string(), z.string()),
    photos: z.number().int(),
  }),
  signup: z.object({
    trafficsource: z.unknown(),
    signup_meta: z.unknown(),
  }),
  sessions: z.array(MemberSessionEntry),
  orders: z.array(MemberOrderEntry),
  /** Newest first, the latest 200. */
  ledger: z.array(LedgerEntry),
  /** The sum of every ledger delta: equals the balance. */
  ledger_sum: z.number().int(),
})
export type MemberDetail = z.infer<typeof MemberDetail>

export const EndMemberSessionRequest = z.object({
  member_id: Id,
  session_id: Id,
  reason,
})

export const CreditAdjustRequest = z.object({
  member_id: Id,
  /** The console form's id: the same id applies once, whatever the number of requests. */
  client_id: z.uuid(),
  /** Credits to add (positive) or deduct (negative); never 0. */
  delta: z
    .number()
    .int()
    .min(-1_000_000)
    .max(1_000_000)
    .refine((n) => n !== 0, 'not zero'),
  reason,
})
export const CreditAdjustResponse = z.object({
  balance: z.number().int(),
  /** False when this client id had been applied before (nothing changed now). */
  applied: z.boolean(),
})
export type CreditAdjustResponse = z.infer<typeof CreditAdjustResponse>

export const RefundRequest = z.object({
  /** The order's id (MemberOrderEntry.id). */
  order_id: Id,
  client_id: z.uuid(),
  /** Minor units of the order's currency. */
  amount: z.number().int().min(1).max(100_000_000),
  reason,
})
export const RefundResponse = z.object({
  order: MemberOrderEntry,
  balance: z.number().int(),
  applied: z.boolean(),
})
export type RefundResponse = z.infer<typeof RefundResponse>

export const MemberDeleteRequest = z.object({ member_id: Id, reason })
export const DoneResponse = z.object({ status: z.literal('done') })

/** GET with `reason` in the query: an export is a staff action and is audited with its reason. */
export const MemberExportQuery = z.object({ id: Id, reason })

export const membersEndpoints = {
  operatorMembers: {
    method: 'GET',
    path: '/api/operator/members.php',
    query: MemberSearchQuery,
    response: MemberSearchResponse,
    capability: 'members.view',
  },
  operatorMember: {
    method: 'GET',
    path: '/api/operator/member.php',
    query: MemberQuery,
    response: MemberDetail,
    capability: 'members.view',
  },
  operatorEndMemberSession: {
    method: 'POST',
    path: '/api/operator/member_session_end.php',
    body: EndMemberSessionRequest,
    response: DoneResponse,
    capability: 'members.sessions',
  },
  operatorCreditAdjust: {
    method: 'POST',
    path: '/api/operator/credit_adjust.php',
    body: CreditAdjustRequest,
    response: CreditAdjustResponse,
    capability: 'credits.adjust',
  },
  operatorRefund: {
    method: 'POST',
    path: '/api/operator/refund.php',
    body: RefundRequest,
    response: RefundResponse,
    capability: 'payments.refund',
  },
  /** A machine-readable JSON file of what the site holds about the member (GDPR Art. 15/20). */
  operatorMemberExport: {
    method: 'GET',
    path: '/api/operator/member_export.php',
    query: MemberExportQuery,
    response: z.record(z.string(), z.unknown()),
    capability: 'members.data',
  },
  operatorMemberDelete: {
    method: 'POST',
    path: '/api/operator/member_delete.php',
    body: MemberDeleteRequest,
    response: DoneResponse,
    capability: 'members.data',
  },
} as const
