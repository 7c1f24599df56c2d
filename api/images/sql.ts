// A member's pictures as a column of a caller's single statement (a list of
// profiles, the member's own account): a json array, oldest first.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { images } from '../../db/schema/index.ts'
import type { Image } from '../contract/index.ts'

/**
 * Member `member`'s approved public pictures, oldest first, as a json array of
 * `{id, thumb_filename}`: what other members see of them in lists (a pending
 * picture is for its owner and the moderators alone; a private one shows on
 * the profile page only, profileImagesOf). `guest` (an answer a logged-out
 * visitor gets) keeps only the reviewed ones, as imagesOf does.
 */
export const approvedImagesSql = (member: SQL, options: { guest?: boolean } = {}): SQL<Image[]> =>
  sql<Image[]>`coalesce((
    SELECT json_agg(json_build_object('id', i.id, 'thumb_filename', i.thumb_filename) ORDER BY i.id)
    FROM images i WHERE i.member_id = ${member} AND i.status = 'approved' AND NOT i.private
      ${options.guest ? sql`AND i.reviewed` : sql``}), '[]'::json)`

type OwnImageRow = { id: number; thumb: string; status: string; private?: boolean }

/** Member `member`'s own pictures, pending and private ones too, as a json array of `{id, thumb, status, private}`. */
export const ownImagesSql = (member: SQL): SQL<OwnImageRow[]> =>
  sql<OwnImageRow[]>`coalesce((
    SELECT json_agg(json_build_object('id', i.id, 'thumb', i.thumb_filename, 'status', i.status, 'private', i.private) ORDER BY i.id)
    FROM images i WHERE i.member_id = ${member}), '[]'::json)`

/**
 * Whether member `member` has a picture a guest may see (approved,
 * reviewed and not private): the guest home's showcase and the landers show only members
 * with one.
 */
export const guestPictureSql = (member: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM images gi
    WHERE gi.member_id = ${member} AND gi.status = 'approved' AND gi.reviewed AND NOT gi.private)`

/**
 * A stored picture as the API answers it; a pending one (pre-moderation) is
 * marked, for its owner only, and so is a private one (its owner, or a
 * viewer who unlocked it).
 */
export const imageOf = (r: OwnImageRow): Image => ({
  id: r.id,
  thumb_filename: r.thumb,
  ...(r.status === 'pending' ? { pending: true as const } : {}),
  ...(r.private ? { private: true as const } : {}),
})

/**
 * Images of many members in one query, grouped by member, oldest first.
 * Approved public pictures only: every answer about other members is built
 * from this (search tiles, profiles, likes, chats, landers). `own` (the
 * member's own answers) adds their pending and private pictures, marked; `guest` (an answer a
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
      private: images.private,
    })
    .from(images)
    .where(
      and(
        inArray(images.memberId, memberIds),
        options.own ? undefined : eq(images.status, 'approved'),
        options.own ? undefined : eq(images.private, false),
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

/**
 * The pictures of member `member`'s profile page as `viewer` sees them, in
 * one query: the approved public ones, the private ones `viewer` unlocked
 * or owns (marked private), and the ids of the private ones still locked (a locked
 * tile with its price). A guest (`viewer` null) gets the reviewed public
 * pictures only and no locked ones: they never learn of private pictures.
 */
export async function profileImagesOf(
  db: Db,
  member: number,
  viewer: number | null,
): Promise<{ images: Image[]; locked: { id: number }[] }> {
  if (viewer === null) {
    return { images: (await imagesOf(db, [member], { guest: true })).get(member) ?? [], locked: [] }
  }
  const rows = await db
    .select({
      id: images.id,
      thumb: images.thumbFilename,
      status: images.status,
      private: images.private,
      // Spelled out: drizzle writes a lone table's columns unqualified, which
      // the subquery would read as its own.
      unlocked: sql<boolean>`images.private AND (images.member_id = ${viewer} OR EXISTS (
        SELECT 1 FROM photo_unlocks pu WHERE pu.image_id = images.id AND pu.viewer_id = ${viewer}))`,
    })
    .from(images)
    .where(and(eq(images.memberId, member), eq(images.status, 'approved')))
    .orderBy(images.id)
  const shown: Image[] = []
  const locked: { id: number }[] = []
  for (const r of rows) {
    if (r.private && !r.unlocked) locked.push({ id: r.id })
    else shown.push(imageOf(r))
  }
  return { images: shown, locked }
}
