// The moderation queue: one list of member reports, public complaints,
// appeals, photos no moderator saw yet, first messages held by the scam
// signals, verification selfies and profile texts held for review, oldest
// first.
import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { appeals, reports, sanctions } from '../../db/schema/index.ts'
import { heldOpenings } from '../chats/index.ts'
import { openComplaints } from '../complaints/index.ts'
import type { QueueItem } from '../contract/operator/moderation.ts'
import { QUEUE_OVERDUE_S } from '../contract/operator/moderation.ts'
import { unreviewedPhotos } from '../images/index.ts'
import { pendingVerifications } from '../verification/index.ts'
import { heldProfileTexts } from './profile-texts.ts'

const QUEUE_LIMIT = 200

/** The member a complaint's URL points at (`/members/12`), if any. */
export function memberOfUrl(url: string | null): number | null {
  const m = url?.match(/\/members\/(\d{1,15})(?:[/?#]|$)/)
  return m ? Number(m[1]) : null
}

export const overdue = (created: Date, now: Date) =>
  now.getTime() - created.getTime() > QUEUE_OVERDUE_S * 1000

/** A held first message's summary: the signals that fired (api/contract/rules/scam.ts), `phone, messenger`. */
export const scamSummary = (signals: string) => signals.split(',').join(', ')

/**
 * A photo no moderator saw yet, as the queue lists it: `photo`,
 * `same_photo:12` when it matched a photo of member 12 at upload
 * (api/images/match.ts), else `same_face:12` when its face is the one kept
 * for member 12 (api/images/face.ts). The same photo says more than a like
 * face, so it names the account when both matched; the item shows both.
 */
export const photoSummary = (img: {
  matchMemberId: number | null
  faceMatchMemberId: number | null
}) =>
  img.matchMemberId !== null
    ? `same_photo:${img.matchMemberId}`
    : img.faceMatchMemberId !== null
      ? `same_face:${img.faceMatchMemberId}`
      : 'photo'

/** A profile text held for review, as the queue lists it: the signals that fired. */
const profileTextEntry = (x: Awaited<ReturnType<typeof heldProfileTexts>>[number]) => ({
  type: 'profile_text' as const,
  id: x.id,
  created: x.createdAt,
  summary: scamSummary(x.signals),
  member: x.memberId,
})

/** Open items, oldest first: whatever waits longer than 24 hours leads the list. */
export async function queue(db: Db, now: Date): Promise<QueueItem[]> {
  const [r, c, a, p, h, v, t] = await Promise.all([
    db
      .select()
      .from(reports)
      .where(and(eq(reports.status, 'open'), isNull(reports.decidedAt)))
      .orderBy(asc(reports.id))
      .limit(QUEUE_LIMIT),
    openComplaints(db, QUEUE_LIMIT),
    db
      .select({ appeal: appeals, sanction: sanctions })
      .from(appeals)
      .innerJoin(sanctions, eq(sanctions.id, appeals.sanctionId))
      .where(isNull(appeals.decidedAt))
      .orderBy(asc(appeals.id))
      .limit(QUEUE_LIMIT),
    unreviewedPhotos(db, QUEUE_LIMIT),
    heldOpenings(db, QUEUE_LIMIT),
    pendingVerifications(db, QUEUE_LIMIT),
    heldProfileTexts(db, QUEUE_LIMIT),
  ])
  const items: QueueItem[] = [
    ...r.map((x) => ({
      type: 'report' as const,
      id: x.id,
      created: x.createdAt,
      summary: x.reason,
      member: x.reportedId,
    })),
    ...c.map((x) => ({
      type: 'complaint' as const,
      id: x.id,
      created: x.createdAt,
      summary: `${x.kind}: ${x.subject}`,
      member: memberOfUrl(x.url),
    })),
    ...a.map((x) => ({
      type: 'appeal' as const,
      id: x.appeal.id,
      created: x.appeal.createdAt,
      summary: `${x.sanction.kind}: ${x.sanction.rule}`,
      member: x.sanction.memberId,
    })),
    ...p.map((x) => ({
      type: 'photo' as const,
      id: x.id,
      created: x.createdAt,
      summary: photoSummary(x),
      member: x.memberId,
    })),
    ...h.map((x) => ({
      type: 'scam' as const,
      id: x.conversationId,
      created: x.createdAt,
      summary: scamSummary(x.signals),
      member: x.memberId,
    })),
    ...v.map((x) => ({
      type: 'verification' as const,
      id: x.id,
      // A pending request always has its selfie's time.
      created: x.createdAt ?? new Date(0),
      summary: 'verification',
      member: x.memberId,
    })),
    ...t.map(profileTextEntry),
  ]
    .sort((p, q) => p.created.getTime() - q.created.getTime() || p.id - q.id)
    .slice(0, QUEUE_LIMIT)
    .map(({ created, ...rest }) => ({
      ...rest,
      created_at: created.toISOString(),
      overdue: overdue(created, now),
    }))
  return items
}
