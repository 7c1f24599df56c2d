// Decisions on notices: a member's report, a public complaint and a first
// message held by the scam signals. Each kind opens its item (locked, not
// yet decided); the decision then acts on the member it names, imposes the
// sanction, records itself on the item, and is audited and mailed.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { reports } from '../../db/schema/index.ts'
import { heldOpening, refuseOpening, releaseOpening } from '../chats/index.ts'
import { answerComplaint, complaintById } from '../complaints/index.ts'
import type { DecideRequest, ModerationRule } from '../contract/operator/moderation.ts'
import { SCAM_ACTIONS } from '../contract/rules/moderation.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { removeImageRow } from '../images/index.ts'
import { storeMail } from '../mail/mailer.ts'
import { audit } from '../shared/audit.ts'
import { clearMemberTexts, setFictional } from '../shared/members.ts'
import { memberOfUrl } from './queue.ts'
import {
  DAY_MS,
  type DecideContext,
  type Decided,
  endSessionsAndPushes,
  imposeSanction,
  type MemberRow,
  mailStatement,
  memberRow,
  type SanctionRow,
  sanctionView,
  secondsSince,
} from './sanctions.ts'

/** What an open notice brings to its decision. */
interface Notice {
  created: Date
  /** The member the decision acts on, if the item names one. */
  targetMember: number | null
  /** Whoever reported it, told the decision; null: nobody to tell. */
  informs: { memberId: number | null; to: string; name: string; locale: string } | null
}

/** Decides a member's report; the reporter is told the decision. */
export async function decideReport(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
): Promise<Decided> {
  const [r] = await tx.select().from(reports).where(eq(reports.id, input.id)).for('update')
  if (!r) throw notFound()
  if (r.decidedAt || r.status !== 'open') throw new ApiFailure(409, 'already_decided')
  const reporter = await memberRow(tx, r.reporterId)
  return decideNotice(tx, input, ctx, {
    created: r.createdAt,
    targetMember: r.reportedId,
    informs: reporter
      ? {
          memberId: reporter.id,
          to: reporter.email,
          name: reporter.name,
          locale: reporter.language,
        }
      : null,
  })
}

/** Decides a held first message: released (dismiss) or refused with a sanction. */
export async function decideScam(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
): Promise<Decided> {
  const f = await heldOpening(tx, input.id, true)
  if (!f) throw notFound()
  if (f.status !== 'held') throw new ApiFailure(409, 'already_decided')
  if (!(SCAM_ACTIONS as readonly string[]).includes(input.action))
    throw new ApiFailure(
      400,
      'invalid_input',
      'action',
      'a held message is released (dismiss) or refused with warn, suspend or ban',
    )
  return decideNotice(tx, input, ctx, {
    created: f.createdAt,
    targetMember: f.memberId,
    informs: null,
  })
}

/** Decides a public complaint about the member it names (or its URL points at); its sender is told. */
export async function decideComplaint(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
): Promise<Decided> {
  const c = await complaintById(tx, input.id, true)
  if (!c) throw notFound()
  if (c.decidedAt) throw new ApiFailure(409, 'already_decided')
  return decideNotice(tx, input, ctx, {
    created: c.createdAt,
    targetMember: input.member ?? memberOfUrl(c.url),
    informs: { memberId: c.memberId, to: c.email, name: c.name, locale: c.locale },
  })
}

/**
 * The decision on an open notice: the action's effect and sanction, the
 * item's decision and time to action, the audit row and the mails.
 */
async function decideNotice(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
  notice: Notice,
): Promise<Decided> {
  const action = input.action
  if (action !== 'dismiss' && !input.rule)
    throw new ApiFailure(400, 'invalid_input', 'rule', 'a decision names the rule it applies')
  const target =
    action === 'dismiss' || notice.targetMember === null
      ? null
      : await memberRow(tx, notice.targetMember)
  if (action !== 'dismiss' && !target)
    throw new ApiFailure(422, 'no_member', 'member', 'the item names no member to act on')
  const effect =
    target && input.rule
      ? await act(tx, input, ctx, target, input.rule)
      : { files: [], sanction: null, appealToken: null }
  const { sanction, appealToken } = effect
  const actionSeconds = secondsSince(notice.created, ctx.now)
  await recordDecision(tx, input, ctx, actionSeconds)
  await audit(tx, ctx.staffId, {
    action: `moderation.${action}`,
    targetType: input.type,
    targetId: input.id,
    reason: input.reason,
    details: {
      member: target?.id ?? null,
      rule: input.rule ?? null,
      ...(input.days ? { days: input.days } : {}),
      ...(input.photo ? { photo: input.photo } : {}),
      sanction: sanction?.id ?? null,
      action_seconds: actionSeconds,
    },
  })
  const mailIds: number[] = []
  if (ctx.linkBase !== null) {
    if (sanction && target && appealToken) {
      mailIds.push(await mailStatement(tx, ctx.site, ctx.linkBase, target, sanction, appealToken))
    }
    if (notice.informs)
      mailIds.push(await mailInformant(tx, ctx, ctx.linkBase, notice.informs, action))
  }
  const view = sanction ? sanctionView(sanction) : null
  return { sanction: view, actionSeconds, mailIds, files: effect.files }
}

/** The action's effect on the member, and the sanction it imposes (none for the fictional mark). */
async function act(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
  target: MemberRow,
  rule: ModerationRule,
): Promise<{ files: string[]; sanction: SanctionRow | null; appealToken: string | null }> {
  const action = input.action
  const files: string[] = []
  switch (action) {
    case 'suspend':
      if (!input.days) throw new ApiFailure(400, 'invalid_input', 'days', 'a suspension needs days')
      await endSessionsAndPushes(tx, target.id)
      break
    case 'ban':
      await endSessionsAndPushes(tx, target.id)
      break
    case 'remove_photo': {
      if (!input.photo) throw new ApiFailure(400, 'invalid_input', 'photo', 'which photo')
      const gone = await removeImageRow(tx, target.id, input.photo)
      if (!gone) throw new ApiFailure(422, 'no_such_photo', 'photo')
      files.push(...gone.files)
      break
    }
    case 'remove_text':
      await clearMemberTexts(tx, target.id)
      break
    case 'mark_fictional':
    case 'unmark_fictional':
      await setFictional(tx, target.id, action === 'mark_fictional')
      return { files, sanction: null, appealToken: null }
  }
  const imposed = await imposeSanction(tx, ctx, {
    memberId: target.id,
    kind: action,
    rule,
    reason: input.reason,
    itemType: input.type,
    itemId: input.id,
    endsAt:
      action === 'suspend' && input.days ? new Date(ctx.now.getTime() + input.days * DAY_MS) : null,
  })
  return { files, ...imposed }
}

/** The item's own record of its decision. */
async function recordDecision(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
  actionSeconds: number,
) {
  const action = input.action
  const decision = { decidedAt: ctx.now, decidedBy: ctx.staffId, decision: action, actionSeconds }
  if (input.type === 'scam') {
    // Dismissed: the message was fine after all and goes out now; any
    // restricting action refuses it (its credits refunded) with the sanction above.
    if (action === 'dismiss') await releaseOpening(tx, input.id, ctx.staffId, ctx.now, ctx.linkBase)
    else await refuseOpening(tx, input.id, ctx.staffId, ctx.now)
  } else if (input.type === 'report')
    await tx
      .update(reports)
      .set({ ...decision, status: 'decided' })
      .where(eq(reports.id, input.id))
  else await answerComplaint(tx, input.id, decision)
}

/** Tells whoever reported the item what was decided. */
const mailInformant = (
  tx: Db,
  ctx: DecideContext,
  linkBase: string,
  informs: NonNullable<Notice['informs']>,
  action: DecideRequest['action'],
) =>
  storeMail(tx, {
    memberId: informs.memberId,
    kind: 'report_decision',
    to: informs.to,
    locale: informs.locale,
    vars: {
      name: informs.name,
      site: ctx.site,
      link: `${linkBase}/complaints?kind=decision`,
      decision: { acted: action !== 'dismiss', action },
    },
    plainText: true,
  })
