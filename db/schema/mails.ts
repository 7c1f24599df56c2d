// Mails the site sends.
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'

/**
 * Every mail the site sends, in the member's language, with a plain-text
 * part. Sent through SMTP when configured; listed at /_dev/mail otherwise.
 * `sentAt` is what GET /api/activate.php reports as delivered.
 */
export const mails = pgTable(
  'mails',
  {
    id: id(),
    memberId: ref('member_id').references(() => members.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    error: text('error'),
  },
  (t) => [index('mails_member_idx').on(t.memberId, t.kind, t.id)],
)
