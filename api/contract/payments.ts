// Buying credits (spec §2 /credits, /transactions, /pricing; §3 discount
// codes; §7 GET /api/discountcode.php): packages, orders, transactions, the
// credits history and the provider's webhook.
import { z } from 'zod'
import { Email } from './account.ts'
import { ClientId } from './likes.ts'
import { CURRENCIES, PAYMENT_METHODS, TRANSACTION_STATUSES } from './rules/payments.ts'

const Country = z
  .string()
  .regex(/^[A-Z]{2}$/, 'a two-letter country code')
  .optional()

/** A discount code as members type it: letters, digits and dashes, any case. */
const Code = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and dashes')
  .transform((s) => s.toUpperCase())

export const Package = z.object({
  id: z.string(),
  credits: z.number().int(),
  bonus: z.number().int(),
  /** Minor units (cents, grosze) of `currency`. */
  price: z.number().int(),
  /** What one message costs at this package, minor units. */
  message_price: z.number().int(),
  featured: z.boolean(),
})
export type Package = z.infer<typeof Package>

/** GET /api/packages.php: the member's country, or a guest's (?country=, else geo-IP). */
export const PackagesQuery = z.object({ country: Country })
export const PackagesResponse = z.object({
  country: z.string(),
  currency: z.enum(CURRENCIES),
  message_cost: z.number().int(),
  packages: z.array(Package),
  methods: z.array(z.enum(PAYMENT_METHODS)),
})
export type PackagesResponse = z.infer<typeof PackagesResponse>

export const DiscountKind = z.enum(['normal', 'welcome', 'time_bonus'])
export const Discount = z.object({
  code: z.string(),
  kind: DiscountKind,
  /** Extra credits in percent of the package's, or null. */
  bonus_percent: z.number().int().nullable(),
  /** Percent off the price, or null. */
  percent_off: z.number().int().nullable(),
  /** ISO time the code ends, or null for none. */
  ends_at: z.string().nullable(),
})
export type Discount = z.infer<typeof Discount>

/** GET /api/discountcode.php: a code (?code=), the welcome one (?welcome=true), the account deletion offer (?reason=delete), else the active one. */
export const DiscountQuery = z.object({
  code: Code.optional(),
  welcome: z.enum(['true', '1']).optional(),
  reason: z.literal('delete').optional(),
})
export const DiscountResponse = z.object({ discount: Discount.nullable() })
export type DiscountResponse = z.infer<typeof DiscountResponse>

/**
 * The checkout's box (CRD Art. 16(m)): the member's express consent to the
 * immediate use of the credits and the acknowledgement that the right of
 * withdrawal ends for the credits used. Without it there is no order.
 */
const WithdrawalConsent = z.literal(true, {
  error: 'agree to immediate use and to losing the right of withdrawal for used credits',
})

export const OrderRequest = z.object({
  package: z.string().min(1).max(40),
  method: z.enum(PAYMENT_METHODS),
  discount_code: Code.optional(),
  client_id: ClientId,
  withdrawal_consent: WithdrawalConsent,
})
export type OrderRequest = z.input<typeof OrderRequest>

/** POST /api/orders.php?repeat=1: the last paid package again. */
export const RepeatOrderRequest = z.object({
  client_id: ClientId,
  withdrawal_consent: WithdrawalConsent,
})

export const TransactionId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'a transaction id')

export const Transaction = z.object({
  id: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  package: z.string(),
  method: z.string(),
  currency: z.string(),
  amount: z.number().int(),
  /** Credits the order grants (package, bonus and code bonus). */
  credits: z.number().int(),
  /** Credits actually added to the balance so far (0 until paid). */
  credits_added: z.number().int(),
  created_at: z.string(),
})
export type Transaction = z.infer<typeof Transaction>

export const OrderResponse = z.object({
  transaction: Transaction,
  /** Where the member pays; null when a mandate paid it without a checkout. */
  checkout_url: z.string().nullable(),
})
export type OrderResponse = z.infer<typeof OrderResponse>

export const TransactionQuery = z.object({ id: TransactionId })

/** One ledger row as the member sees it: a purchase, a spend, a refund. */
export const CreditEntry = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  reason: z.string(),
  balance_after: z.number().int(),
  at: z.string(),
  /** A purchase's order (its public id), for the withdrawal link; absent on other rows. */
  order: z.string().optional(),
})
export const CreditHistoryResponse = z.object({
  entries: z.array(CreditEntry),
  /** The last paid order's package and method (what repeat-order buys), or null. */
  last_order: z.object({ package: z.string(), method: z.string() }).nullable(),
})
export type CreditHistoryResponse = z.infer<typeof CreditHistoryResponse>

/** The provider's webhook carries only the payment id, form-encoded (`id=tr_…`), as Mollie sends it. */
export const WebhookForm = z.object({
  id: z.string().regex(/^[A-Za-z0-9_]{3,64}$/, 'a payment id'),
})
export const LocalCheckoutQuery = z.object({ id: z.string().regex(/^tr_[A-Za-z0-9]{8,40}$/) })
export const LocalCheckoutForm = z.object({
  id: z.string().regex(/^tr_[A-Za-z0-9]{8,40}$/),
  action: z.enum(['paid', 'failed', 'canceled', 'later']),
})

/** A member's withdrawal from a purchase (CRD Art. 11a), as recorded. */
export const Withdrawal = z.object({
  /** The order's public id (the order number of the receipt). */
  order: z.string(),
  withdrawn_at: z.string(),
  /** Credits of the purchase still unused when the member withdrew. */
  unused_credits: z.number().int(),
  /** What is refunded, minor units of `currency` (0: nothing to refund). */
  refund_amount: z.number().int(),
  currency: z.string(),
  /** The provider has taken the refund. */
  refunded: z.boolean(),
})
export type Withdrawal = z.infer<typeof Withdrawal>

/** One purchase as the withdrawal page lists it. */
export const Purchase = z.object({
  id: z.string(),
  package: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  credits: z.number().int(),
  status: z.enum(TRANSACTION_STATUSES),
  created_at: z.string(),
  /** The last moment of the withdrawal period. */
  withdraw_until: z.string(),
  /** Open to withdrawal now (paid, within the period, not withdrawn). */
  withdrawable: z.boolean(),
  /** The member consented at checkout to immediate use (CRD Art. 16(m)). */
  consent: z.boolean(),
  withdrawal: Withdrawal.nullable(),
})
export type Purchase = z.infer<typeof Purchase>

/** GET /api/withdrawals.php: the member's purchases, newest first. */
export const PurchasesResponse = z.object({ purchases: z.array(Purchase) })
export type PurchasesResponse = z.infer<typeof PurchasesResponse>

/** POST /api/withdrawals.php: the signed-in member withdraws from one purchase. */
export const WithdrawRequest = z.object({ order: TransactionId })
/** The withdrawal; `applied` false when it had been made before (nothing changed). */
export const WithdrawResponse = z.object({ withdrawal: Withdrawal, applied: z.boolean() })
export type WithdrawResponse = z.infer<typeof WithdrawResponse>

/** POST /api/withdrawal_link.php: without a session, the order's address gets a confirmation link. */
export const WithdrawalLinkRequest = z.object({ email: Email, order: TransactionId })
/** The same answer whether or not the address and order match anything. */
export const WithdrawalLinkResponse = z.object({ sent: z.literal(true) })

/** The token of the mailed confirmation link. */
export const WithdrawalToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'a link token')
/** GET /api/withdrawal_link.php?token=: the purchase the link is for. */
export const WithdrawalLinkQuery = z.object({ token: WithdrawalToken })
export const WithdrawalLinkPurchase = z.object({ purchase: Purchase })
/** POST /api/withdrawal_confirm.php: the withdrawal confirmed through the mailed link. */
export const WithdrawalConfirmRequest = z.object({ token: WithdrawalToken })
