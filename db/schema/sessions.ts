// Members' login sessions (api/http/session.ts).
import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core'
import { ref, ts } from './columns.ts'
import { members } from './members.ts'

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 (hex) of the cookie token: a leaked table holds no usable token. */
    tokenHash: text('token_hash').primaryKey(),
    memberId: ref('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The absolute end: created_at + SESSION_ABSOLUTE_S (api/http/session.ts). */
    expiresAt: ts('expires_at').notNull(),
    /** The public handle of a session in the member's list (never the token). */
    id: bigint('id', { mode: 'number' }).notNull().unique().generatedAlwaysAsIdentity(),
    /** Last use, kept to within SESSION_TOUCH_S; idle expiry counts from it. */
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    /** The browser's User-Agent at login (at most 256 characters), for the device summary. */
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('sessions_member_idx').on(t.memberId)],
)
