// A member's report of another as the domains below moderation meet it:
// filed from a chat or a profile (api/blocks/), counted in an opening's scam
// signals (api/chats/scam-cases.ts), listed in the member's data export
// (api/accounts/export.ts). The queue and the decisions on reports are
// moderation's (api/moderation/); moderation builds on chats, so chats and
// blocks reach the table here, as the audit log's writer is shared.
import { asc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { reports } from '../../db/schema/index.ts'
import { verifiedMemberSql } from './members.ts'

export type ReportRow = typeof reports.$inferSelect

/** Stores a report (open, for the moderators' queue); call in the transaction that mails it. */
export async function storeReport(
  tx: Db,
  report: {
    reporterId: number
    reportedId: number
    messageId: number | null
    reason: string
    text: string
  },
): Promise<ReportRow> {
  const [row] = await tx.insert(reports).values(report).returning()
  if (!row) throw new Error('report row not stored')
  return row
}

/**
 * SQL count of the distinct members who reported `member` within the last
 * `days` days, for a caller's single statement (an opening's scam signals).
 */
export const recentReportersSql = (member: SQL, days: number): SQL =>
  sql`(SELECT count(DISTINCT r.reporter_id) FROM reports r
        WHERE r.reported_id = ${member}
          AND r.created_at > now() - make_interval(days => ${days}))`

/**
 * SQL subquery: the members that at least `n` distinct members reported as a
 * fake profile (reports a moderator dismissed do not count) and that have
 * not passed photo verification: search and the showcase leave them out
 * (docs/law.md, "Hidden after fake-profile reports"). Few rows: a search
 * checks its index entries' ids against it (a hashed subplan), so its
 * index-only scans stay index-only.
 */
export const hiddenAsFakeSql = (n: number | Placeholder): SQL =>
  sql`(SELECT r.reported_id FROM reports r
        WHERE r.reason = 'fake_profile' AND (r.decision IS NULL OR r.decision <> 'dismiss')
          AND NOT ${verifiedMemberSql(sql`r.reported_id`)}
        GROUP BY r.reported_id HAVING count(DISTINCT r.reporter_id) >= ${n}::int)`

/** The reports_made section of member `memberId`'s data export, oldest first. */
export async function reportsMadeExport(db: Db, memberId: number) {
  const made = await db
    .select()
    .from(reports)
    .where(eq(reports.reporterId, memberId))
    .orderBy(asc(reports.id))
  return made.map((r) => ({
    id: r.id,
    reported_member: r.reportedId,
    message_id: r.messageId,
    reason: r.reason,
    text: r.text,
    status: r.status,
    at: r.createdAt.toISOString(),
  }))
}

/**
 * SQL true when the attachment of message `message` (its photo, its voice
 * recording) is hidden from `viewer`: the viewer reported that message
 * (hidden for them at once), or a moderator acted on a report of it (any
 * decision but dismiss: hidden for both). One rule for the chat's page
 * (api/chats/messages.ts) and each attachment's own route (api/chats/photos.ts,
 * api/chats/voice.ts).
 */
export const attachmentHiddenSql = (message: SQL, viewer: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM reports r WHERE r.message_id = ${message}
        AND (r.reporter_id = ${viewer} OR (r.decision IS NOT NULL AND r.decision <> 'dismiss')))`
