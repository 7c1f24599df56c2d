// Per member: what notifies (the /notifications choices; the new-message
// mails follow them too), whether a page of the site is visible (then the
// live stream tells and no push is sent), a device leaving push, and the
// test notification. The spec is silent on all of these (docs/push.md).
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pushMembers, pushSubscriptions } from '../../db/schema/index.ts'
import type { PushPreferences, PushPreferencesUpdate } from '../contract/index.ts'
import { type PushPayload, VISIBLE_HOLD_MS } from '../contract/rules/index.ts'
import { enqueue } from '../jobs/queue.ts'
import { memberFields } from '../shared/members.ts'
import { PUSH_JOB_KIND } from './job.ts'
import { type BadgeOf, fitPayload, openUrl } from './payload.ts'
import { pushTexts } from './texts.ts'

export const DEFAULT_PREFERENCES: PushPreferences = { messages: true, likes: true }

export async function preferencesOf(db: Db, memberId: number): Promise<PushPreferences> {
  const [row] = await db
    .select({ messages: pushMembers.messages, likes: pushMembers.likes })
    .from(pushMembers)
    .where(eq(pushMembers.memberId, memberId))
  return row ?? DEFAULT_PREFERENCES
}

export async function setPreferences(
  db: Db,
  memberId: number,
  update: PushPreferencesUpdate,
): Promise<PushPreferences> {
  const next = { ...(await preferencesOf(db, memberId)), ...update }
  // One statement: two racing updates of different choices both stick.
  const set: Partial<PushPreferences> = {}
  if (update.messages !== undefined) set.messages = update.messages
  if (update.likes !== undefined) set.likes = update.likes
  if (Object.keys(set).length === 0) return next
  const [row] = await db
    .insert(pushMembers)
    .values({ memberId, ...next })
    .onConflictDoUpdate({ target: pushMembers.memberId, set })
    .returning({ messages: pushMembers.messages, likes: pushMembers.likes })
  return row ?? next
}

/** A page reported itself visible (held VISIBLE_HOLD_MS) or hidden. */
export async function setVisible(db: Db, memberId: number, visible: boolean): Promise<void> {
  const until = visible ? new Date(Date.now() + VISIBLE_HOLD_MS) : null
  await db
    .insert(pushMembers)
    .values({ memberId, visibleUntil: until })
    .onConflictDoUpdate({ target: pushMembers.memberId, set: { visibleUntil: until } })
}

/**
 * Whether an event of this kind may be pushed to the member now: their
 * choice allows it and no page of theirs is visible (spec issue rule: a
 * member looking at the site hears through the live stream). A visit's
 * choice (`visit_push`, off unless asked for) is the presence domain's: it
 * enqueues the event only for a member who asked (api/presence/visits.ts).
 */
export async function pushWanted(
  db: Db,
  memberId: number,
  kind: 'message' | 'like' | 'visit',
): Promise<boolean> {
  const [row] = await db
    .select({
      messages: pushMembers.messages,
      likes: pushMembers.likes,
      visible: sql<boolean>`coalesce(${pushMembers.visibleUntil} > now(), false)`,
    })
    .from(pushMembers)
    .where(eq(pushMembers.memberId, memberId))
  if (!row) return true
  if (row.visible) return false
  if (kind === 'visit') return true
  return kind === 'message' ? row.messages : row.likes
}

/** Whether mails about new messages go out (they follow the push choice). */
export async function messageMailsWanted(db: Db, memberId: number): Promise<boolean> {
  return (await preferencesOf(db, memberId)).messages
}

/** This member's own subscription of this endpoint is deleted (push off on the device). */
export async function removeSubscription(
  db: Db,
  memberId: number,
  endpoint: string,
): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.memberId, memberId), eq(pushSubscriptions.endpoint, endpoint)))
}

/** Test pushes live a minute: one that arrives later would only puzzle. */
const TEST_TTL_S = 60

/**
 * The test notification to every device of the member, through the same job
 * and sender as real ones (so it proves the whole path). Visibility does not
 * hold it back: the member asks for it from an open page. Returns how many
 * devices it goes to.
 */
export async function enqueueTestPush(db: Db, memberId: number, badgeOf: BadgeOf): Promise<number> {
  const member = await memberFields(db, memberId, ['language'])
  const devices = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.memberId, memberId))
  if (!member || devices.length === 0) return 0
  const { texts } = pushTexts(member.language)
  const url = '/notifications'
  const payload = fitPayload({
    kind: 'test',
    title: texts.testTitle,
    body: texts.testBody,
    url,
    open_url: openUrl(url),
    badge: await badgeOf(db, memberId),
    tag: 'test',
  } satisfies PushPayload)
  await enqueue(db, {
    kind: PUSH_JOB_KIND,
    payload: {
      memberId,
      fromId: memberId,
      payload: JSON.stringify(payload),
      ttl: TEST_TTL_S,
      urgency: 'high',
      topic: 'test',
      createdAt: Date.now(),
    },
  })
  return devices.length
}
