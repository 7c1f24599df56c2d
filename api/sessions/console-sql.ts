// What the console needs of the sessions table: a member's live sessions and
// ending one of them.
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { sessions } from '../../db/schema/index.ts'

/** The member's sessions not yet expired, last used first. */
export const unexpiredSessions = (db: Db, memberId: number, now: Date) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.memberId, memberId), sql`${sessions.expiresAt} > ${now}`))
    .orderBy(desc(sessions.lastSeenAt))

/** Ends one of the member's sessions; its user agent, or null when there is none. */
export async function endSessionOf(
  tx: Db,
  memberId: number,
  id: number,
): Promise<{ userAgent: string } | null> {
  const gone = await tx
    .delete(sessions)
    .where(and(eq(sessions.memberId, memberId), eq(sessions.id, id)))
    .returning({ userAgent: sessions.userAgent })
  return gone[0] ?? null
}
