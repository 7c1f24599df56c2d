// The member's pictures when their account goes or is exported (api/accounts).
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { images } from '../../db/schema/index.ts'
import { filesOf } from './media.ts'
import { dropUnlocksBy, unlocksByImage } from './private.ts'
import { pictureDataUrl } from './serve.ts'
import type { PictureStore } from './storage.ts'

/**
 * Deletes the member's picture rows in `tx` (the unlocks of them go with
 * them, a foreign key's cascade) and their unlocks of others' private
 * pictures; the names of their files (to delete after the commit).
 */
export async function dropMemberImages(tx: Db, memberId: number): Promise<string[]> {
  await dropUnlocksBy(tx, memberId)
  const gone = await tx
    .delete(images)
    .where(eq(images.memberId, memberId))
    .returning({ filename: images.filename, thumbFilename: images.thumbFilename })
  return filesOf(gone)
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/**
 * The photos section of the member's data export: each picture with its
 * links under `base`, and its bytes read from `pictures` (a `data:` URL, null
 * when the store has none by that name), so the document stays complete
 * after the pictures are deleted; `main` marks the main one, `private` a
 * private one, with who unlocked it (`member`: their id) and when.
 */
export async function photosExport(
  db: Db,
  memberId: number,
  {
    base,
    mainImageId,
    pictures,
  }: { base: string; mainImageId: number | null; pictures?: PictureStore },
) {
  const photos = await db
    .select()
    .from(images)
    .where(eq(images.memberId, memberId))
    .orderBy(asc(images.id))
  const unlocks = await unlocksByImage(db, memberId)
  const out = []
  for (const p of photos) {
    out.push({
      id: p.id,
      url: `${base}/media/${p.filename}`,
      thumbnail_url: `${base}/media/${p.thumbFilename}`,
      picture: pictures ? await pictureDataUrl(pictures, p.filename) : null,
      uploaded_at: iso(p.createdAt),
      main: p.id === mainImageId,
      private: p.private,
      unlocked_by: (unlocks.get(p.id) ?? []).map((u) => ({
        member: u.member_id,
        unlocked_at: u.unlocked_at,
      })),
    })
  }
  return out
}
