// Visits to a member's profile (docs/live.md): recorded when a signed-in
// member opens another's profile, at most once per visitor, visited member
// and day (UTC) and never again within VISIT_BURST of the last one (a visit
// just before midnight and a reload after it are one); never by a fictional
// member, one who browses invisibly, or across a block. GET /api/visitors.php
// lists them newest first; those after the member last opened the list are new.
// A member who asked for it (visit_push) gets a push about each recorded visit.
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { blocks, memberPrivacy, members, profileVisits } from '../../db/schema/index.ts'
import type { VisitorsResponse } from '../contract/index.ts'
import { notifyMembersSoon } from '../events/bus.ts'
import { PUSH_EVENT_JOB } from '../push/index.ts'
import { profileColumns, profilesFor } from '../profiles/index.ts'
import { rowsOf } from '../shared/rows.ts'
import { newVisitsOf } from '../shared/visits.ts'

/** A second visit within this long of the last one is not recorded, whatever the day. */
export const VISIT_BURST = '30 minutes'
/** The list holds the newest visits up to this many. */
export const VISITORS_LIST_MAX = 100

/**
 * Records `visitor`'s visit to `visited`'s profile when the rules allow, in
 * one statement; the visited member's stream hears of a new one. Returns
 * whether a visit was recorded.
 */
export async function recordVisit(db: Db, visitor: number, visited: number): Promise<boolean> {
  if (visitor === visited) return false
  const rows = await rowsOf(
    db,
    sql`
    WITH visit AS (
    INSERT INTO ${profileVisits} (visitor_id, visited_id)
    SELECT ${visitor}, ${visited}
    FROM ${members} v
    WHERE v.id = ${visitor} AND NOT v.fictional AND v.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM ${memberPrivacy} p
        WHERE p.member_id = ${visitor} AND p.browse_invisibly)
      AND NOT EXISTS (SELECT 1 FROM ${blocks} b
        WHERE (b.blocker_id = ${visitor} AND b.blocked_id = ${visited})
           OR (b.blocker_id = ${visited} AND b.blocked_id = ${visitor}))
      AND NOT EXISTS (SELECT 1 FROM ${profileVisits} pv
        WHERE pv.visitor_id = ${visitor} AND pv.visited_id = ${visited}
          AND pv.visited_at > now() - ${VISIT_BURST}::interval)
    ON CONFLICT (visitor_id, visited_id, day) DO NOTHING
    RETURNING id
    ), push AS (
      -- The push about it, in the same statement (so never lost nor sent
      -- twice: one per recorded visit), only for a member who asked for it
      -- (visit_push, off by default) and has a device. The push domain's
      -- job drops it for a blocked or deleted member or a visible page.
      INSERT INTO jobs (kind, payload, dedupe_key)
      SELECT ${PUSH_EVENT_JOB},
        jsonb_build_object('memberId', ${visited}::bigint, 'event', jsonb_build_object(
          'kind', 'visit', 'from', jsonb_build_object('id', ${visitor}::bigint, 'name', ''),
          'visit', visit.id)),
        'push-event:visit:' || visit.id
      FROM visit
      WHERE EXISTS (SELECT 1 FROM ${memberPrivacy} p
          WHERE p.member_id = ${visited} AND p.visit_push)
        AND EXISTS (SELECT 1 FROM push_subscriptions ps WHERE ps.member_id = ${visited})
      ON CONFLICT DO NOTHING
    )
    SELECT id FROM visit`,
    z.object({ id: z.unknown() }),
  )
  const recorded = rows.length > 0
  if (recorded) {
    await notifyMembersSoon(db, [visited], { type: 'visitors' }).catch((e: unknown) =>
      console.error('visits: poke failed', e),
    )
  }
  return recorded
}

/** The visitors of a member, newest first, without deleted or blocked members (either way). */
export async function visitorsOf(db: Db, memberId: number): Promise<VisitorsResponse> {
  const [privacy] = await db
    .select({ seenAt: memberPrivacy.visitorsSeenAt })
    .from(memberPrivacy)
    .where(eq(memberPrivacy.memberId, memberId))
  const seenAt = privacy?.seenAt ?? null
  const rows = await db
    .select({ ...profileColumns, visitedAt: profileVisits.visitedAt })
    .from(profileVisits)
    .innerJoin(members, and(eq(members.id, profileVisits.visitorId), isNull(members.deletedAt)))
    .where(
      and(
        eq(profileVisits.visitedId, memberId),
        sql`${profileVisits.visitorId} NOT IN (SELECT ${blocks.blockedId} FROM ${blocks} WHERE ${blocks.blockerId} = ${memberId}
          UNION ALL SELECT ${blocks.blockerId} FROM ${blocks} WHERE ${blocks.blockedId} = ${memberId})`,
      ),
    )
    .orderBy(desc(profileVisits.visitedAt), desc(profileVisits.id))
    .limit(VISITORS_LIST_MAX)
  const profiles = await profilesFor(db, rows)
  const visitors = rows.map((r, i) => ({
    profile: profiles[i]!,
    visited_at: r.visitedAt.toISOString(),
    is_new: seenAt === null || r.visitedAt > seenAt,
  }))
  return { visitors, new_count: await newVisitsOf(db, memberId) }
}

/** The member looked at their visitors: none is new any more (their other devices hear of it). */
export async function markVisitorsSeen(db: Db, memberId: number): Promise<void> {
  await db
    .insert(memberPrivacy)
    .values({ memberId, visitorsSeenAt: sql`now()` })
    .onConflictDoUpdate({ target: memberPrivacy.memberId, set: { visitorsSeenAt: sql`now()` } })
  await notifyMembersSoon(db, [memberId], { type: 'visitors' }).catch(() => undefined)
}
