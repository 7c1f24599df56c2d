// Private photos (docs/payments.md, "What credits buy"): a member marks any of
// their pictures but the main one private; other members see a locked tile
// and unlock it for the site's `private_photo_credits`, once per picture and
// viewer (photo_unlocks, unique), paid in the statement that stores the unlock;
// guests, search, landers and the showcase never see it (api/images/sql.ts).
//
// A private picture's files carry PRIVATE_PREFIX. /media serves every other
// name as before (public, cached a year, no database read) and looks a
// prefixed name up: only its owner, a member who unlocked it and staff get it
// (api/images/serve.ts). Turning a picture private or public again puts its
// files under new random names and deletes the old ones, so a link (or a
// cached copy) of the public picture never shows the private one.

import { randomBytes } from 'node:crypto'
import { and, asc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import { type Db, hasPgCode } from '../../db/client.ts'
import { images, photoUnlocks } from '../../db/schema/index.ts'
import { blockedBetweenSql } from '../blocks/index.ts'
import type { PhotoUnlocksResponse, UnlockPhotoResponse } from '../contract/index.ts'
import { balanceOf, debitInStatement } from '../credits/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { liveMemberSql, liveMembersSql, lockMember, memberFields } from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'
import { ownImages } from './images.ts'
import { filesOf, queueFileRemoval, removeFilesNow } from './media.ts'
import { type PictureStore, withStore } from './storage.ts'

/** The start of a private picture's file names; no public picture's name starts so. */
export const PRIVATE_PREFIX = 'p-'

export const isPrivateName = (name: string) => name.startsWith(PRIVATE_PREFIX)

/**
 * PUT /api/privatephoto.php: marks the member's picture `id` private or
 * public again. Another member's picture is a 404; the main picture cannot be
 * private (409 photo_main: others always see the face of the profile; make
 * another picture main first). Asking for the state it has changes nothing.
 * Unlocks stay when a picture turns public: if it turns private again, who
 * paid still sees it.
 */
export async function setPhotoPrivate(
  db: Db,
  memberId: number,
  store: PictureStore | undefined,
  id: number,
  makePrivate: boolean,
) {
  const [row] = await db
    .select({
      filename: images.filename,
      thumbFilename: images.thumbFilename,
      private: images.private,
    })
    .from(images)
    .where(and(eq(images.id, id), eq(images.memberId, memberId)))
  if (!row) throw notFound()
  if (row.private === makePrivate)
    return { answer: await ownImages(db, memberId), filesLeft: false }
  if (makePrivate && (await memberFields(db, memberId, ['mainImageId']))?.mainImageId === id) {
    throw new ApiFailure(409, 'photo_main', 'id')
  }
  if (!store) throw new ApiFailure(503, 'uploads_unavailable')
  const base = `${makePrivate ? PRIVATE_PREFIX : ''}${randomBytes(12).toString('hex')}`
  const names = { filename: `${base}.jpg`, thumbFilename: `${base}_t.jpg` }
  const written: string[] = []
  let changed: boolean
  try {
    for (const [from, to] of [
      [row.filename, names.filename],
      [row.thumbFilename, names.thumbFilename],
    ] as const) {
      const picture = await withStore(() => store.get(from))
      if (!picture) throw notFound()
      written.push(to)
      await withStore(() => store.put(to, picture.bytes, 'image/jpeg'))
    }
    changed = await db.transaction(async (tx) => {
      // setMainImage takes the same lock: a picture never turns private
      // while it becomes the main one.
      await lockMember(tx, memberId)
      if (makePrivate && (await memberFields(tx, memberId, ['mainImageId']))?.mainImageId === id) {
        throw new ApiFailure(409, 'photo_main', 'id')
      }
      const done = await tx
        .update(images)
        .set({ private: makePrivate, ...names })
        .where(
          and(
            eq(images.id, id),
            eq(images.memberId, memberId),
            eq(images.private, !makePrivate),
            eq(images.filename, row.filename),
          ),
        )
        .returning({ id: images.id })
      if (done.length === 0) return false
      await queueFileRemoval(tx, filesOf([row]))
      return true
    })
  } catch (e) {
    await store.delete(written).catch(() => undefined)
    throw e
  }
  // A concurrent change won: its names stay, this request's copies go.
  if (!changed) await store.delete(written).catch(() => undefined)
  const done = changed ? await removeFilesNow(store, filesOf([row])) : true
  return { answer: await ownImages(db, memberId), filesLeft: !done }
}

const UnlockRow = z.object({
  found: z.coerce.number(),
  charged: z.coerce.number(),
  credits: z.coerce.number().nullable(),
  thumb: z.string().nullable(),
})

/**
 * POST /api/photounlock.php: `viewer` unlocks another member's private
 * picture for `price` credits. One statement stores the unlock (unique per
 * picture and viewer, ON CONFLICT DO NOTHING) and, only when it stored one,
 * debits the price with its ledger row (reason `unlock`): a replay, or a
 * second request racing the first, finds the row and charges nothing. A
 * balance short of the price fails the statement's CHECK: 402 with nothing
 * stored. Not a private picture of a live member other than the viewer: 404.
 */
export async function unlockPhoto(
  db: Db,
  viewer: number,
  id: number,
  price: number,
): Promise<UnlockPhotoResponse> {
  let rows: z.infer<typeof UnlockRow>[]
  try {
    rows = await rowsOf(
      db,
      sql`WITH photo AS (
        SELECT i.id, i.thumb_filename FROM images i
        WHERE i.id = ${id} AND i.private AND i.status = 'approved'
          AND i.member_id <> ${viewer} AND ${liveMemberSql(sql`i.member_id`)}
          -- Blocked either way: the owner's pictures are not for this viewer (a 404).
          AND NOT ${blockedBetweenSql(sql`i.member_id`, sql`${viewer}::bigint`)}
      ), unlocked AS (
        INSERT INTO photo_unlocks (image_id, viewer_id)
        SELECT photo.id, ${viewer} FROM photo
        ON CONFLICT (image_id, viewer_id) DO NOTHING
        RETURNING image_id
      ), ${debitInStatement({
        member: sql`${viewer}::bigint`,
        amount: sql`${price}::integer`,
        reason: 'unlock',
        after: 'unlocked',
        reference: sql`'unlock:' || unlocked.image_id || ':' || ${viewer}::bigint`,
      })}
      SELECT (SELECT count(*) FROM photo) AS found, (SELECT count(*) FROM unlocked) AS charged,
        (SELECT credits FROM debit) AS credits, (SELECT thumb_filename FROM photo) AS thumb`,
      UnlockRow,
    )
  } catch (e) {
    // CHECK (credits >= 0): the balance does not cover the price.
    if (hasPgCode(e, '23514')) {
      throw new ApiFailure(402, 'insufficient_credits', undefined, 'not enough credits', {
        credits: await balanceOf(db, viewer),
        cost: price,
      })
    }
    throw e
  }
  const row = rows[0]
  if (!row || row.found === 0 || row.thumb === null) throw notFound()
  const credits =
    row.charged > 0 && row.credits !== null ? row.credits : await balanceOf(db, viewer)
  return {
    image: { id, thumb_filename: row.thumb, private: true },
    credits,
    charged: row.charged > 0 ? price : 0,
  }
}

/** GET /api/photounlock.php: who unlocked the member's private pictures, newest first. */
export async function photoUnlocksOf(db: Db, owner: number): Promise<PhotoUnlocksResponse> {
  const rows = await rowsOf(
    db,
    sql`SELECT u.image_id, u.viewer_id, v.name, u.created_at
      FROM photo_unlocks u
      JOIN images i ON i.id = u.image_id
      JOIN ${liveMembersSql} v ON v.id = u.viewer_id
      WHERE i.member_id = ${owner}
      ORDER BY u.created_at DESC, u.id DESC
      LIMIT 500`,
    z.object({
      image_id: z.coerce.number(),
      viewer_id: z.coerce.number(),
      name: z.string(),
      created_at: z.union([z.date(), z.string()]),
    }),
  )
  return {
    unlocks: rows.map((r) => ({
      image_id: r.image_id,
      member: { id: r.viewer_id, name: r.name },
      unlocked_at: new Date(r.created_at).toISOString(),
    })),
  }
}

/**
 * Whether `viewer` may see the private picture file `name`: its owner, or a
 * member who unlocked it. False for a name no private picture has.
 */
export async function mayViewPrivateFile(db: Db, name: string, viewer: number | null) {
  if (viewer === null) return false
  const [row] = await db
    .select({ id: images.id })
    .from(images)
    .where(
      and(
        eq(images.private, true),
        sql`(${images.filename} = ${name} OR ${images.thumbFilename} = ${name})`,
        // Spelled out: drizzle writes a lone table's columns unqualified,
        // which the subquery would read as its own.
        sql`(images.member_id = ${viewer} OR EXISTS (
          SELECT 1 FROM photo_unlocks u WHERE u.image_id = images.id AND u.viewer_id = ${viewer}))`,
      ),
    )
    .limit(1)
  return row !== undefined
}

/** Whether any private picture has the file `name` (staff may see it: moderation). */
export async function isPrivateFile(db: Db, name: string) {
  const [row] = await db
    .select({ id: images.id })
    .from(images)
    .where(
      and(
        eq(images.private, true),
        sql`(${images.filename} = ${name} OR ${images.thumbFilename} = ${name})`,
      ),
    )
    .limit(1)
  return row !== undefined
}

/**
 * The unlocks of the member's private pictures for the data export: per
 * picture, who unlocked it and when, oldest first.
 */
export async function unlocksByImage(db: Db, owner: number) {
  const rows = await db
    .select({
      imageId: photoUnlocks.imageId,
      viewerId: photoUnlocks.viewerId,
      at: photoUnlocks.createdAt,
    })
    .from(photoUnlocks)
    .innerJoin(images, eq(images.id, photoUnlocks.imageId))
    .where(eq(images.memberId, owner))
    .orderBy(asc(photoUnlocks.id))
  const out = new Map<number, { member_id: number; unlocked_at: string }[]>()
  for (const r of rows) {
    const list = out.get(r.imageId) ?? []
    list.push({ member_id: r.viewerId, unlocked_at: r.at.toISOString() })
    out.set(r.imageId, list)
  }
  return out
}

/** Drops the member's unlocks of others' pictures (their account goes). */
export async function dropUnlocksBy(tx: Db, viewer: number) {
  await tx.delete(photoUnlocks).where(eq(photoUnlocks.viewerId, viewer))
}
