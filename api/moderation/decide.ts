// Decisions on queue items, one transaction each: the kind of item decides
// who acts (notices: decide-notice.ts; photos: decide-photo.ts; appeals:
// appeals.ts; selfies: the verification domain).
import type { Db } from '../../db/client.ts'
import type { DecideRequest } from '../contract/operator/moderation.ts'
import { ApiFailure } from '../http/errors.ts'
import { decideVerification } from '../verification/index.ts'
import { decideAppeal } from './appeals.ts'
import { decideComplaint, decideReport, decideScam } from './decide-notice.ts'
import { decidePhoto } from './decide-photo.ts'
import { decideProfileText } from './profile-texts.ts'
import type { DecideContext, Decided } from './sanctions.ts'

/**
 * Decides a queue item in one transaction: the item's decision and time to
 * action, the action's effect, its sanction, the audit row and the mails.
 */
export async function decide(db: Db, input: DecideRequest, ctx: DecideContext): Promise<Decided> {
  return db.transaction(async (tx) => {
    if (input.type === 'appeal') return decideAppeal(tx, input, ctx)
    if (input.type === 'photo') return decidePhoto(tx, input, ctx)
    if (input.type === 'verification') return decideSelfie(tx, input, ctx)
    if (input.type === 'profile_text') return decideProfileText(tx, input, ctx)
    if (input.action === 'uphold' || input.action === 'lift')
      throw new ApiFailure(400, 'invalid_input', 'action', 'only for appeals')
    if (input.action === 'approve' || input.action === 'reject')
      throw new ApiFailure(400, 'invalid_input', 'action', 'only for photos held for review')
    if (input.type === 'report') return decideReport(tx, input, ctx)
    if (input.type === 'scam') return decideScam(tx, input, ctx)
    return decideComplaint(tx, input, ctx)
  })
}

/** A verification selfie, approved or rejected by the verification domain. */
async function decideSelfie(tx: Db, input: DecideRequest, ctx: DecideContext): Promise<Decided> {
  if (input.action !== 'approve' && input.action !== 'reject')
    throw new ApiFailure(400, 'invalid_input', 'action', 'a selfie is approved or rejected')
  const done = await decideVerification(tx, {
    id: input.id,
    action: input.action,
    reason: input.reason,
    staffId: ctx.staffId,
    now: ctx.now,
    site: ctx.site,
    linkBase: ctx.linkBase,
  })
  return {
    sanction: null,
    actionSeconds: done.actionSeconds,
    mailIds: done.mailIds,
    files: done.files,
  }
}
