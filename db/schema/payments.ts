// Buying credits: the packages on sale and their prices per currency (operator
// data, seeded by the migration), orders with their provider payment,
// discount codes, the provider's customer of a member (recurring payments),
// and the built-in local provider's own payments. The foreign keys to
// members are in the migration (0007_payments.sql): importing the members
// table here would make db/schema.ts import itself.
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const ref = (name: string) => bigint(name, { mode: 'number' })
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** A package of credits on sale; an operator edits the rows, no deploy needed. */
export const creditPackages = pgTable('credit_packages', {
  id: text('id').primaryKey(),
  credits: integer('credits').notNull(),
  /** Extra credits the package always carries. */
  bonus: integer('bonus').notNull().default(0),
  position: integer('position').notNull().default(0),
  /** The one marked "most popular" on the page. */
  featured: boolean('featured').notNull().default(false),
  active: boolean('active').notNull().default(true),
})

/** The price of a package in one currency, in minor units (cents, grosze). */
export const creditPackagePrices = pgTable(
  'credit_package_prices',
  {
    packageId: text('package_id')
      .notNull()
      .references(() => creditPackages.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.currency] })],
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
  ],
)

/**
 * One attempt to buy a package. `public_id` addresses /transactions/{id}
 * (unguessable); `client_id` makes the order idempotent; `payment_id` (unique)
 * is the provider's payment, and the grant is keyed on it through
 * `granted_at`, set once in the transaction of the ledger row.
 */
export const orders = pgTable(
  'orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
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
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_public_id_key').on(t.publicId),
    uniqueIndex('orders_client_key').on(t.memberId, t.clientId),
    uniqueIndex('orders_payment_id_key').on(t.paymentId),
    index('orders_member_idx').on(t.memberId, t.id),
    index('orders_open_idx').on(t.createdAt).where(sql`status = 'pending'`),
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
  (t) => [primaryKey({ columns: [t.memberId, t.provider] })],
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
