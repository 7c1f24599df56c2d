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
   * When the member was last seen (ms since the epoch), as others may know
   * it: members.public_seen_at, kept by the database (the later of their
   * newest session use, renewed at most every SESSION_TOUCH_S, and the
   * page-hidden beacon's last activity; null when they hide it). Answered as
   * `last_active`.
   */
  seenMs: sql<number | null>`extract(epoch FROM ${members.publicSeenAt}) * 1000`
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
 * own answers) adds their pending pictures, marked; `guest` (an answer a
 * logged-out visitor or a search engine gets) keeps only the reviewed ones.
 */
export async function imagesOf(
  db: Db,
  memberIds: number[],
  options: { own?: boolean; guest?: boolean } = {},
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
        options.guest ? eq(images.reviewed, true) : undefined,
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

/**
 * Whether a member has a picture a guest may see (reviewed): the guest
 * home's showcase and the landers show only members with one.
 */
export const hasGuestPicture = sql`EXISTS (SELECT 1 FROM ${images} gi
  WHERE gi.member_id = "members"."id" AND gi.status = 'approved' AND gi.reviewed)`

/** Profiles for rows already loaded, with their images in one extra query (`guest`: imagesOf). */
export async function profilesFor(
  db: Db,
  rows: ProfileSource[],
  options: { guest?: boolean } = {},
): Promise<Profile[]> {
  const imgs = await imagesOf(
    db,
    rows.map((r) => r.id),
    options,
  )
  return rows.map((r) => toProfile(r, imgs.get(r.id) ?? []))
}
