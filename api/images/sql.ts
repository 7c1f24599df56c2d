// A member's pictures as a column of a caller's single statement (a list of
// profiles, the member's own account): a json array, oldest first.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { images } from '../../db/schema/index.ts'
import type { Image } from '../contract/index.ts'

/**
 * Member `member`'s approved pictures, oldest first, as a json array of
 * `{id, thumb_filename}`: what other members see of them (a pending picture
 * is for its owner and the moderators alone). `guest` (an answer a logged-out
 * visitor gets) keeps only the reviewed ones, as imagesOf does.
 */
export const approvedImagesSql = (member: SQL, options: { guest?: boolean } = {}): SQL<Image[]> =>
  sql<Image[]>`coalesce((
    SELECT json_agg(json_build_object('id', i.id, 'thumb_filename', i.thumb_filename) ORDER BY i.id)
    FROM images i WHERE i.member_id = ${member} AND i.status = 'approved'
      ${options.guest ? sql`AND i.reviewed` : sql``}), '[]'::json)`

/** Member `member`'s own pictures, pending ones too, as a json array of `{id, thumb, status}`. */
export const ownImagesSql = (member: SQL): SQL<{ id: number; thumb: string; status: string }[]> =>
  sql<{ id: number; thumb: string; status: string }[]>`coalesce((
    SELECT json_agg(json_build_object('id', i.id, 'thumb', i.thumb_filename, 'status', i.status) ORDER BY i.id)
    FROM images i WHERE i.member_id = ${member}), '[]'::json)`

/**
 * Whether member `member` has a picture a guest may see (approved and
 * reviewed): the guest home's showcase and the landers show only members
 * with one.
 */
export const guestPictureSql = (member: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM images gi
    WHERE gi.member_id = ${member} AND gi.status = 'approved' AND gi.reviewed)`

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
