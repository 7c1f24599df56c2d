// What moderation and the console need of the images table: photos no
// moderator saw yet, a member's photos, one photo (locked while it is
// decided), its approval, and a member's photo count.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { images } from '../../db/schema/index.ts'
import { liveMemberSql } from '../shared/members.ts'

export type ImageRow = typeof images.$inferSelect

/**
 * Photos of live members no moderator saw yet, oldest first: those held by
 * pre-moderation and, where the site does not pre-moderate, those members
 * already see but guests do not (post-moderation).
 */
export const unreviewedPhotos = (db: Db, limit: number) =>
  db
    .select({
      id: images.id,
      memberId: images.memberId,
      createdAt: images.createdAt,
      matchMemberId: images.matchMemberId,
      faceMatchMemberId: images.faceMatchMemberId,
    })
    .from(images)
    .where(and(eq(images.reviewed, false), liveMemberSql(sql`${images.memberId}`)))
    .orderBy(asc(images.id))
    .limit(limit)

/** A member's photos (id, thumbnail, status), oldest first. */
export const memberPhotos = (db: Db, memberId: number) =>
  db
    .select({ id: images.id, thumb: images.thumbFilename, status: images.status })
    .from(images)
    .where(eq(images.memberId, memberId))
    .orderBy(asc(images.id))

/** The files of the member's approved photos, full size, oldest first: what photo verification's face match compares. */
export async function approvedPhotoFiles(db: Db, memberId: number): Promise<string[]> {
  const rows = await db
    .select({ file: images.filename })
    .from(images)
    .where(and(eq(images.memberId, memberId), eq(images.status, 'approved')))
    .orderBy(asc(images.id))
  return rows.map((r) => r.file)
}

/** One photo, or undefined; `lock`: held (FOR UPDATE) until the caller's transaction ends. */
export async function photoById(db: Db, id: number, lock = false): Promise<ImageRow | undefined> {
  const q = db.select().from(images).where(eq(images.id, id))
  const [row] = lock ? await q.for('update') : await q
  return row
}

/** A moderator approved the photo: visible to guests too, and reviewed. */
export async function approvePhoto(tx: Db, id: number): Promise<void> {
  await tx.update(images).set({ status: 'approved', reviewed: true }).where(eq(images.id, id))
}

/** How many photos the member has, of any status. */
export async function photoCount(db: Db, memberId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(images)
    .where(eq(images.memberId, memberId))
  return row?.n ?? 0
}
