// Photo verification: a member's posed selfie waiting for a moderator, who
// approves it (members.verified_at is set) or refuses it with a statement
// of reasons. The selfie is kept only until the decision: its file is
// deleted then (a media.delete job in the decision's transaction) and the
// row keeps no file name (docs/operator-console.md, "Photo verification").
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  foreignKey,
  index,
  pgTable,
  real,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'
import { staff } from './staff.ts'

export const verifications = pgTable(
  'verifications',
  {
    id: id(),
    memberId: ref('member_id').notNull(),
    /** The pose the site asked for (VERIFICATION_POSES, api/contract/rules/verification.ts). */
    pose: smallint('pose').notNull(),
    /** The head turn asked with the pose (HEAD_TURNS, api/contract/rules/verification.ts): the machine's pose check. */
    turn: smallint('turn').notNull().default(0),
    /**
     * The member's explicit consent (GDPR Art. 9(2)(a)) to the machine
     * comparing their face; without it no face is processed (a moderator only).
     */
    faceConsent: boolean('face_consent').notNull().default(false),
    /** When the face check ran (null: not run, no consent or face_match off). */
    faceCheckedAt: ts('face_checked_at'),
    /** Faces found in the selfie (the check wants exactly one). */
    faceCount: smallint('face_count'),
    /** The head's yaw in the selfie, radians (api/verification/face-match.ts says which way). */
    faceYaw: real('face_yaw'),
    /** The head was turned the way asked. */
    facePoseOk: boolean('face_pose_ok'),
    /** The best face similarity (0..1) of the selfie to the member's approved photos; null: no face compared. */
    faceSimilarity: real('face_similarity'),
    /** The selfie's face descriptor until the decision: kept in face_descriptors on approval, dropped otherwise. */
    faceDescriptor: real('face_descriptor').array(),
    /** How many approved photos had one face to compare with. */
    facePhotos: smallint('face_photos'),
    /** Approved by the machine (face_match = auto), no moderator. */
    faceAuto: boolean('face_auto').notNull().default(false),
    /** Another account whose kept face descriptor matches this selfie (a flag for the moderator; no auto approval). */
    faceSameAs: ref('face_same_as'),
    /** That match's similarity. */
    faceSameScore: real('face_same_score'),
    /** The selfie in the picture store, under private/ (never served by /media); null before the upload and after the decision. */
    selfie: text('selfie'),
    /** started (pose shown, no selfie yet) | pending | approved | refused */
    status: text('status').notNull().default('started'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When the selfie came: the queue's order and the time to action. */
    submittedAt: ts('submitted_at'),
    decidedAt: ts('decided_at'),
    decidedBy: ref('decided_by'),
    /** The moderator's statement of reasons for a refusal. */
    reason: text('reason'),
  },
  (t) => [
    index('verifications_member_idx').on(t.memberId, t.id),
    index('verifications_pending_idx').on(t.submittedAt).where(sql`status = 'pending'`),
    // One open request per member (started or pending): a second start reuses it.
    uniqueIndex('verifications_open_key')
      .on(t.memberId)
      .where(sql`status IN ('started', 'pending')`),
    foreignKey({
      name: 'verifications_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'verifications_decided_by_fkey',
      columns: [t.decidedBy],
      foreignColumns: [staff.id],
    }),
    check(
      'verifications_status_check',
      sql`"status" IN ('started', 'pending', 'approved', 'refused')`,
    ),
  ],
)

/**
 * The face descriptor of a verified member who consented (GDPR Art. 9(2)(a)):
 * 1024 numbers a model computed from the approved selfie, never the picture.
 * Kept to find the same face behind another account; deleted with the
 * account (cascade) and when the member withdraws consent.
 */
export const faceDescriptors = pgTable(
  'face_descriptors',
  {
    memberId: ref('member_id').primaryKey(),
    descriptor: real('descriptor').array().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'face_descriptors_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)
