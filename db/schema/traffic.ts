// Complaints (EU notice-and-action, and appeals of a decision) from the
// public /complaints form.
import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export const complaints = pgTable(
  'complaints',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The receipt's reference, quoted back to the sender ("C-7F3K9Q2M"). */
    reference: text('reference').notNull().unique(),
    /** notice (content thought illegal or against the terms) | decision (an appeal) */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    url: text('url'),
    text: text('text').notNull(),
    goodFaith: boolean('good_faith').notNull(),
    /** The member who sent it, when signed in (FK to members, ON DELETE SET NULL, in the migration). */
    memberId: bigint('member_id', { mode: 'number' }),
    locale: text('locale').notNull(),
    /** received | answered | closed: the operator answers by mail, quoting the reference. */
    status: text('status').notNull().default('received'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The moderator's decision; time to action is decided_at - created_at. */
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decidedBy: bigint('decided_by', { mode: 'number' }),
    decision: text('decision'),
    actionSeconds: integer('action_seconds'),
  },
  (t) => [index('complaints_status_idx').on(t.status, t.id)],
)
