// Complaints (EU notice-and-action, and appeals of a decision) from the
// public /complaints form.
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

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

/**
 * Visits to landers and member landing pages per UTC day, site, lander,
 * network and sub id ('' for none): aggregates only (api/traffic/visits.ts).
 */
export const landerVisits = pgTable(
  'lander_visits',
  {
    day: date('day').notNull(),
    site: text('site').notNull(),
    lander: text('lander').notNull(),
    network: text('network').notNull(),
    sub1: text('sub1').notNull(),
    visits: integer('visits').notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'lander_visits_pkey',
      columns: [t.day, t.site, t.lander, t.network, t.sub1],
    }),
  ],
)
