// Presence: what a member lets others know of them (read receipts, being
// online, their visits) and the visits to profiles.
import { sql } from 'drizzle-orm'
import { boolean, date, foreignKey, index, pgTable, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'

/**
 * A member's privacy choices; no row is every default. Read receipts go both
 * ways: without them a member neither sends nor sees any.
 */
export const memberPrivacy = pgTable(
  'member_privacy',
  {
    memberId: ref('member_id').primaryKey(),
    readReceipts: boolean('read_receipts').notNull().default(true),
    /** Visits to profiles are not recorded. */
    browseInvisibly: boolean('browse_invisibly').notNull().default(false),
    /** Others see no "online now" nor "active today" of this member. */
    hideOnline: boolean('hide_online').notNull().default(false),
    /** A visit to this member's profile sends a push (off unless asked for). */
    visitPush: boolean('visit_push').notNull().default(false),
    /** First messages only from verified members (photo verification); off unless asked for. */
    verifiedOnly: boolean('verified_only').notNull().default(false),
    /** Photos in chats from others show blurred until tapped (on unless turned off). */
    blurPhotos: boolean('blur_photos').notNull().default(true),
    /** When the member last opened their visitors: later visits are new. */
    visitorsSeenAt: ts('visitors_seen_at'),
  },
  (t) => [
    foreignKey({
      name: 'member_privacy_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)

/** A member opened another's profile: one row per visitor, visited member and day (UTC). */
export const profileVisits = pgTable(
  'profile_visits',
  {
    id: id(),
    visitorId: ref('visitor_id').notNull(),
    visitedId: ref('visited_id').notNull(),
    day: date('day', { mode: 'string' }).notNull().default(sql`(now() AT TIME ZONE 'UTC')::date`),
    visitedAt: ts('visited_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('profile_visits_day_key').on(t.visitorId, t.visitedId, t.day),
    index('profile_visits_visited_idx').on(t.visitedId, t.visitedAt),
    foreignKey({
      name: 'profile_visits_visitor_id_fkey',
      columns: [t.visitorId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'profile_visits_visited_id_fkey',
      columns: [t.visitedId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)
