// The console's money actions on members: credit adjustments and refunds,
// each keyed on the client-generated id of the console's form, so a double
// click or a retried request applies once (the primary key is what makes it
// race-safe).
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns.ts'
import { members } from './members.ts'
import { orders } from './payments.ts'
import { staff } from './staff.ts'

export const creditAdjustments = pgTable(
  'credit_adjustments',
  {
    clientId: uuid('client_id').primaryKey(),
    memberId: ref('member_id').notNull(),
    staffId: ref('staff_id').notNull(),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('credit_adjustments_member_idx').on(t.memberId),
    foreignKey({
      name: 'credit_adjustments_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'credit_adjustments_staff_id_fkey',
      columns: [t.staffId],
      foreignColumns: [staff.id],
    }),
  ],
)

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
