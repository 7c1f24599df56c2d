// The console's refunds: what was refunded of which order, under the
// client-generated id of the console's form (applied once through
// staff_actions, api/http/idempotency.ts). Credit adjustments need no table
// of their own: the ledger row, the audit row and staff_actions hold them.
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns.ts'
import { orders } from './payments.ts'
import { staff } from './staff.ts'

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
