// Profile pictures (spec §5 "png or jpeg"). The bytes decide what a
// file is, never its name or its Content-Type; every accepted picture is
// decoded and re-encoded, which drops whatever rode along (EXIF with GPS,
// comments, polyglot payloads), under a name the server makes up.
import { randomBytes } from 'node:crypto'
import { and, asc, eq, type SQL, sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { Db } from '../../db/client.ts'
import { images } from '../../db/schema/index.ts'
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PER_MEMBER,
  IMAGE_MAX_PIXELS,
  type ProfileImagesResponse,
} from '../contract/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { enqueue } from '../jobs/queue.ts'
import { lockMember, memberFields, setMainImageId } from '../shared/members.ts'
import { photoHash, photoMatches } from './match.ts'
import { filesOf, queueFileRemoval, removeFilesNow } from './media.ts'
import { imageOf } from './sql.ts'
import { type PictureStore, withStore } from './storage.ts'

/** The face check of new pictures (api/images/face.ts), queued with their rows. */
export const PHOTO_FACE_JOB = 'images.photo_face'

/** The longest edge of a stored picture; the thumbnail's square edge (as the demo seed's). */
export const IMAGE_MAX_EDGE = 1600
export const THUMB_SIZE = 160
const JPEG_QUALITY = 85

const ACCEPTED = new Set(['jpeg', 'png'])
/** A photo in a chat may also be a webp (what phones' share sheets often hand over). */
export const CHAT_ACCEPTED = new Set(['jpeg', 'png', 'webp'])

const fileFailure = (status: 400 | 413, code: string, message: string) =>
  new ApiFailure(status, code, 'file', message)

/** Checks one upload by its bytes and renders the picture and its thumbnail. */
export async function processImage(
  bytes: Buffer,
  accepted: ReadonlySet<string> = ACCEPTED,
): Promise<{ image: Buffer; thumb: Buffer }> {
  if (bytes.length > IMAGE_MAX_BYTES) throw fileFailure(413, 'file_too_large', 'file too large')
  const input = { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' as const }
  let format: string | undefined
  let pixels = 0
  try {
    // The header alone (no pixels decoded), so the pixel limit can be named.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata()
    format = meta.format
    pixels = (meta.width ?? 0) * (meta.height ?? 0)
  } catch {
    throw fileFailure(400, 'invalid_image', 'not a png or jpeg picture')
  }
  if (!format || !accepted.has(format)) {
    throw fileFailure(400, 'invalid_image', `not a ${[...accepted].join(' or ')} picture`)
  }
  if (pixels > IMAGE_MAX_PIXELS) throw fileFailure(400, 'image_too_large', 'too many pixels')
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped;
    // sharp writes no metadata unless asked to (no withMetadata/keepExif).
    const base = sharp(bytes, input).rotate().flatten({ background: '#ffffff' })
    const [image, thumb] = await Promise.all([
      base
        .clone()
        .resize(IMAGE_MAX_EDGE, IMAGE_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: JPEG_QUALITY })
        .toBuffer(),
      base
        .clone()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' })
        .jpeg({ quality: 78 })
        .toBuffer(),
    ])
    return { image, thumb }
  } catch {
    // A header that parses over a body that does not (truncated, corrupt).
    throw fileFailure(400, 'invalid_image', 'the picture cannot be read')
  }
}

/** The member's pictures, oldest first (pending and private ones marked), and the main one. */
export async function ownImages(db: Db, memberId: number): Promise<ProfileImagesResponse> {
  const [rows, member] = await Promise.all([
    db
      .select({
        id: images.id,
        thumb: images.thumbFilename,
        status: images.status,
        private: images.private,
      })
      .from(images)
      .where(eq(images.memberId, memberId))
      .orderBy(asc(images.id)),
    memberFields(db, memberId, ['mainImageId']),
  ])
  const list = rows.map(imageOf)
  const shown = list.find((r) => r.id === member?.mainImageId && !r.pending && !r.private)
  const main = shown ? { id: shown.id, thumb_filename: shown.thumb_filename } : null
  return { images: list, main_image: main }
}

/**
 * Stores the uploads of one request, all or none. Every file is checked and
 * rendered first, so one bad file refuses the whole request. Then:
 * 1. every picture and thumbnail is put in the store under its new random
 *    name (a put is whole or nothing: api/images/storage.ts); no row names
 *    them yet, so nobody can ask for them;
 * 2. one transaction locks the member's row (two uploads at once count one
 *    after the other, so IMAGE_MAX_PER_MEMBER holds), inserts every row and
 *    sets the first picture a member has as the main one;
 * 3. on any failure every file of the request is deleted and no row stays.
 * With `pending` (the site pre-moderates photos) the rows wait for a
 * moderator: seen only by their owner, never the main picture until approved.
 * Either way the rows are unreviewed: guests do not see them until a
 * moderator approved them from the queue (db/schema/profiles.ts `reviewed`).
 * Each row keeps its picture's perceptual hash and the closest picture of
 * another account it matches (api/images/match.ts), which the moderator sees;
 * a picture matching one of a banned account (`bannedSql`) is stored pending
 * whatever the site's setting. With `faceCheck` the photo face job is queued
 * with the rows (api/images/face.ts): the same face on another account.
 * A crash between the puts and the commit leaves unreferenced files under
 * random names: garbage, never a row without its file.
 */
export async function saveImages(
  db: Db,
  memberId: number,
  store: PictureStore,
  files: Buffer[],
  options: { pending?: boolean; bannedSql?: (member: SQL) => SQL; faceCheck?: boolean } = {},
): Promise<ProfileImagesResponse> {
  const status = options.pending ? 'pending' : 'approved'
  const rendered = []
  for (const bytes of files) rendered.push(await processImage(bytes))
  const hashes = await Promise.all(rendered.map((r) => photoHash(r.image)))
  const written: string[] = []
  const planned = rendered.map(() => {
    const base = randomBytes(12).toString('hex')
    return { filename: `${base}.jpg`, thumbFilename: `${base}_t.jpg` }
  })
  try {
    for (const [i, { image, thumb }] of rendered.entries()) {
      const names = planned[i]!
      for (const [name, bytes] of [
        [names.filename, image],
        [names.thumbFilename, thumb],
      ] as const) {
        written.push(name)
        await withStore(() => store.put(name, bytes, 'image/jpeg'))
      }
    }
    await db.transaction(async (tx) => {
      await lockMember(tx, memberId)
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(images)
        .where(eq(images.memberId, memberId))
      if ((count?.n ?? 0) + rendered.length > IMAGE_MAX_PER_MEMBER) {
        throw fileFailure(400, 'too_many_images', `at most ${IMAGE_MAX_PER_MEMBER} pictures`)
      }
      const matches = await photoMatches(tx, memberId, hashes, options.bannedSql)
      const rows = await tx
        .insert(images)
        .values(
          planned.map((names, i) => ({
            memberId,
            ...names,
            status: matches[i]?.banned ? 'pending' : status,
            reviewed: false,
            phash: hashes[i] ?? null,
            matchImageId: matches[i]?.imageId ?? null,
            matchMemberId: matches[i]?.memberId ?? null,
          })),
        )
        .returning({ id: images.id, status: images.status })
      if (rows.length !== planned.length) throw new Error('image rows not stored')
      if (options.faceCheck)
        await enqueue(tx, { kind: PHOTO_FACE_JOB, payload: { ids: rows.map((r) => r.id) } })
      const shown = rows.filter((r) => r.status === 'approved')
      if (shown.length > 0) {
        const first = Math.min(...shown.map((r) => r.id))
        await setMainImageId(tx, memberId, first, null)
      }
    })
  } catch (e) {
    await store.delete(written).catch(() => undefined)
    throw e
  }
  return ownImages(db, memberId)
}

export async function setMainImage(db: Db, memberId: number, id: number) {
  await db.transaction(async (tx) => {
    // Locked as setPhotoPrivate does: the main picture is never a private one.
    await lockMember(tx, memberId)
    const [own] = await tx
      .select({ id: images.id, status: images.status, private: images.private })
      .from(images)
      .where(and(eq(images.id, id), eq(images.memberId, memberId)))
    if (!own) throw notFound()
    // Others would see the main picture: a pending one must wait for approval,
    // a private one must be made public first.
    if (own.status === 'pending') throw new ApiFailure(409, 'photo_pending', 'id')
    if (own.private) throw new ApiFailure(409, 'photo_private', 'id')
    await setMainImageId(tx, memberId, id)
  })
  return ownImages(db, memberId)
}

/**
 * Promotes the member's oldest approved public picture to main when the main one is
 * `removed` or missing; call in the transaction that removed or approved one.
 */
export async function refreshMainImage(tx: Db, memberId: number, removed?: number) {
  const [next] = await tx
    .select({ id: images.id })
    .from(images)
    .where(
      and(eq(images.memberId, memberId), eq(images.status, 'approved'), eq(images.private, false)),
    )
    .orderBy(asc(images.id))
    .limit(1)
  await setMainImageId(tx, memberId, next?.id ?? null, removed ?? null)
}

/**
 * Removes one picture of a member in `tx`: the row, the main picture moved
 * on, and the deletion of its files queued (api/images/media.ts). Null when
 * the member has no such picture.
 */
export async function removeImageRow(tx: Db, memberId: number, id: number) {
  const [row] = await tx
    .delete(images)
    .where(and(eq(images.id, id), eq(images.memberId, memberId)))
    .returning()
  if (!row) return null
  await refreshMainImage(tx, memberId, id)
  const files = filesOf([row])
  await queueFileRemoval(tx, files)
  return { row, files }
}

/** Removes a picture (another member's is a 404); the oldest approved one left becomes main. */
export async function deleteImage(
  db: Db,
  memberId: number,
  store: PictureStore | undefined,
  id: number,
) {
  const removed = await db.transaction(async (tx) => {
    const done = await removeImageRow(tx, memberId, id)
    if (!done) throw notFound()
    return done
  })
  const done = await removeFilesNow(store, removed.files)
  return { answer: await ownImages(db, memberId), filesLeft: !done }
}
