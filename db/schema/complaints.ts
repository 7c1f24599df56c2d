// Complaints (EU notice-and-action, and appeals of a decision) from the
// public /complaints form.
import { sql } from 'drizzle-orm'
import { boolean, check, foreignKey, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'
import { staff } from './staff.ts'

export const complaints = pgTable(
  'complaints',
  {
    id: id(),
    /** The receipt's reference, quoted back to the sender ("C-7F3K9Q2M"). */
    reference: text('reference').notNull().unique('complaints_reference_key'),
    /** notice (content thought illegal or against the terms) | decision (an appeal) */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    url: text('url'),
    text: text('text').notNull(),
    goodFaith: boolean('good_faith').notNull(),
    /** The member who sent it, when signed in. */
    memberId: ref('member_id'),
    locale: text('locale').notNull(),
    /** received | answered | closed: the operator answers by mail, quoting the reference. */
    status: text('status').notNull().default('received'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The moderator's decision; time to action is decided_at - created_at. */
    decidedAt: ts('decided_at'),
    decidedBy: ref('decided_by'),
    decision: text('decision'),
    actionSeconds: integer('action_seconds'),
  },
  (t) => [
    index('complaints_status_idx').on(t.status, t.id),
    foreignKey({
      name: 'complaints_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('set null'),
    foreignKey({
      name: 'complaints_decided_by_fkey',
      columns: [t.decidedBy],
      foreignColumns: [staff.id],
    }),
    check('complaints_kind_check', sql`"kind" IN ('notice', 'decision')`),
    check('complaints_status_check', sql`"status" IN ('received', 'answered', 'closed')`),
  ],
)
