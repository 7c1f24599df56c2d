// The same face on another account (docs/trust.md, "Same face on another
// account"): after an upload, the photo face job (PHOTO_FACE_JOB) reads the
// face of each new picture and compares it with the face descriptors
// verification keeps of its consenting verified members. A match puts the
// picture in the moderation queue (again, if a moderator saw it already)
// with the other account named; a match with a banned account's face hides it
// (pending) until a moderator decides, as a copy of a banned account's photo
// is (api/images/match.ts).
//
// Reading and comparing faces is the verification domain's (it keeps the
// descriptors and the consent): the app hands its check in (api/app.ts), as
// images comes before verification. The picture's own descriptor is computed
// in the job and forgotten with it: nothing of it is stored here.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { images } from '../../db/schema/index.ts'
import type { JobHandlers } from '../jobs/queue.ts'
import { PHOTO_FACE_JOB, refreshMainImage } from './images.ts'
import type { PictureStore } from './storage.ts'

/** Another account whose kept face is in the picture. */
export interface FaceMatch {
  member: number
  similarity: number
  /** That account is banned: the picture is hidden until a moderator decides. */
  banned: boolean
}

/**
 * Whether the face in the picture (the largest one) is another account's than
 * `memberId`'s kept face; null for no face, no such account or no picture.
 * `picture` reads it from the store, only when there is a face to compare
 * it with.
 */
export type PhotoFaceCheck = (
  memberId: number,
  picture: () => Promise<Uint8Array | null>,
) => Promise<FaceMatch | null>

async function checkPicture(db: Db, store: PictureStore, check: PhotoFaceCheck, id: number) {
  const [img] = await db.select().from(images).where(eq(images.id, id))
  if (!img) return
  // Inference outside any transaction: a second or more on a small machine.
  const match = await check(
    img.memberId,
    async () => (await store.get(img.filename))?.bytes ?? null,
  )
  if (!match) return
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(images)
      .set({
        faceMatchMemberId: match.member,
        faceMatchScore: match.similarity,
        // Back in the moderation queue, whether a moderator saw it already or not.
        reviewed: false,
        ...(match.banned ? { status: 'pending' } : {}),
      })
      .where(and(eq(images.id, id), eq(images.memberId, img.memberId)))
      .returning({ id: images.id })
    // Hidden now: it is no longer the main picture.
    if (row && match.banned) await refreshMainImage(tx, img.memberId, id)
  })
}

/** The photo face job's handler; without a store or a check (no face matching wired) it does nothing. */
export const photoFaceJobHandlers = (
  db: Db,
  store: PictureStore | undefined,
  check: PhotoFaceCheck | undefined,
): JobHandlers => ({
  [PHOTO_FACE_JOB]: async (payload) => {
    if (!store || !check) return
    const { ids } = payload as { ids: number[] }
    for (const id of ids) await checkPicture(db, store, check, id)
  },
})
