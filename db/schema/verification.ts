// Photo verification: a member's posed selfie waiting for a moderator, who
// approves it (members.verified_at is set) or refuses it with a statement
// of reasons. The selfie is kept only until the decision: its file is
// deleted then (a media.delete job in the decision's transaction) and the
// row keeps no file name (docs/operator-console.md, "Photo verification").
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
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
