// Appeals (DSA Art. 20): the member files one per decision with the token of
// their statement of reasons; another moderator upholds or lifts it.
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { appeals, sanctions } from '../../db/schema/index.ts'
import type { DecideRequest } from '../contract/operator/moderation.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { storeMail } from '../mail/mailer.ts'
import { audit } from '../shared/audit.ts'
import { hashToken } from '../shared/tokens.ts'
import {
  type DecideContext,
  type Decided,
  memberRow,
  sanctionView,
  secondsSince,
  statementVars,
} from './sanctions.ts'

export async function decideAppeal(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
): Promise<Decided> {
  if (input.action !== 'uphold' && input.action !== 'lift')
    throw new ApiFailure(400, 'invalid_input', 'action', 'an appeal is upheld or lifted')
  const [a] = await tx
    .select({ appeal: appeals, sanction: sanctions })
    .from(appeals)
    .innerJoin(sanctions, eq(sanctions.id, appeals.sanctionId))
    .where(eq(appeals.id, input.id))
    .for('update')
  if (!a) throw notFound()
  if (a.appeal.decidedAt) throw new ApiFailure(409, 'already_decided')
  // DSA Art. 20(6): an appeal is not decided by the moderator who made the decision.
  if (a.sanction.staffId === ctx.staffId)
    throw new ApiFailure(403, 'same_moderator', undefined, 'another moderator decides this appeal')
  const outcome = input.action === 'lift' ? 'lifted' : 'upheld'
  const actionSeconds = secondsSince(a.appeal.createdAt, ctx.now)
  await tx
    .update(appeals)
    .set({
      decidedAt: ctx.now,
      decidedBy: ctx.staffId,
      outcome,
      reason: input.reason,
      actionSeconds,
    })
    .where(eq(appeals.id, a.appeal.id))
  let sanction = a.sanction
  if (outcome === 'lifted') {
    const [row] = await tx
      .update(sanctions)
      .set({ liftedAt: ctx.now, liftedBy: ctx.staffId })
      .where(eq(sanctions.id, a.sanction.id))
      .returning()
    if (row) sanction = row
  }
  await audit(tx, ctx.staffId, {
    action: `appeal.${input.action}`,
    targetType: 'appeal',
    targetId: a.appeal.id,
    reason: input.reason,
    details: {
      member: a.sanction.memberId,
      sanction: a.sanction.id,
      decided_by: a.sanction.staffId,
      action_seconds: actionSeconds,
    },
  })
  const mailIds: number[] = []
  const member = await memberRow(tx, a.sanction.memberId)
  if (member && ctx.linkBase !== null)
    mailIds.push(
      await storeMail(tx, {
        memberId: member.id,
        kind: 'appeal_decision',
        to: member.email,
        locale: member.language,
        vars: {
          name: member.name,
          site: ctx.site,
          link: `${ctx.linkBase}/login`,
          statement: statementVars(a.sanction),
          appeal: { outcome, reason: input.reason },
        },
        plainText: true,
      }),
    )
  return { sanction: sanctionView(sanction), actionSeconds, mailIds, files: [] }
}

/** The sanction an appeal token was mailed with, or null. */
export async function sanctionByToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(sanctions)
    .where(eq(sanctions.appealTokenHash, hashToken(token)))
  if (!row) return null
  const [appeal] = await db
    .select()
    .from(appeals)
    .where(eq(appeals.sanctionId, row.id))
    .orderBy(desc(appeals.id))
    .limit(1)
  return { sanction: row, appeal: appeal ?? null }
}

/** Files an appeal; 409 while one is open or once one was decided (one appeal per decision). */
export async function fileAppeal(db: Db, token: string, text: string) {
  const found = await sanctionByToken(db, token)
  if (!found) throw notFound()
  if (found.appeal) throw new ApiFailure(409, 'already_appealed')
  const [row] = await db
    .insert(appeals)
    .values({ sanctionId: found.sanction.id, text })
    .onConflictDoNothing()
    .returning()
  if (!row) throw new ApiFailure(409, 'already_appealed')
  return row
}
