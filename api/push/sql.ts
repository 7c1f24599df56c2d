// The push domain's rules as SQL for a caller's single statement (the paid
// send's mail, api/chats/message-sql.ts; the member's own account), and the new-message mail's claim on the
// member's push row (the mail follows the push choice: api/chats/message-mail.ts).
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pushMembers } from '../../db/schema/index.ts'

/** SQL true when member `member` has a device to push to (a push subscription). */
export const hasPushSubscriptionSql = (member: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.member_id = ${member})`

/**
 * SQL true when a mail about a new message may go to member `member` now:
 * they want them (the "New messages" choice, on unless turned off), no page
 * of theirs is visible, and no such mail went to them within `gap` (an
 * interval).
 */
export const messageMailDueSql = (member: SQL, gap: SQL): SQL =>
  sql`coalesce((SELECT ${mailDue(gap)} FROM ${pushMembers} WHERE ${pushMembers.memberId} = ${member}), true)`

/** The member's push row allows a new-message mail (the row's columns by table name). */
const mailDue = (gap: SQL): SQL =>
  sql`${pushMembers.messages}
      AND NOT coalesce(${pushMembers.visibleUntil} > now(), false)
      AND (${pushMembers.messageMailedAt} IS NULL OR ${pushMembers.messageMailedAt} <= now() - ${gap})`

/**
 * Claims the member's next new-message mail in `tx`: true when one is due
 * (messageMailDueSql, checked again in the row's lock, so a member who came
 * back hears it live and two racing jobs do not both mail), and then marks
 * it sent now.
 */
export async function claimMessageMail(tx: Db, member: number, gap: SQL): Promise<boolean> {
  const result = await tx.execute(sql`
    INSERT INTO push_members (member_id, message_mailed_at) VALUES (${member}, now())
    ON CONFLICT (member_id) DO UPDATE SET message_mailed_at = excluded.message_mailed_at
    WHERE ${mailDue(gap)}
    RETURNING 1 AS claimed`)
  return ((result as { rows?: unknown[] }).rows?.length ?? 0) > 0
}
