// The credits ledger.
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'

/**
 * Every change of a member's credits balance, written in the transaction of
 * its effect (a message, a purchase, a refund): the balance always equals the
 * sum of the member's deltas.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: id(),
    memberId: ref('member_id').notNull(),
    delta: integer('delta').notNull(),
    /** message | purchase | bonus | refund | adjustment, and the paid actions photo | voice | unlock | gift */
    reason: text('reason').notNull(),
    /** What it paid for or came from: `message:<id>`, `payment:<id>`, a staff note. */
    reference: text('reference'),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('credit_ledger_member_idx').on(t.memberId, t.id),
    // One grant per provider payment: a purchase row's reference is `payment:<id>`.
    uniqueIndex('credit_ledger_purchase_key').on(t.reference).where(sql`reason = 'purchase'`),
    foreignKey({
      name: 'credit_ledger_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    check(
      'credit_ledger_reason_check',
      sql`"reason" IN ('message', 'purchase', 'bonus', 'refund', 'adjustment', 'photo', 'voice', 'unlock', 'gift')`,
    ),
    check('credit_ledger_balance_after_check', sql`"balance_after" >= 0`),
  ],
)
