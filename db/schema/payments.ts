// Buying credits: the packages on sale and their prices per currency (operator
// data, seeded by the migration), orders with their provider payment,
// discount codes, the provider's customer of a member (recurring payments),
// refunds through the provider, withdrawals, and the built-in local
// provider's own payments.
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'
import { staff } from './staff.ts'

/** A package of credits on sale; an operator edits the rows, no deploy needed. */
export const creditPackages = pgTable(
  'credit_packages',
  {
    id: text('id').primaryKey(),
    credits: integer('credits').notNull(),
    /** Extra credits the package always carries. */
    bonus: integer('bonus').notNull().default(0),
    position: integer('position').notNull().default(0),
    /** The one marked "most popular" on the page. */
    featured: boolean('featured').notNull().default(false),
    active: boolean('active').notNull().default(true),
  },
  () => [
    check('credit_packages_credits_check', sql`"credits" > 0`),
    check('credit_packages_bonus_check', sql`"bonus" >= 0`),
  ],
)

/** The price of a package in one currency, in minor units (cents, grosze). */
export const creditPackagePrices = pgTable(
  'credit_package_prices',
  {
    packageId: text('package_id').notNull(),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [
    primaryKey({ name: 'credit_package_prices_pkey', columns: [t.packageId, t.currency] }),
    foreignKey({
      name: 'credit_package_prices_package_id_fkey',
      columns: [t.packageId],
      foreignColumns: [creditPackages.id],
    }).onDelete('cascade'),
    check('credit_package_prices_amount_check', sql`"amount" > 0`),
  ],
)

/** normal | welcome | time_bonus; the effect is bonus credits or percent off. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    code: text('code').primaryKey(),
    kind: text('kind').notNull(),
    bonusPercent: integer('bonus_percent'),
    percentOff: integer('percent_off'),
    endsAt: ts('ends_at'),
    /** How many orders may use it in all (null: no limit). */
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    /** A personal code (the delete discount): only this member may use it. */
    memberId: ref('member_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    // One welcome code and one personal offer (the delete discount) per member.
    uniqueIndex('discount_codes_welcome_key').on(t.memberId).where(sql`kind = 'welcome'`),
    uniqueIndex('discount_codes_personal_key')
      .on(t.memberId)
      .where(sql`kind = 'normal' AND member_id IS NOT NULL`),
    foreignKey({
      name: 'discount_codes_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    check('discount_codes_kind_check', sql`"kind" IN ('normal', 'welcome', 'time_bonus')`),
    check('discount_codes_bonus_percent_check', sql`"bonus_percent" BETWEEN 1 AND 200`),
    check('discount_codes_percent_off_check', sql`"percent_off" BETWEEN 1 AND 90`),
    // Exactly one effect: bonus credits or percent off.
    check('discount_codes_check', sql`("bonus_percent" IS NULL) <> ("percent_off" IS NULL)`),
    check('discount_codes_check1', sql`"max_uses" IS NULL OR "uses" <= "max_uses"`),
  ],
)

/**
 * One attempt to buy a package. `public_id` addresses /transactions/{id}
 * (unguessable); `client_id` is the member's id of the order (its idempotency
 * is member_actions', api/http/idempotency.ts); `payment_id` (unique)
 * is the provider's payment, and the grant is keyed on it through
 * `granted_at`, set once in the transaction of the ledger row.
 */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    publicId: text('public_id').notNull(),
    memberId: ref('member_id').notNull(),
    clientId: uuid('client_id').notNull(),
    packageId: text('package_id').notNull(),
    method: text('method').notNull(),
    currency: text('currency').notNull(),
    /** What the member pays, minor units, after any percent off. */
    amount: integer('amount').notNull(),
    /** Credits the order grants when paid: package credits + bonus + code bonus. */
    credits: integer('credits').notNull(),
    discountCode: text('discount_code'),
    /** pending | paid | failed | canceled | expired | refunded | charged_back */
    status: text('status').notNull().default('pending'),
    provider: text('provider').notNull(),
    paymentId: text('payment_id'),
    checkoutUrl: text('checkout_url'),
    /** oneoff | first | recurring (Mollie's sequenceType). */
    sequenceType: text('sequence_type').notNull().default('oneoff'),
    grantedAt: ts('granted_at'),
    /** Credits taken back by refunds and chargebacks so far. */
    reversedCredits: integer('reversed_credits').notNull().default(0),
    /**
     * When the member gave, at checkout, the express consent to immediate use
     * of the credits and the acknowledgement that the right of withdrawal ends
     * for credits used (CRD Art. 16(m)); null for orders from before the box.
     */
    withdrawalConsentAt: ts('withdrawal_consent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_public_id_key').on(t.publicId),
    uniqueIndex('orders_payment_id_key').on(t.paymentId),
    index('orders_member_idx').on(t.memberId, t.id),
    index('orders_open_idx').on(t.createdAt).where(sql`status = 'pending'`),
    foreignKey({
      name: 'orders_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    check('orders_amount_check', sql`"amount" > 0`),
    check('orders_credits_check', sql`"credits" > 0`),
    check(
      'orders_status_check',
      sql`"status" IN ('pending', 'paid', 'failed', 'canceled', 'expired', 'refunded', 'charged_back')`,
    ),
    check('orders_check', sql`"reversed_credits" >= 0 AND "reversed_credits" <= "credits"`),
  ],
)

/** The provider's customer of a member, for recurring (mandate) payments. */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    memberId: ref('member_id').notNull(),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
  },
  (t) => [
    primaryKey({ name: 'payment_customers_pkey', columns: [t.memberId, t.provider] }),
    foreignKey({
      name: 'payment_customers_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)

/** The built-in local provider's payments (no MOLLIE_API_KEY): its own state, like Mollie's. */
export const localPayments = pgTable('local_payments', {
  id: text('id').primaryKey(),
  status: text('status').notNull(),
  currency: text('currency').notNull(),
  amount: integer('amount').notNull(),
  description: text('description').notNull(),
  method: text('method'),
  redirectUrl: text('redirect_url'),
  webhookUrl: text('webhook_url'),
  customerId: text('customer_id'),
  sequenceType: text('sequence_type').notNull().default('oneoff'),
  /** Our order's public id (Mollie's metadata). */
  orderId: text('order_id'),
  refunded: integer('refunded').notNull().default(0),
  chargedBack: integer('charged_back').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/**
 * A member's withdrawal from a purchase (CRD Art. 11a): one per order (the
 * unique order id makes a second request change nothing). The refund of the
 * unused credits runs as a job through the console's refund path
 * (api/payments/refunds.ts), keyed on `refund_client_id`.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    orderId: ref('order_id').notNull(),
    memberId: ref('member_id').notNull(),
    /** member (signed in) | link (the mailed confirmation link). */
    via: text('via').notNull(),
    /** Credits of the order still unused when the member withdrew. */
    unusedCredits: integer('unused_credits').notNull(),
    /** Minor units of the order's currency to refund (0: nothing to refund). */
    refundAmount: integer('refund_amount').notNull(),
    /**
     * The refund's client id: claimed once in the member's action record
     * (member_actions), the key of its staff_refunds row; null when nothing is refunded.
     */
    refundClientId: uuid('refund_client_id'),
    /** When the provider took the refund. */
    refundedAt: ts('refunded_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('withdrawals_order_key').on(t.orderId),
    index('withdrawals_member_idx').on(t.memberId),
    foreignKey({
      name: 'withdrawals_order_id_fkey',
      columns: [t.orderId],
      foreignColumns: [orders.id],
    }).onDelete('cascade'),
    check('withdrawals_via_check', sql`"via" IN ('member', 'link')`),
    check('withdrawals_refund_amount_check', sql`"refund_amount" >= 0`),
  ],
)

/**
 * A withdrawal asked for without a session (e-mail and order number): the
 * confirmation link mailed to the order's address. Only the token's hash is
 * stored (api/shared/tokens.ts).
 */
export const withdrawalLinks = pgTable(
  'withdrawal_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    orderId: ref('order_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('withdrawal_links_order_idx').on(t.orderId),
    foreignKey({
      name: 'withdrawal_links_order_id_fkey',
      columns: [t.orderId],
      foreignColumns: [orders.id],
    }).onDelete('cascade'),
  ],
)

/**
 * What was refunded of which order through the one refund path
 * (api/payments/refunds.ts): the console's refunds, under the client id of
 * the console's form (applied once through staff_actions,
 * api/http/idempotency.ts), and a member's withdrawal, under its refund
 * client id. Credit adjustments need no table of their own: the ledger row,
 * the audit row and staff_actions hold them.
 */
export const staffRefunds = pgTable(
  'staff_refunds',
  {
    clientId: uuid('client_id').primaryKey(),
    orderId: ref('order_id').notNull(),
    /** Null: the member's own withdrawal (api/payments/withdrawal.ts), no staff involved. */
    staffId: ref('staff_id'),
    /** Minor units of the order's currency. */
    amount: integer('amount').notNull(),
    /** The provider's refund id, once the provider took it. */
    providerRefundId: text('provider_refund_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('staff_refunds_order_idx').on(t.orderId),
    foreignKey({
      name: 'staff_refunds_order_id_fkey',
      columns: [t.orderId],
      foreignColumns: [orders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'staff_refunds_staff_id_fkey',
      columns: [t.staffId],
      foreignColumns: [staff.id],
    }),
    check('staff_refunds_amount_check', sql`"amount" > 0`),
  ],
)
