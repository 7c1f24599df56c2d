import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { images, members } from '../../db/schema/index.ts'
import type { Image, OwnProfile, Profile } from '../contract/index.ts'
import { lastActiveOf } from '../contract/rules/live.ts'

type MemberRow = typeof members.$inferSelect

/**
 * The member columns a Profile is made of: long lists (likes) select only
 * these, not the whole row (password hash, JSON columns) of thousands of members.
 */
export const profileColumns = {
  id: members.id,
  name: members.name,
  dateOfBirth: members.dateOfBirth,
  city: members.city,
  country: members.country,
  countryregion: members.countryregion,
  gender: members.gender,
  personal: members.personal,
  mainImageId: members.mainImageId,
  fictional: members.fictional,
  verifiedAt: members.verifiedAt,
  /**
   * When the member was last seen (ms since the epoch): their newest session
   * use (renewed at most every SESSION_TOUCH_S, api/http/session.ts) or the
   * page-hidden beacon's last activity, whichever is later; null when they
   * hide it (member_privacy.hide_online). Answered as `last_active`.
   */
  // Qualified by hand: drizzle writes a column of a one-table select
  // unqualified, and inside these subqueries "id" would be the session's.
  seenMs: sql<number | null>`CASE WHEN EXISTS (SELECT 1 FROM member_privacy mp
      WHERE mp.member_id = "members"."id" AND mp.hide_online) THEN NULL
    ELSE extract(epoch FROM greatest("members"."last_active_at",
      (SELECT max(s.last_seen_at) FROM sessions s WHERE s.member_id = "members"."id"))) * 1000 END`
    .mapWith((v: unknown) => (v === null ? null : Number(v)))
    .as('seen_ms'),
}
type BaseColumns = Exclude<keyof typeof profileColumns, 'seenMs'>
/** A row a profile is built from; `seenMs` where the statement read it (profileColumns). */
export type ProfileSource = Pick<MemberRow, BaseColumns> & { seenMs?: number | null }

/** Whole years between a YYYY-MM-DD birth date and `now` (UTC). */
export function ageOn(dateOfBirth: string, now = new Date()): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number]
  let age = now.getUTCFullYear() - y
  const month = now.getUTCMonth() + 1
  if (month < m || (month === m && now.getUTCDate() < d)) age--
  return age
}

/** A stored picture as the API answers it; a pending one (pre-moderation) is marked, for its owner only. */
export const imageOf = (r: { id: number; thumb: string; status: string }): Image =>
  r.status === 'pending'
    ? { id: r.id, thumb_filename: r.thumb, pending: true }
    : { id: r.id, thumb_filename: r.thumb }

/**
 * Images of many members in one query, grouped by member, oldest first.
 * Approved pictures only: every answer about other members is built from
 * this (search tiles, profiles, likes, chats, landers). `own` (the member's
 * own answers) adds their pending pictures, marked.
 */
export async function imagesOf(
  db: Db,
  memberIds: number[],
  options: { own?: boolean } = {},
): Promise<Map<number, Image[]>> {
  const byMember = new Map<number, Image[]>()
  if (memberIds.length === 0) return byMember
  const rows = await db
    .select({
      id: images.id,
      memberId: images.memberId,
      thumb: images.thumbFilename,
      status: images.status,
    })
    .from(images)
    .where(
      and(
        inArray(images.memberId, memberIds),
        options.own ? undefined : eq(images.status, 'approved'),
      ),
    )
    .orderBy(images.memberId, images.id)
  for (const r of rows) {
    const list = byMember.get(r.memberId) ?? []
    list.push(imageOf(r))
    byMember.set(r.memberId, list)
  }
  return byMember
}

export function toProfile(row: ProfileSource, imgs: Image[]): Profile {
  // The main picture is never a pending one (api/images/images.ts).
  const main = imgs.find((i) => i.id === row.mainImageId) ?? imgs.find((i) => !i.pending)
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.dateOfBirth),
    city: row.city,
    country: row.country,
    countryregion: row.countryregion,
    gender: row.gender === 'male' ? 'male' : 'female',
    personal: row.personal,
    images: imgs,
    main_image: main ? { thumb_filename: main.thumb_filename } : null,
    fictional: row.fictional,
    verified: row.verifiedAt !== null,
    ...(row.seenMs === undefined
      ? {}
      : { last_active: row.seenMs === null ? null : lastActiveOf(row.seenMs, Date.now()) }),
  }
}

export const toOwnProfile = (row: MemberRow, imgs: Image[]): OwnProfile => ({
  ...toProfile(row, imgs),
  date_of_birth: row.dateOfBirth,
  language: row.language,
})

/** When one member was last seen, as profileColumns.seenMs reads it (null: hidden, or unknown). */
export async function seenMsOf(db: Db, memberId: number): Promise<number | null> {
  const [row] = await db
    .select({ seenMs: profileColumns.seenMs })
    .from(members)
    .where(eq(members.id, memberId))
  return row?.seenMs ?? null
}

/** Profiles for rows already loaded, with their images in one extra query. */
export async function profilesFor(db: Db, rows: ProfileSource[]): Promise<Profile[]> {
  const imgs = await imagesOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => toProfile(r, imgs.get(r.id) ?? []))
}
