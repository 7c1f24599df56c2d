// What the console needs of the members table: finding members, a member's
// whole row, and the sign-up facts of the traffic report.
import { desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'

export type MemberRecord = typeof members.$inferSelect

/** `%`, `_` and `\` match themselves in the search. */
const likeText = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`)

/**
 * Members whose id is q, or whose email or name contains q: an exact id or
 * address first, then the newest members; `limit` rows from `offset`.
 */
export async function findMembers(
  db: Db,
  q: string,
  limit: number,
  offset: number,
): Promise<MemberRecord[]> {
  const text = `%${likeText(q)}%`
  const asId = /^\d{1,15}$/.test(q) ? Number(q) : null
  return db
    .select()
    .from(members)
    .where(
      or(
        asId !== null ? eq(members.id, asId) : undefined,
        ilike(members.email, text),
        ilike(members.name, text),
      ),
    )
    .orderBy(
      sql`(${members.id} = ${asId ?? -1} OR ${members.email} = ${q.toLowerCase()}) DESC`,
      desc(members.id),
    )
    .limit(limit)
    .offset(offset)
}

/** The member's whole row, deleted or not, or undefined when there is none. */
export async function memberRecord(db: Db, id: number): Promise<MemberRecord | undefined> {
  const [row] = await db.select().from(members).where(eq(members.id, id))
  return row
}

/**
 * Every member's sign-up facts for the traffic report, as a statement to
 * select from: id, signup_date, activated_at, site (members.signup_site) and
 * the traffic source (network, sub1, lander; the lander else from the
 * sign-up form's path).
 */
export const signupFactsSql = (): SQL => sql`
  SELECT
    id,
    signup_date,
    activated_at,
    signup_site AS site,
    trafficsource->>'network' AS network,
    trafficsource->>'sub1' AS sub1,
    COALESCE(
      trafficsource->>'lander',
      substring(signup_meta->>'form_path' FROM '^/landers/([a-z]+)')
    ) AS lander
  FROM members`
