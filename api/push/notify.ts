// notifyMember: what to push to a member when something happens to them (a
// message, a like). It returns the push job (none when there is nothing to
// push), to be enqueued (api/jobs enqueue) in the transaction of the event
// itself, so a rolled-back message pushes nothing and a committed one is
// pushed even if this process stops right after. job.ts sends it to every
// device of the member.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema/index.ts'
import { enqueue } from '../jobs/queue.ts'
import { membersFields } from '../shared/members.ts'
import { type IsBlocked, isBlocked as isBlockedInDb } from './blocks.ts'
import { PUSH_JOB_KIND, type PushJobPayload } from './job.ts'
import { type BadgeOf, buildPushPayload, eventTag, type PushEvent } from './payload.ts'
import { pushWanted } from './preferences.ts'
import type { PushMessageOptions } from './sender.ts'

/**
 * How long a push service keeps a message for an offline device, and how
 * eagerly it wakes it. A message is worth a day and an immediate wake-up; a
 * like is worth an hour at normal urgency (a later sync shows it anyway).
 */
export const MESSAGE_PUSH: Omit<PushMessageOptions, 'topic'> = { ttl: 86_400, urgency: 'high' }
export const LIKE_PUSH: Omit<PushMessageOptions, 'topic'> = { ttl: 3_600, urgency: 'normal' }
/** A visit: as a like (an hour, normal urgency; the visitors list shows it anyway). */
export const VISIT_PUSH: Omit<PushMessageOptions, 'topic'> = LIKE_PUSH

/** A job for api/jobs enqueue(): kind, payload, and a dedupe key. */
export interface PushJob {
  kind: typeof PUSH_JOB_KIND
  payload: PushJobPayload
  /** One push per message (or like), however often it is announced. */
  key: string | undefined
}

export interface NotifyOptions {
  /** The recipient's install badge (api/badge.ts). */
  badgeOf: BadgeOf
  isBlocked?: IsBlocked
  now?: () => number
}

/**
 * The push job for an event concerning `memberId`. None when the member or
 * the sender is deleted, when either blocked the other, or when the member
 * has no subscription. Call it after the event's own writes in the same
 * transaction: the badge it computes then includes the event.
 */
export async function notifyMember(
  db: Db,
  memberId: number,
  event: PushEvent,
  options: NotifyOptions,
): Promise<PushJob[]> {
  if (memberId === event.from.id) return []
  const people = await membersFields(
    db,
    [memberId, event.from.id],
    ['name', 'gender', 'language', 'deletedAt'],
  )
  const recipient = people.find((p) => p.id === memberId)
  const sender = people.find((p) => p.id === event.from.id)
  if (!recipient || recipient.deletedAt || !sender || sender.deletedAt) return []
  if (await (options.isBlocked ?? isBlockedInDb)(db, memberId, sender.id)) return []

  const [device] = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.memberId, memberId))
    .limit(1)
  if (!device) return []
  // The member's choice (/notifications), and a visible page hears it live.
  if (!(await pushWanted(db, memberId, event.kind))) return []

  const payload = buildPushPayload(
    // The stored name, not the caller's copy: it is what the member's lists show.
    { ...event, from: { id: sender.id, name: sender.name } },
    {
      locale: recipient.language,
      badge: await options.badgeOf(db, memberId),
      fromGender: sender.gender,
    },
  )
  const text = JSON.stringify(payload)
  const push =
    event.kind === 'message' ? MESSAGE_PUSH : event.kind === 'visit' ? VISIT_PUSH : LIKE_PUSH
  // The topic lets the push service replace an undelivered message of the
  // same chat (or an undelivered like) with the newer one: an offline phone
  // wakes to one notification per chat, with the latest badge.
  const topic = eventTag(event)
  const createdAt = (options.now ?? Date.now)()
  const eventKey =
    event.kind === 'message'
      ? event.message === undefined
        ? undefined
        : `message:${event.message}`
      : event.kind === 'visit'
        ? // One per recorded visit, and visits are one per visitor and day.
          `visit:${event.visit}`
        : // Liking, unliking and liking again announces once (while the job is kept).
          `like:${sender.id}:${memberId}`
  return [
    {
      kind: PUSH_JOB_KIND,
      payload: { memberId, fromId: sender.id, payload: text, ...push, topic, createdAt },
      key: eventKey === undefined ? undefined : `push:${eventKey}`,
    },
  ]
}

/**
 * notifyMember, then each job enqueued on the same handle: call it with the
 * event's transaction. Returns how many jobs were enqueued, 0 or 1 (a job
 * runner poke after the commit sends it at once).
 */
export async function enqueuePush(
  db: Db,
  memberId: number,
  event: PushEvent,
  options: NotifyOptions,
): Promise<number> {
  const jobs = await notifyMember(db, memberId, event, options)
  for (const job of jobs) await enqueue(db, job)
  return jobs.length
}
