// A photo no moderator saw yet, decided: approved or rejected.
import type { Db } from '../../db/client.ts'
import type { DecideRequest, ModerationRule } from '../contract/operator/moderation.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { approvePhoto, photoById, refreshMainImage, removeImageRow } from '../images/index.ts'
import { audit } from '../shared/audit.ts'
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

/**
 * Decides a photo no moderator saw yet: approve (it becomes visible, to
 * guests too, and the main picture if the member has none; a picture members
 * already saw, where the site does not pre-moderate, is marked reviewed) or
 * reject (it is removed, and the
 * member gets a statement of reasons they can appeal, as for any removal).
 * Audited; the time to action is in the audit row.
 */
export async function decidePhoto(
  tx: Db,
  input: DecideRequest,
  ctx: DecideContext,
): Promise<Decided> {
  approveOrReject(input, 'a photo')
  const img = await photoById(tx, input.id, true)
  if (!img) throw notFound()
  if (img.reviewed) throw new ApiFailure(409, 'already_decided')
  const actionSeconds = secondsSince(img.createdAt, ctx.now)
  const files: string[] = []
  const mailIds: number[] = []
  let sanction: SanctionRow | null = null
  let appealToken: string | null = null
  if (input.action === 'approve') {
    await approvePhoto(tx, img.id)
    await refreshMainImage(tx, img.memberId)
  } else {
    const gone = await removeImageRow(tx, img.memberId, img.id)
    if (gone) files.push(...gone.files)
    ;({ sanction, appealToken } = await imposeSanction(tx, ctx, {
      memberId: img.memberId,
      kind: 'remove_photo',
      rule: input.rule as ModerationRule,
      reason: input.reason,
      itemType: 'photo',
      itemId: img.id,
    }))
  }
  await audit(tx, ctx.staffId, {
    action: `moderation.${input.action}_photo`,
    targetType: 'photo',
    targetId: img.id,
    reason: input.reason,
    details: {
      member: img.memberId,
      rule: input.rule ?? null,
      sanction: sanction?.id ?? null,
      action_seconds: actionSeconds,
    },
  })
  const target = await memberRow(tx, img.memberId)
  if (ctx.linkBase !== null && sanction && appealToken && target && !target.deletedAt) {
    mailIds.push(await mailStatement(tx, ctx.site, ctx.linkBase, target, sanction, appealToken))
  }
  return { sanction: sanction ? sanctionView(sanction) : null, actionSeconds, mailIds, files }
}
