// Profile pictures (spec §5 "png or jpeg"). The bytes decide what a
// file is, never its name or its Content-Type; every accepted picture is
// decoded and re-encoded, which drops whatever rode along (EXIF with GPS,
// comments, polyglot payloads), under a name the server makes up.
import { randomBytes } from 'node:crypto'
import { mkdir, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { Db } from '../../db/client.ts'
import { images, members } from '../../db/schema.ts'
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PER_MEMBER,
  IMAGE_MAX_PIXELS,
  type ProfileImagesResponse,
} from '../contract/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'

/** The longest edge of a stored picture; the thumbnail's square edge (as the demo seed's). */
export const IMAGE_MAX_EDGE = 1600
export const THUMB_SIZE = 160
const JPEG_QUALITY = 85

const ACCEPTED = new Set(['jpeg', 'png'])

const fileFailure = (status: 400 | 413, code: string, message: string) =>
  new ApiFailure(status, code, 'file', message)

/** Checks one upload by its bytes and renders the picture and its thumbnail. */
export async function processImage(bytes: Buffer): Promise<{ image: Buffer; thumb: Buffer }> {
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
  if (!format || !ACCEPTED.has(format)) {
    throw fileFailure(400, 'invalid_image', 'not a png or jpeg picture')
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

/** The member's pictures, oldest first, and the main one. */
export async function ownImages(db: Db, memberId: number): Promise<ProfileImagesResponse> {
  const [rows, [member]] = await Promise.all([
    db
      .select({ id: images.id, thumb_filename: images.thumbFilename })
      .from(images)
      .where(eq(images.memberId, memberId))
      .orderBy(asc(images.id)),
    db.select({ main: members.mainImageId }).from(members).where(eq(members.id, memberId)),
  ])
  const main = rows.find((r) => r.id === member?.main) ?? null
  return { images: rows, main_image: main }
}

/**
 * Stores uploads: all are checked and rendered before anything is written,
 * so one bad file refuses the whole request. The first picture a member has
 * becomes the main one (a conditional update: two uploads at once agree).
 */
export async function saveImages(
  db: Db,
  memberId: number,
  mediaDir: string,
  files: Buffer[],
): Promise<ProfileImagesResponse> {
  const rendered = []
  for (const bytes of files) rendered.push(await processImage(bytes))
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(images)
    .where(eq(images.memberId, memberId))
  if ((count?.n ?? 0) + rendered.length > IMAGE_MAX_PER_MEMBER) {
    throw fileFailure(400, 'too_many_images', `at most ${IMAGE_MAX_PER_MEMBER} pictures`)
  }
  await mkdir(mediaDir, { recursive: true })
  for (const { image, thumb } of rendered) {
    const base = randomBytes(12).toString('hex')
    const names = { filename: `${base}.jpg`, thumbFilename: `${base}_t.jpg` }
    await writeFile(join(mediaDir, names.filename), image, { flag: 'wx' })
    await writeFile(join(mediaDir, names.thumbFilename), thumb, { flag: 'wx' })
    const [row] = await db
      .insert(images)
      .values({ memberId, ...names })
      .returning({ id: images.id })
    if (!row) throw new Error('image row not stored')
    await db
      .update(members)
      .set({ mainImageId: row.id })
      .where(and(eq(members.id, memberId), isNull(members.mainImageId)))
  }
  return ownImages(db, memberId)
}

export async function setMainImage(db: Db, memberId: number, id: number) {
  const [own] = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.id, id), eq(images.memberId, memberId)))
  if (!own) throw notFound()
  await db.update(members).set({ mainImageId: id }).where(eq(members.id, memberId))
  return ownImages(db, memberId)
}

/** Removes a picture (another member's is a 404); the oldest left becomes main. */
export async function deleteImage(
  db: Db,
  memberId: number,
  mediaDir: string | undefined,
  id: number,
) {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(images)
      .where(and(eq(images.id, id), eq(images.memberId, memberId)))
      .returning()
    if (!row) throw notFound()
    const [next] = await tx
      .select({ id: images.id })
      .from(images)
      .where(eq(images.memberId, memberId))
      .orderBy(asc(images.id))
      .limit(1)
    await tx
      .update(members)
      .set({ mainImageId: next?.id ?? null })
      .where(and(eq(members.id, memberId), eq(members.mainImageId, id)))
    return row
  })
  if (mediaDir) {
    // Best effort: a file left behind is unreachable garbage, not a leak of a live picture.
    for (const f of [removed.filename, removed.thumbFilename]) {
      await unlink(join(mediaDir, f)).catch(() => undefined)
    }
  }
  return ownImages(db, memberId)
}
