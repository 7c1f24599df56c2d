// The face job (FACE_JOB): after a consenting member's selfie is stored, the
// machine reads it and the member's approved photos (face-match.ts) and
// writes its scores on the request. With `face_match = auto` it approves a
// clear case itself: exactly one face, the head turned the way asked, a
// photo at least AUTO_SIMILARITY alike, and no other account with the same
// face. Everything else waits for a moderator, who sees the scores. The
// machine never refuses: a refusal is a person's statement of reasons.
//
// Inference runs outside any transaction (seconds on a small machine); the
// result is written in one that checks the request still waits and still
// has the member's consent (a withdrawal in between wins).
import { and, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { faceDescriptors, verifications } from '../../db/schema/index.ts'
import {
  approvedPhotoFiles,
  type PhotoFaceCheck,
  type PictureStore,
  queueFileRemoval,
} from '../images/index.ts'
import type { JobHandlers } from '../jobs/queue.ts'
import { audit } from '../shared/audit.ts'
import { markVerified } from '../shared/members.ts'
import {
  AUTO_SIMILARITY,
  type FaceReading,
  poseMatches,
  readFace,
  SAME_FACE_SIMILARITY,
  similarities,
  similarity,
} from './face-match.ts'
import { FACE_JOB, keepDescriptor, turnOf } from './verification.ts'

/** The audit log's action for a verification `face_match = auto` approved without a person. */
export const MACHINE_APPROVAL = 'machine.approve_verification'

/** At most this many approved photos are compared (the oldest first): enough, and bounded time. */
const MAX_PHOTOS = 6

interface FacePayload {
  id: number
  mode: 'auto' | 'assist'
}

export interface FaceScores {
  reading: FaceReading
  poseOk: boolean
  best: number | null
  photos: number
  sameAs: { member: number; similarity: number; banned: boolean } | null
}

async function bytesOf(store: PictureStore, name: string): Promise<Uint8Array | null> {
  return (await store.get(name))?.bytes ?? null
}

/**
 * SQL true when member `id` is banned: the moderation domain's rule
 * (bannedMemberSql), handed in by the wiring (api/app.ts), since moderation
 * builds on verification and not the other way round.
 */
export type BannedSql = (id: SQL) => SQL

/**
 * The kept descriptor of another account that is at least
 * SAME_FACE_SIMILARITY alike, if any: a banned account's first (the face of
 * a ban evader coming back matters most), else the most similar.
 */
export async function sameFace(
  db: Db,
  memberId: number,
  descriptor: number[],
  bannedSql?: BannedSql,
) {
  const kept = await db
    .select({
      memberId: faceDescriptors.memberId,
      descriptor: faceDescriptors.descriptor,
      banned: bannedSql
        ? sql<boolean>`${bannedSql(sql`${faceDescriptors.memberId}`)}`
        : sql<boolean>`false`,
    })
    .from(faceDescriptors)
    .where(ne(faceDescriptors.memberId, memberId))
  // One request to the face worker for all of them.
  const scores = await similarities(
    descriptor,
    kept.map((k) => k.descriptor),
  )
  let found: { member: number; similarity: number; banned: boolean } | null = null
  for (const [i, k] of kept.entries()) {
    const s = scores[i] ?? 0
    if (s < SAME_FACE_SIMILARITY) continue
    const better =
      !found || (k.banned && !found.banned) || (k.banned === found.banned && s > found.similarity)
    if (better) found = { member: k.memberId, similarity: s, banned: k.banned }
  }
  return found
}

/**
 * The face check of a new profile photo (the images domain's photo face job,
 * api/images/face.ts, wired in api/app.ts): the picture's largest face
 * against the descriptors kept of other consenting verified members. The
 * picture's descriptor lives only in this call: it is never stored, whoever
 * uploaded it (docs/law.md, "GDPR": Art. 9). No kept descriptor of another
 * account, no reading at all.
 */
export const photoFaceCheck =
  (db: Db, bannedSql?: BannedSql): PhotoFaceCheck =>
  async (memberId, picture) => {
    const [other] = await db
      .select({ id: faceDescriptors.memberId })
      .from(faceDescriptors)
      .where(ne(faceDescriptors.memberId, memberId))
      .limit(1)
    if (!other) return null
    const bytes = await picture()
    if (!bytes) return null
    const reading = await readFace(bytes)
    if (reading.faces === 0 || !reading.descriptor) return null
    return sameFace(db, memberId, reading.descriptor, bannedSql)
  }

/** Reads a selfie and compares it with the member's approved photos and other accounts' kept faces. */
export async function scoreSelfie(
  db: Db,
  store: PictureStore,
  row: { memberId: number; selfie: string; turn: number },
  bannedSql?: BannedSql,
): Promise<FaceScores | null> {
  const selfie = await bytesOf(store, row.selfie)
  if (!selfie) return null
  const reading = await readFace(selfie)
  const poseOk = reading.faces === 1 && poseMatches(turnOf(row.turn), reading.yaw)
  let best: number | null = null
  let photos = 0
  if (reading.faces === 1 && reading.descriptor) {
    for (const file of (await approvedPhotoFiles(db, row.memberId)).slice(0, MAX_PHOTOS)) {
      const bytes = await bytesOf(store, file)
      if (!bytes) continue
      const photo = await readFace(bytes)
      if (photo.faces !== 1 || !photo.descriptor) continue
      photos++
      const s = await similarity(reading.descriptor, photo.descriptor)
      if (best === null || s > best) best = s
    }
  }
  const sameAs = reading.descriptor
    ? await sameFace(db, row.memberId, reading.descriptor, bannedSql)
    : null
  return { reading, poseOk, best, photos, sameAs }
}

/** Whether `auto` may approve without a person. */
export const clearMatch = (s: FaceScores) =>
  s.reading.faces === 1 &&
  s.poseOk &&
  s.best !== null &&
  s.best >= AUTO_SIMILARITY &&
  s.sameAs === null

async function runFaceJob(
  db: Db,
  store: PictureStore,
  payload: FacePayload,
  bannedSql: BannedSql | undefined,
) {
  const [row] = await db.select().from(verifications).where(eq(verifications.id, payload.id))
  if (row?.status !== 'pending' || !row.faceConsent || !row.selfie) return
  const scores = await scoreSelfie(db, store, { ...row, selfie: row.selfie }, bannedSql)
  if (!scores) return
  const approve = payload.mode === 'auto' && clearMatch(scores)
  const now = new Date()
  const files = await db.transaction(async (tx) => {
    const done = await tx
      .update(verifications)
      .set({
        faceCheckedAt: now,
        faceCount: scores.reading.faces,
        faceYaw: scores.reading.yaw,
        facePoseOk: scores.poseOk,
        faceSimilarity: scores.best,
        facePhotos: scores.photos,
        faceSameAs: scores.sameAs?.member ?? null,
        faceSameScore: scores.sameAs?.similarity ?? null,
        ...(approve
          ? { status: 'approved', selfie: null, decidedAt: now, faceAuto: true }
          : { faceDescriptor: scores.reading.faces === 1 ? scores.reading.descriptor : null }),
      })
      .where(
        and(
          eq(verifications.id, row.id),
          eq(verifications.status, 'pending'),
          eq(verifications.faceConsent, true),
        ),
      )
      .returning({ id: verifications.id })
    if (done.length === 0 || !approve) return []
    await markVerified(tx, row.memberId, now)
    // The console's audit log shows the machine's approval beside the
    // moderators' decisions, with what it measured.
    await audit(tx, null, {
      action: MACHINE_APPROVAL,
      targetType: 'verification',
      targetId: row.id,
      reason: 'face_match=auto: a clear match',
      details: {
        member: row.memberId,
        faces: scores.reading.faces,
        yaw: scores.reading.yaw,
        pose_ok: scores.poseOk,
        similarity: scores.best,
        photos: scores.photos,
        threshold: AUTO_SIMILARITY,
      },
    })
    if (scores.reading.descriptor) await keepDescriptor(tx, row.memberId, scores.reading.descriptor)
    const gone = row.selfie ? [row.selfie] : []
    await queueFileRemoval(tx, gone)
    return gone
  })
  if (files.length > 0) await store.delete(files).catch(() => undefined)
}

/** The face job's handler; without a picture store there is no selfie to read. */
export const faceJobHandlers = (
  db: Db,
  store: PictureStore | undefined,
  options: { bannedSql?: BannedSql } = {},
): JobHandlers => ({
  [FACE_JOB]: async (payload) => {
    if (!store) return
    await runFaceJob(db, store, payload as FacePayload, options.bannedSql)
  },
})
