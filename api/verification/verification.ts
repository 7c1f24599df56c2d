// Photo verification: a member proves the person in their photos is them
// with a selfie taking a pose the site picks (VERIFICATION_POSES), and a
// moderator compares it with the profile photos in the moderation queue.
// Decisions (docs/operator-console.md, "Photo verification"):
// - the selfie is private: stored under a `selfie-` name the public /media
//   route refuses (api/images/serve.ts), shown to staff only, inside the
//   queue item (a data: URL), never to the member or others;
// - it is kept only until the decision: the decision's transaction drops the
//   row's file name and queues the file's deletion (media.delete), and the
//   request deletes it at once after the commit;
// - approval sets members.verified_at; a later change of photos keeps it
//   (as Tinder does): the mark says a moderator once saw this person take
//   the pose; photos others upload are still moderated as any photo is.
//   After a refusal the member may start a new request at once;
// - a refusal mails the moderator's statement of reasons in the member's
//   language. It restricts nothing (the profile, photos and account stay as
//   they are), so it is no DSA Art. 17 sanction: no appeal token and no
//   Transparency Database submission; the redress is a new request.
import { randomBytes, randomInt } from 'node:crypto'
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { faceDescriptors, verifications } from '../../db/schema/index.ts'
import { VERIFICATION_POSES, type VerificationStatus } from '../contract/index.ts'
import { HEAD_TURNS, type HeadTurn, type VerificationPose } from '../contract/rules/verification.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import {
  type PictureStore,
  pictureDataUrl,
  processImage,
  queueFileRemoval,
  SELFIE_PREFIX,
  withStore,
} from '../images/index.ts'
import { enqueue } from '../jobs/queue.ts'
import { storeMail } from '../mail/mailer.ts'
import { audit } from '../shared/audit.ts'
import { liveMemberSql, markVerified, memberFields } from '../shared/members.ts'
import { AUTO_SIMILARITY } from './face-match.ts'

type Row = typeof verifications.$inferSelect

const poseOf = (n: number): VerificationPose => VERIFICATION_POSES[n] ?? VERIFICATION_POSES[0]
export const turnOf = (n: number): HeadTurn => HEAD_TURNS[n] ?? HEAD_TURNS[0]

/** The job that reads the face of a selfie (api/verification/face-job.ts). */
export const FACE_JOB = 'verification.face'

async function latest(db: Db, memberId: number): Promise<Row | null> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(eq(verifications.memberId, memberId))
    .orderBy(desc(verifications.id))
    .limit(1)
  return row ?? null
}

/** GET /api/verification.php: verified or not, and the latest request. */
export async function verificationStatus(db: Db, memberId: number): Promise<VerificationStatus> {
  const [member, row] = await Promise.all([
    memberFields(db, memberId, ['verifiedAt']),
    latest(db, memberId),
  ])
  const open = row?.status === 'started' || row?.status === 'pending'
  return {
    verified: Boolean(member?.verifiedAt),
    state: (row?.status as VerificationStatus['state'] | undefined) ?? 'none',
    pose: row && open ? poseOf(row.pose) : null,
    turn: row && open ? turnOf(row.turn) : null,
    reason: row?.status === 'refused' ? row.reason : null,
    // Withdrawal clears the flag on every request of the member.
    face_consent: row?.faceConsent ?? false,
  }
}

/**
 * POST /api/verification.php: a request with a pose picked at random, or the
 * open one (a second start, a retry, shows the same pose). 409
 * `already_verified` for a verified member, `verification_pending` while a
 * selfie waits for a moderator.
 */
export async function startVerification(
  db: Db,
  memberId: number,
  faceConsent = false,
): Promise<VerificationStatus> {
  const now = await verificationStatus(db, memberId)
  if (now.verified) throw new ApiFailure(409, 'already_verified')
  if (now.state === 'pending') throw new ApiFailure(409, 'verification_pending')
  if (now.state === 'started') {
    if (now.face_consent === faceConsent) return now
    // The member changed their mind before sending the selfie.
    await db
      .update(verifications)
      .set({ faceConsent })
      .where(and(eq(verifications.memberId, memberId), eq(verifications.status, 'started')))
    return { ...now, face_consent: faceConsent }
  }
  // The partial unique index keeps one open request per member, whatever races.
  await db
    .insert(verifications)
    .values({
      memberId,
      pose: randomInt(VERIFICATION_POSES.length),
      turn: randomInt(HEAD_TURNS.length),
      faceConsent,
    })
    .onConflictDoNothing()
  return verificationStatus(db, memberId)
}

/**
 * POST /api/verification_selfie.php: the selfie of the open request, checked
 * and re-encoded as every picture is (api/images/images.ts), put in the store
 * under a private name, then the request waits for a moderator. 409
 * `no_verification` without a started request (start first), and the file
 * is deleted again.
 */
export async function saveSelfie(
  db: Db,
  memberId: number,
  store: PictureStore,
  bytes: Buffer,
  faceMatch: 'auto' | 'assist' | 'off' = 'off',
): Promise<VerificationStatus> {
  const current = await verificationStatus(db, memberId)
  if (current.verified) throw new ApiFailure(409, 'already_verified')
  if (current.state === 'pending') throw new ApiFailure(409, 'verification_pending')
  if (current.state !== 'started') throw new ApiFailure(409, 'no_verification')
  const { image } = await processImage(bytes)
  const name = `${SELFIE_PREFIX}${randomBytes(12).toString('hex')}.jpg`
  await withStore(() => store.put(name, image, 'image/jpeg'))
  try {
    await db.transaction(async (tx) => {
      const rows = await tx
        .update(verifications)
        .set({ selfie: name, status: 'pending', submittedAt: new Date() })
        .where(and(eq(verifications.memberId, memberId), eq(verifications.status, 'started')))
        .returning({ id: verifications.id, faceConsent: verifications.faceConsent })
      const row = rows[0]
      if (!row) throw new ApiFailure(409, 'no_verification')
      // No consent, no face processing: the request waits for a moderator as it is.
      if (row.faceConsent && faceMatch !== 'off')
        await enqueue(tx, { kind: FACE_JOB, payload: { id: row.id, mode: faceMatch } })
    })
  } catch (e) {
    await store.delete([name]).catch(() => undefined)
    throw e
  }
  return verificationStatus(db, memberId)
}

/** Selfies waiting for a moderator, of live members, oldest first. */
export async function pendingVerifications(db: Db, limit: number) {
  return db
    .select({
      id: verifications.id,
      memberId: verifications.memberId,
      createdAt: verifications.submittedAt,
    })
    .from(verifications)
    .where(and(eq(verifications.status, 'pending'), liveMemberSql(sql`${verifications.memberId}`)))
    .orderBy(asc(verifications.submittedAt), asc(verifications.id))
    .limit(limit)
}

/** One request for the console: the pose and, while it waits, the selfie as a data: URL (staff only). */
export async function verificationCase(db: Db, id: number, store: PictureStore | undefined) {
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id))
  if (!row || row.status === 'started' || !row.submittedAt) return null
  const selfie = row.selfie && store ? await pictureDataUrl(store, row.selfie) : null
  return {
    row: { ...row, submittedAt: row.submittedAt },
    pose: poseOf(row.pose),
    turn: turnOf(row.turn),
    selfie,
    face:
      row.faceCheckedAt === null
        ? null
        : {
            faces: row.faceCount ?? 0,
            pose_ok: row.facePoseOk ?? false,
            similarity: row.faceSimilarity,
            photos: row.facePhotos ?? 0,
            threshold: AUTO_SIMILARITY,
            auto: row.faceAuto,
            same_as:
              row.faceSameAs === null
                ? null
                : { member: row.faceSameAs, similarity: row.faceSameScore ?? 0 },
          },
  }
}

export interface VerificationDecision {
  id: number
  action: 'approve' | 'reject'
  reason: string
  staffId: number
  now: Date
  site: string
  /** The site's address for the mail's link; null: no mail. */
  linkBase: string | null
}

/**
 * Approves or refuses a selfie in `tx` (the moderation decision's
 * transaction): the request decided once (409 after), the member verified on
 * approval, the selfie's file name dropped and its deletion queued, the
 * audit row, and on refusal the statement of reasons mailed. Answers the
 * files to delete after the commit, the mails to send and the time to action.
 */
export async function decideVerification(tx: Db, d: VerificationDecision) {
  const [row] = await tx
    .select()
    .from(verifications)
    .where(eq(verifications.id, d.id))
    .for('update')
  if (!row || row.status === 'started') throw notFound()
  if (row.status !== 'pending') throw new ApiFailure(409, 'already_decided')
  const approved = d.action === 'approve'
  await tx
    .update(verifications)
    .set({
      status: approved ? 'approved' : 'refused',
      selfie: null,
      faceDescriptor: null,
      decidedAt: d.now,
      decidedBy: d.staffId,
      reason: d.reason,
    })
    .where(eq(verifications.id, row.id))
  if (approved) {
    await markVerified(tx, row.memberId, d.now)
    if (row.faceConsent && row.faceDescriptor)
      await keepDescriptor(tx, row.memberId, row.faceDescriptor)
  }
  const files = row.selfie ? [row.selfie] : []
  await queueFileRemoval(tx, files)
  const actionSeconds = Math.max(
    0,
    Math.round((d.now.getTime() - (row.submittedAt ?? row.createdAt).getTime()) / 1000),
  )
  await audit(tx, d.staffId, {
    action: `moderation.${d.action}_verification`,
    targetType: 'verification',
    targetId: row.id,
    reason: d.reason,
    details: { member: row.memberId, action_seconds: actionSeconds },
  })
  const mailIds: number[] = []
  if (!approved && d.linkBase !== null) {
    const m = await memberFields(tx, row.memberId, ['name', 'email', 'language', 'deletedAt'])
    if (m && !m.deletedAt)
      mailIds.push(
        await storeMail(tx, {
          memberId: row.memberId,
          kind: 'verification_refused',
          to: m.email,
          locale: m.language,
          vars: {
            name: m.name,
            site: d.site,
            link: `${d.linkBase}/verify`,
            statement: { kind: 'refuse_verification', rule: '', reason: d.reason, ends: '' },
          },
          plainText: true,
        }),
      )
  }
  return { files, mailIds, actionSeconds, memberId: row.memberId }
}

/**
 * Account deletion: the member's requests go, and the files of a selfie still
 * waiting are returned for the caller to delete (with a queued job, as photos).
 */
export async function dropVerifications(tx: Db, memberId: number): Promise<string[]> {
  await tx.delete(faceDescriptors).where(eq(faceDescriptors.memberId, memberId))
  const gone = await tx
    .delete(verifications)
    .where(eq(verifications.memberId, memberId))
    .returning({ selfie: verifications.selfie })
  return gone.flatMap((r) => (r.selfie ? [r.selfie] : []))
}

/**
 * The member's photo verification for their data export (GDPR Art. 15/20):
 * when they were verified, and each request's pose, state, times and, for a
 * refusal, the moderator's reasons. `selfie_held` says whether the site
 * still holds the request's selfie (until the decision deletes it). The
 * picture itself stays out, as it stays out of every member answer (it is
 * shown to staff in the queue only); the export names no file either. The
 * moderator's identity stays out (staff, not the member's data).
 */
export async function verificationExport(db: Db, memberId: number) {
  const member = await memberFields(db, memberId, ['verifiedAt'])
  const rows = await db
    .select()
    .from(verifications)
    .where(eq(verifications.memberId, memberId))
    .orderBy(asc(verifications.id))
  const [kept] = await db
    .select({ createdAt: faceDescriptors.createdAt })
    .from(faceDescriptors)
    .where(eq(faceDescriptors.memberId, memberId))
  const iso = (d: Date | null) => d?.toISOString() ?? null
  return {
    verified_at: iso(member?.verifiedAt ?? null),
    // That a face descriptor is kept and since when; the numbers themselves
    // are a model's output, meaningless to read, and stay out.
    face_descriptor: kept ? { kept_since: iso(kept.createdAt) } : null,
    requests: rows.map((r) => ({
      pose: poseOf(r.pose),
      turn: turnOf(r.turn),
      face_consent: r.faceConsent,
      face_checked_at: iso(r.faceCheckedAt),
      face_similarity: r.faceSimilarity,
      face_pose_ok: r.facePoseOk,
      approved_by_machine: r.faceAuto,
      state: r.status,
      started_at: iso(r.createdAt),
      submitted_at: iso(r.submittedAt),
      decided_at: iso(r.decidedAt),
      reason: r.status === 'refused' ? r.reason : null,
      selfie_held: r.selfie !== null,
    })),
  }
}

/** Keeps a verified, consenting member's face descriptor (one per member: the latest). */
export async function keepDescriptor(tx: Db, memberId: number, descriptor: number[]) {
  await tx
    .insert(faceDescriptors)
    .values({ memberId, descriptor })
    .onConflictDoUpdate({
      target: faceDescriptors.memberId,
      set: { descriptor, createdAt: sql`now()` },
    })
}

/**
 * DELETE /api/verification_face.php: the member withdraws the consent to face
 * matching (GDPR Art. 7(3)): the kept descriptor is deleted, every request of
 * theirs forgets the consent and the descriptor of a selfie still waiting (a
 * face job not run yet then does nothing). The verified mark stays: it was
 * given lawfully before the withdrawal.
 */
export async function withdrawFaceConsent(db: Db, memberId: number): Promise<VerificationStatus> {
  await db.transaction(async (tx) => {
    await tx.delete(faceDescriptors).where(eq(faceDescriptors.memberId, memberId))
    await tx
      .update(verifications)
      .set({ faceConsent: false, faceDescriptor: null })
      .where(eq(verifications.memberId, memberId))
  })
  return verificationStatus(db, memberId)
}
