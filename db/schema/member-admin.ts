// The console's money actions on members: credit adjustments and refunds,
// each keyed on the client-generated id of the console's form, so a double
// click or a retried request applies once. Foreign keys to members and
// orders are in the migration (0016_member_admin.sql).
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { staff } from './staff.ts'

const ref = (name: string) => bigint(name, { mode: 'number' })
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const creditAdjustments = pgTable(
  'credit_adjustments',
  {
    clientId: uuid('client_id').primaryKey(),
    memberId: ref('member_id').notNull(),
    staffId: ref('staff_id')
      .notNull()
      .references(() => staff.id),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('credit_adjustments_member_idx').on(t.memberId)],
)

export const staffRefunds = pgTable(
  'staff_refunds',
  {
    clientId: uuid('client_id').primaryKey(),
    orderId: ref('order_id').notNull(),
    staffId: ref('staff_id')
      .notNull()
      .references(() => staff.id),
    /** Minor units of the order's currency. */
    amount: integer('amount').notNull(),
    /** The provider's refund id, once the provider took it. */
    providerRefundId: text('provider_refund_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('staff_refunds_order_idx').on(t.orderId)],
)
