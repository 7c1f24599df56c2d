// Visits to a member's profile (docs/live.md): recorded when a signed-in
// member opens another's profile, at most once per visitor, visited member
// and day (UTC) and never again within VISIT_BURST of the last one (a visit
// just before midnight and a reload after it are one); never by a fictional
// member, one who browses invisibly, or across a block. GET /api/visitors.php
// lists them newest first; those after the member last opened the list are new.
// A member who asked for it (visit_push) gets a push about each recorded visit.
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { memberPrivacy, profileVisits } from '../../db/schema/index.ts'
import { blockedBetweenSql, blockedWithSql } from '../blocks/index.ts'
import type { VisitorsResponse } from '../contract/index.ts'
import { notifyMembersSoon } from '../events/bus.ts'
import { profilesFor } from '../profiles/index.ts'
import { pushEventJobSql } from '../push/index.ts'
import {
  liveMemberSql,
  liveProfileColumns,
  liveProfiles,
  liveRealMemberSql,
} from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'

/** A second visit within this long of the last one is not recorded, whatever the day. */
export const VISIT_BURST = '30 minutes'
/** The list holds the newest visits up to this many. */
export const VISITORS_LIST_MAX = 100

/** A visit the statement recorded. */
const RecordedVisit = z.object({ id: z.unknown() })

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
    WHERE ${liveRealMemberSql(sql`${visitor}`)}
      AND NOT EXISTS (SELECT 1 FROM ${memberPrivacy} p
        WHERE p.member_id = ${visitor} AND p.browse_invisibly)
      AND NOT ${blockedBetweenSql(sql`${visitor}`, sql`${visited}`)}
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
      ${pushEventJobSql({
        memberId: sql`${visited}::bigint`,
        event: { kind: 'visit', from: sql`${visitor}::bigint`, visit: sql`visit.id` },
        from: sql`visit`,
        where: sql`EXISTS (SELECT 1 FROM ${memberPrivacy} p
          WHERE p.member_id = ${visited} AND p.visit_push)`,
      })}
    )
    SELECT id FROM visit`,
    RecordedVisit,
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
    .select({ ...liveProfileColumns, visitedAt: profileVisits.visitedAt })
    .from(profileVisits)
    .innerJoin(liveProfiles, eq(liveProfiles.id, profileVisits.visitorId))
    .where(
      and(
        eq(profileVisits.visitedId, memberId),
        sql`${profileVisits.visitorId} NOT IN (${blockedWithSql(memberId)})`,
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

/**
 * How many visits to `memberId` count as new, as a scalar SQL expression for
 * a caller's single statement (the install badge): visits after the member
 * last opened their visitors, by a member not deleted, with no block either
 * way. The visitors list counts with it too (newVisitsOf).
 */
export const newVisitsCountSql = (memberId: number): SQL =>
  sql`(SELECT count(*)::int
    FROM profile_visits pv
    LEFT JOIN member_privacy p ON p.member_id = pv.visited_id
    WHERE pv.visited_id = ${memberId}
      AND (p.visitors_seen_at IS NULL OR pv.visited_at > p.visitors_seen_at)
      AND ${liveMemberSql(sql`pv.visitor_id`)}
      AND pv.visitor_id NOT IN (${blockedWithSql(memberId)}))`

const Count = z.object({ n: z.coerce.number() })

/** How many visits came since the member last opened their visitors. */
export async function newVisitsOf(db: Db, memberId: number): Promise<number> {
  const [row] = await rowsOf(db, sql`SELECT ${newVisitsCountSql(memberId)} AS n`, Count)
  return row?.n ?? 0
}
