// Profile texts held for review (docs/law.md, "Profile texts held for
// review"). A new name, profile text or notes that fires a scam signal
// (messageSignals, api/contract/rules/scam.ts: the rule the first messages
// use) is not published: it waits in profile_text_reviews, one open row per
// member, and others keep seeing the previous text. A moderator approves it
// (published) or rejects it (dropped, with a statement of reasons the member
// can appeal, as for any removal).
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { profileTextReviews } from '../../db/schema/index.ts'
import type { DecideRequest, ModerationRule } from '../contract/operator/moderation.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { audit } from '../shared/audit.ts'
import { publishMemberTexts } from '../shared/members.ts'
import {
  approveOrReject,
  type DecideContext,
  type Decided,
  imposeSanction,
  mailStatement,
  memberRow,
  type SanctionRow,
  sanctionView,
  secondsSince,
} from './sanctions.ts'

/** The texts a review holds: the fields as the member sent them (notes: the whole notes map). */
export type HeldTexts = typeof profileTextReviews.$inferSelect.texts
export const HELD_TEXT_FIELDS = ['name', 'personal', 'notes'] as const
export type HeldTextField = (typeof HELD_TEXT_FIELDS)[number]

/**
 * Records a profile edit's texts: `held` (fired a signal) join the member's
 * open review, replacing what it held of those fields; `published` fields
 * (a clean value went live) leave it, so a later approval cannot overwrite
 * the newer text. A review left empty is closed as `withdrawn`.
 */
export async function reviewProfileTexts(
  db: Db,
  memberId: number,
  held: HeldTexts,
  signals: string[],
  published: HeldTextField[],
): Promise<void> {
  const drop = sql`ARRAY[${sql.join(
    published.map((f) => sql`${f}`),
    sql`, `,
  )}]::text[]`
  if (Object.keys(held).length > 0) {
    await db
      .insert(profileTextReviews)
      .values({ memberId, texts: held, signals: signals.join(',') })
      .onConflictDoUpdate({
        target: profileTextReviews.memberId,
        targetWhere: sql`decided_at IS NULL`,
        set: {
          texts: sql`(${profileTextReviews.texts} - ${drop}) || excluded.texts`,
          signals: sql`excluded.signals`,
        },
      })
    return
  }
  if (published.length === 0) return
  const left = sql`(${profileTextReviews.texts} - ${drop})`
  await db
    .update(profileTextReviews)
    .set({
      texts: left,
      decidedAt: sql`CASE WHEN ${left} = '{}'::jsonb THEN now() END`,
      decision: sql`CASE WHEN ${left} = '{}'::jsonb THEN 'withdrawn' END`,
    })
    .where(and(eq(profileTextReviews.memberId, memberId), isNull(profileTextReviews.decidedAt)))
}

/**
 * SQL: the fields of member `id`'s profile texts waiting for review,
 * `name,personal` (null: none), for the member's own account answer.
 */
export const textsInReviewSql = (id: SQL): SQL =>
  sql`(SELECT string_agg(k, ',' ORDER BY k) FROM profile_text_reviews ptr,
    jsonb_object_keys(ptr.texts) k WHERE ptr.member_id = ${id} AND ptr.decided_at IS NULL)`

/** Open reviews, oldest first (the moderation queue). */
export const heldProfileTexts = (db: Db, limit: number) =>
  db
    .select()
    .from(profileTextReviews)
    .where(isNull(profileTextReviews.decidedAt))
    .orderBy(asc(profileTextReviews.id))
    .limit(limit)

export async function profileTextReview(db: Db, id: number, lock = false) {
  const q = db.select().from(profileTextReviews).where(eq(profileTextReviews.id, id))
  const [row] = await (lock ? q.for('update') : q)
  return row
}

/** The held texts as a moderator reads them, one field a line. */
export const heldTextsText = (texts: HeldTexts): string =>
  [
    texts.name !== undefined ? `name: ${texts.name}` : null,
    texts.personal !== undefined ? `personal: ${texts.personal ?? ''}` : null,
    ...Object.entries(texts.notes ?? {}).map(([k, v]) => `notes.${k}: ${v}`),
  ]
    .filter((l) => l !== null)
    .join('\n')

/**
 * Approve publishes the held texts; reject drops them and sanctions
 * `remove_text` (a statement of reasons, appealable). Audited.
 */
export async function decideProfileText(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
): Promise<Decided> {
  approveOrReject(input, 'a profile text')
  const review = await profileTextReview(tx, input.id, true)
  if (!review) throw notFound()
  if (review.decidedAt) throw new ApiFailure(409, 'already_decided')
  const actionSeconds = secondsSince(review.createdAt, ctx.now)
  let sanction: SanctionRow | null = null
  let appealToken: string | null = null
  if (input.action === 'approve') await publishMemberTexts(tx, review.memberId, review.texts)
  else {
    ;({ sanction, appealToken } = await imposeSanction(tx, ctx, {
      memberId: review.memberId,
      kind: 'remove_text',
      rule: input.rule as ModerationRule,
      reason: input.reason,
      itemType: 'profile_text',
      itemId: review.id,
    }))
  }
  await tx
    .update(profileTextReviews)
    .set({ decidedAt: ctx.now, decidedBy: ctx.staffId, decision: input.action })
    .where(eq(profileTextReviews.id, review.id))
  await audit(tx, ctx.staffId, {
    action: `moderation.${input.action}_profile_text`,
    targetType: 'profile_text',
    targetId: review.id,
    reason: input.reason,
    details: {
      member: review.memberId,
      rule: input.rule ?? null,
      sanction: sanction?.id ?? null,
      action_seconds: actionSeconds,
    },
  })
  const mailIds: number[] = []
  const target = await memberRow(tx, review.memberId)
  if (ctx.linkBase !== null && sanction && appealToken && target && !target.deletedAt) {
    mailIds.push(await mailStatement(tx, ctx.site, ctx.linkBase, target, sanction, appealToken))
  }
  return { sanction: sanction ? sanctionView(sanction) : null, actionSeconds, mailIds, files: [] }
}
