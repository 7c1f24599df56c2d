// Moderation: members' reports of other members (and their messages), the
// sanctions on members (each with its statement of reasons and an appeal
// token mailed to the member) and appeals of them (decided by a different
// moderator).
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { messages } from './chats.ts'
import { id, jsonb, ref, ts } from './columns.ts'
import { members } from './members.ts'
import { staff } from './staff.ts'

/** A member's report of another member (or one of their messages), for moderation. */
export const reports = pgTable(
  'reports',
  {
    id: id(),
    reporterId: ref('reporter_id').notNull(),
    reportedId: ref('reported_id').notNull(),
    messageId: ref('message_id'),
    reason: text('reason').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The moderator's decision (api/moderation/decide-notice.ts); time to action is decided_at - created_at. */
    decidedAt: ts('decided_at'),
    decidedBy: ref('decided_by'),
    decision: text('decision'),
    actionSeconds: integer('action_seconds'),
  },
  (t) => [
    index('reports_status_idx').on(t.status, t.id),
    // A chat photo's visibility asks for the reports of its message (api/shared/reports.ts photoHiddenSql).
    index('reports_message_idx').on(t.messageId).where(sql`message_id IS NOT NULL`),
    foreignKey({
      name: 'reports_reporter_id_fkey',
      columns: [t.reporterId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reports_reported_id_fkey',
      columns: [t.reportedId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'reports_message_id_fkey',
      columns: [t.messageId],
      foreignColumns: [messages.id],
    }).onDelete('set null'),
    foreignKey({
      name: 'reports_decided_by_fkey',
      columns: [t.decidedBy],
      foreignColumns: [staff.id],
    }),
  ],
)

export const sanctions = pgTable(
  'sanctions',
  {
    id: id(),
    memberId: ref('member_id').notNull(),
    /** warn | suspend | ban | remove_photo | remove_text (api/contract/operator/moderation.ts). */
    kind: text('kind').notNull(),
    /** The site rule it breaks (MODERATION_RULES). */
    rule: text('rule').notNull(),
    reason: text('reason').notNull(),
    /** The queue item it decided: report | complaint. */
    itemType: text('item_type'),
    itemId: ref('item_id'),
    startsAt: ts('starts_at').notNull().defaultNow(),
    /** A suspension's end; null for a ban (until lifted) and the one-off kinds. */
    endsAt: ts('ends_at'),
    staffId: ref('staff_id').notNull(),
    /** SHA-256 of the token in the statement of reasons: it lets a logged-out member appeal. */
    appealTokenHash: text('appeal_token_hash').notNull(),
    liftedAt: ts('lifted_at'),
    liftedBy: ref('lifted_by'),
  },
  (t) => [
    index('sanctions_member_idx').on(t.memberId, t.id),
    uniqueIndex('sanctions_appeal_token_key').on(t.appealTokenHash),
    foreignKey({
      name: 'sanctions_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'sanctions_staff_id_fkey',
      columns: [t.staffId],
      foreignColumns: [staff.id],
    }),
    foreignKey({
      name: 'sanctions_lifted_by_fkey',
      columns: [t.liftedBy],
      foreignColumns: [staff.id],
    }),
    check(
      'sanctions_kind_check',
      sql`"kind" IN ('warn', 'suspend', 'ban', 'remove_photo', 'remove_text')`,
    ),
  ],
)

export const appeals = pgTable(
  'appeals',
  {
    id: id(),
    sanctionId: ref('sanction_id').notNull(),
    text: text('text').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
    decidedBy: ref('decided_by'),
    /** upheld | lifted */
    outcome: text('outcome'),
    reason: text('reason'),
    actionSeconds: integer('action_seconds'),
  },
  (t) => [
    // At most one undecided appeal per sanction.
    uniqueIndex('appeals_open_key').on(t.sanctionId).where(sql`decided_at IS NULL`),
    foreignKey({
      name: 'appeals_sanction_id_fkey',
      columns: [t.sanctionId],
      foreignColumns: [sanctions.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'appeals_decided_by_fkey',
      columns: [t.decidedBy],
      foreignColumns: [staff.id],
    }),
    check('appeals_outcome_check', sql`"outcome" IN ('upheld', 'lifted')`),
  ],
)

/**
 * A statement of reasons on its way to the EU's DSA Transparency Database
 * (Art. 24(5)): one per sanction, sent by the job `moderation.transparency`
 * when TRANSPARENCY_DB_TOKEN is set (api/moderation/transparency.ts).
 * queued | submitted | failed (the job gave up; the console can retry it).
 */
export const transparencySubmissions = pgTable(
  'transparency_submissions',
  {
    id: id(),
    sanctionId: ref('sanction_id').notNull(),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The database's id of the statement once accepted. */
    remoteId: text('remote_id'),
    submittedAt: ts('submitted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transparency_submissions_sanction_key').on(t.sanctionId),
    index('transparency_submissions_status_idx').on(t.status, t.id),
    foreignKey({
      name: 'transparency_submissions_sanction_id_fkey',
      columns: [t.sanctionId],
      foreignColumns: [sanctions.id],
    }).onDelete('cascade'),
    check(
      'transparency_submissions_status_check',
      sql`"status" IN ('queued', 'submitted', 'failed')`,
    ),
  ],
)

/**
 * Profile texts held for review (docs/law.md, "Profile texts held for
 * review"): a new name, profile text or notes value that fired a scam signal
 * (api/contract/rules/scam.ts) waits here instead of on the profile, one open
 * row per member; a moderator approves (published) or rejects it.
 */
export const profileTextReviews = pgTable(
  'profile_text_reviews',
  {
    id: id(),
    memberId: ref('member_id').notNull(),
    /** The held values: `name`, `personal` (text or null), `notes` (the held keys only). */
    texts: jsonb('texts')
      .$type<{ name?: string; personal?: string | null; notes?: Record<string, string> }>()
      .notNull(),
    /** The signals that fired, `link,phone`. */
    signals: text('signals').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
    decidedBy: ref('decided_by'),
    /** approve | reject */
    decision: text('decision'),
  },
  (t) => [
    uniqueIndex('profile_text_reviews_open_key').on(t.memberId).where(sql`decided_at IS NULL`),
    index('profile_text_reviews_open_idx').on(t.id).where(sql`decided_at IS NULL`),
    foreignKey({
      name: 'profile_text_reviews_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'profile_text_reviews_decided_by_fkey',
      columns: [t.decidedBy],
      foreignColumns: [staff.id],
    }),
  ],
)
