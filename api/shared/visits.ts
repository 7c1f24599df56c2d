// What counts as a new visit to a member's profile (docs/live.md): a visit
// after the member last opened their visitors, by a member not deleted and
// with no block either way. The visitors list (api/presence) and the push
// badge (api/push) both count with this one statement.
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { rowsOf } from './rows.ts'

const Count = z.object({ n: z.coerce.number() })

/** How many visits came since the member last opened their visitors. */
export async function newVisitsOf(db: Db, memberId: number): Promise<number> {
  const [row] = await rowsOf(
    db,
    sql`SELECT count(*)::int AS n
      FROM profile_visits pv
      JOIN members v ON v.id = pv.visitor_id AND v.deleted_at IS NULL
      LEFT JOIN member_privacy p ON p.member_id = pv.visited_id
      WHERE pv.visited_id = ${memberId}
        AND (p.visitors_seen_at IS NULL OR pv.visited_at > p.visitors_seen_at)
        AND NOT EXISTS (SELECT 1 FROM blocks b
          WHERE (b.blocker_id = ${memberId} AND b.blocked_id = pv.visitor_id)
             OR (b.blocker_id = pv.visitor_id AND b.blocked_id = ${memberId}))`,
    Count,
  )
  return row?.n ?? 0
}
