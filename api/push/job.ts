// The push job: one event's message to every device of one member (a
// fan-out), run by the job queue (api/jobs). One job per event, not per
// device: a member signed in on many browsers costs one claim, one block
// check and one subscription read, then the sends go out concurrently.
//
// Per device, the push service's answer decides (sender.ts verdictOf): sent;
// gone (404/410: the subscription is deleted); 401/403 (our VAPID setup is
// refused: logged, not retried); other 4xx (logged, dropped); 429/5xx or no
// answer: retried after its Retry-After (or the queue's backoff). When every
// device needs a retry the job throws RetryLater and the queue runs it again;
// when only some do, a follow-up job for just those is enqueued per push
// service, so a device that already showed the notification never gets it
// twice. Nothing is sent past the message's TTL, counted from the event.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema/index.ts'
import { backoffMs, enqueue, type JobHandlers } from '../jobs/queue.ts'
import { liveSessionSql } from '../sessions/index.ts'
import { membersFields } from '../shared/members.ts'
import { type IsBlocked, isBlocked as isBlockedInDb } from './blocks.ts'
import {
  type PushResponse,
  type PushSender,
  RetryLater,
  SubscriptionKeyError,
  verdictOf,
} from './sender.ts'

/** Job kind of a push fan-out in api/jobs. */
export const PUSH_JOB_KIND = 'push'

/** Sends in flight at once per job by default: enough to hide a push service's latency. */
export const PUSH_CONCURRENCY = 50

export const PushJobPayload = z.object({
  /** The recipient: only their current subscriptions are sent to. */
  memberId: z.number().int(),
  /** Who caused it: nothing is sent once either member blocked the other or left. */
  fromId: z.number().int(),
  /** The JSON text the service worker reads (payload.ts). */
  payload: z.string(),
  ttl: z.number().int().min(0),
  urgency: z.enum(['very-low', 'low', 'normal', 'high']),
  topic: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/)
    .optional(),
  /** When the event happened (ms): the TTL counts from here, across retries. */
  createdAt: z.number(),
  /** Only these subscriptions (a follow-up for the ones that must retry); all when absent. */
  subscriptionIds: z.array(z.number().int()).min(1).optional(),
  /** Follow-up rounds so far: the backoff keeps growing across them. */
  round: z.number().int().min(0).optional(),
})
export type PushJobPayload = z.infer<typeof PushJobPayload>

/** How a push job went, device by device. */
export interface PushReport {
  /** expired: past the TTL; dropped: a block or a deleted account since the event. */
  status: 'done' | 'expired' | 'dropped'
  sent: number
  /** Subscriptions deleted (404/410, or keys nothing can be encrypted to). */
  gone: number
  /** Refused for good: 401/403 (VAPID) and other 4xx. */
  rejected: number
  /** Endpoints that failed the address check. */
  refused: number
  /** Handed to a follow-up job (429/5xx/unreachable). */
  retried: number
  /** Needed a retry that would land past the TTL. */
  expired: number
}

export interface SendJobDeps {
  sender: PushSender
  /** The job's attempts so far, counting this one: the backoff without Retry-After. */
  attempts?: number
  /** Sends in flight at once (default PUSH_CONCURRENCY). */
  concurrency?: number
  now?: () => number
  log?: (message: string, details?: unknown) => void
  isBlocked?: IsBlocked
  /**
   * The address check of subscription storing (a public host, looked up at
   * send time so a name that now points inside the network is not reached).
   * Asked once per host and job.
   */
  checkEndpoint?: (endpoint: string) => boolean | Promise<boolean>
}

type Subscription = typeof pushSubscriptions.$inferSelect

/** The job handler. Throws RetryLater when every device must retry. */
export async function sendPushJob(
  db: Db,
  rawPayload: unknown,
  deps: SendJobDeps,
): Promise<PushReport> {
  const job = PushJobPayload.parse(rawPayload)
  const now = deps.now ?? Date.now
  const log = deps.log ?? ((message, details) => console.warn(message, details ?? ''))
  const report: PushReport = {
    status: 'done',
    sent: 0,
    gone: 0,
    rejected: 0,
    refused: 0,
    retried: 0,
    expired: 0,
  }
  const ttlLeft = () => job.ttl - Math.floor((now() - job.createdAt) / 1000)
  if (ttlLeft() <= 0) return { ...report, status: 'expired' }
  if (!(await stillWanted(db, job, deps.isBlocked))) return { ...report, status: 'dropped' }
  const subscriptions = await currentSubscriptions(db, job)

  const attempts = (deps.attempts ?? 1) + (job.round ?? 0)
  const problems: Problems = new Map()
  const note = problemCounter(problems)
  const fanOut: FanOut = { job, deps, attempts, now, ttlLeft, report, gone: [], retries: [], note }
  const sendOne = deviceSender(fanOut)
  await forEachLimited(subscriptions, deps.concurrency ?? PUSH_CONCURRENCY, sendOne)

  await removeSubscriptions(db, fanOut.gone)
  report.gone = fanOut.gone.length
  // One line per kind of problem, not one per device of a large fan-out.
  for (const [problem, { count, origins }] of problems) {
    log(problem, { member: job.memberId, devices: count, origins: [...origins] })
  }
  return retryLater(db, fanOut, subscriptions.length)
}

/** A device the push service must be asked again, after `delayMs`. */
interface Retry {
  id: number
  origin: string
  delayMs: number
  reason: string
}

/** One job's sends: what it needs, and what came of them so far. */
interface FanOut {
  job: PushJobPayload
  deps: SendJobDeps
  attempts: number
  now: () => number
  /** Seconds left of the message's TTL, counted from the event. */
  ttlLeft: () => number
  report: PushReport
  /** Subscriptions to delete. */
  gone: number[]
  retries: Retry[]
  /** Counts a problem for the job's log, per kind of problem. */
  note: (problem: string, endpoint: string) => void
}

/** Devices and their push services, per kind of problem. */
type Problems = Map<string, { count: number; origins: Set<string> }>

function problemCounter(problems: Problems) {
  return (problem: string, endpoint: string) => {
    const entry = problems.get(problem) ?? { count: 0, origins: new Set<string>() }
    entry.count++
    entry.origins.add(new URL(endpoint).origin)
    problems.set(problem, entry)
  }
}

/** Nothing is sent once either member blocked the other or left. */
async function stillWanted(
  db: Db,
  job: PushJobPayload,
  isBlocked: IsBlocked = isBlockedInDb,
): Promise<boolean> {
  if (!(await bothLive(db, job.memberId, job.fromId))) return false
  return !(await isBlocked(db, job.memberId, job.fromId))
}

/**
 * Only the member's own: a browser that signed in as someone else since
 * took the endpoint over, and this member's news must not show on it.
 */
function currentSubscriptions(db: Db, job: PushJobPayload) {
  return db
    .select()
    .from(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.memberId, job.memberId),
        job.subscriptionIds ? inArray(pushSubscriptions.id, job.subscriptionIds) : undefined,
        // A device whose session expired is signed out: its row goes with
        // the session row later (startSession's cleanup), nothing is sent now.
        sql`(${pushSubscriptions.sessionHash} IS NULL OR ${liveSessionSql(sql`${pushSubscriptions.sessionHash}`)})`,
      ),
    )
}

/** Whether an endpoint may be sent to: the sender's rule, then the address check, once per host. */
function endpointCheck(deps: SendJobDeps) {
  const hostOk = new Map<string, Promise<boolean>>()
  return (endpoint: string) => {
    if (!deps.sender.allows(endpoint)) return Promise.resolve(false)
    const check = deps.checkEndpoint
    if (!check) return Promise.resolve(true)
    const host = new URL(endpoint).host
    let ok = hostOk.get(host)
    if (!ok) {
      ok = Promise.resolve(check(endpoint)).catch(() => false)
      hostOk.set(host, ok)
    }
    return ok
  }
}

/** The send to one device: checked, sent, and its answer counted. */
function deviceSender(fanOut: FanOut) {
  const allowed = endpointCheck(fanOut.deps)
  return async (subscription: Subscription) => {
    const { endpoint } = subscription
    if (!(await allowed(endpoint))) {
      fanOut.report.refused++
      fanOut.note('push: endpoint refused by the address check', endpoint)
      return
    }
    const response = await sendTo(fanOut, subscription)
    if (response) countAnswer(fanOut, subscription, response)
  }
}

/** The push service's answer, or null when the send failed (the device then noted). */
async function sendTo(
  { job, deps, attempts, ttlLeft, gone, retries, note }: FanOut,
  subscription: Subscription,
): Promise<PushResponse | null> {
  const { endpoint } = subscription
  try {
    return await deps.sender.send(
      { endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      job.payload,
      // The time since the event is taken off: the message never outlives
      // the TTL its event set, however late a retry.
      { ttl: ttlLeft(), urgency: job.urgency, topic: job.topic },
    )
  } catch (e) {
    if (e instanceof SubscriptionKeyError) {
      // Keys nothing can be encrypted to never will be: the subscription is useless.
      gone.push(subscription.id)
      note('push: subscription keys unusable, subscription removed', endpoint)
      return null
    }
    retries.push({
      id: subscription.id,
      origin: new URL(endpoint).origin,
      delayMs: backoffMs(attempts),
      reason: e instanceof Error ? e.message : 'unreachable',
    })
    return null
  }
}

/** The push service's verdict on one device (sender.ts verdictOf), counted. */
function countAnswer(
  { now, attempts, report, gone, retries, note }: FanOut,
  subscription: Subscription,
  response: PushResponse,
) {
  const { endpoint } = subscription
  const verdict = verdictOf(response, now(), attempts)
  switch (verdict.kind) {
    case 'sent':
      report.sent++
      return
    case 'gone':
      gone.push(subscription.id)
      return
    case 'retry':
      retries.push({
        id: subscription.id,
        origin: new URL(endpoint).origin,
        delayMs: verdict.delayMs,
        reason: `answered ${response.status}`,
      })
      return
    case 'vapid':
      report.rejected++
      note('push: VAPID configuration error: the push service refused our key or JWT', endpoint)
      return
    case 'rejected':
      report.rejected++
      note(`push: message refused by the push service (${response.status})`, endpoint)
      return
  }
}

async function removeSubscriptions(db: Db, ids: number[]) {
  for (let i = 0; i < ids.length; i += 1000) {
    await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids.slice(i, i + 1000)))
  }
}

/**
 * The devices to ask again while the TTL lasts: the whole job again when
 * nobody got it (RetryLater), else a follow-up job per push service.
 */
async function retryLater(db: Db, fanOut: FanOut, devices: number): Promise<PushReport> {
  const { job, now, ttlLeft, report, retries } = fanOut
  const leftMs = ttlLeft() * 1000
  const worth = retries.filter((r) => r.delayMs < leftMs)
  report.expired = retries.length - worth.length
  if (worth.length === 0) return report
  const delayMs = Math.max(...worth.map((r) => r.delayMs))
  if (worth.length === devices) {
    // Nobody got it: the queue runs this same job again.
    const reasons = [...new Set(worth.map((r) => r.reason))].join(', ')
    throw new RetryLater(delayMs, `push to ${worth.length} device(s) to retry: ${reasons}`)
  }
  // Some got it: a follow-up for the others, one per push service (each has
  // its own Retry-After).
  const byOrigin = new Map<string, typeof worth>()
  for (const r of worth) byOrigin.set(r.origin, [...(byOrigin.get(r.origin) ?? []), r])
  for (const group of byOrigin.values()) {
    await enqueue(db, {
      kind: PUSH_JOB_KIND,
      payload: {
        ...job,
        subscriptionIds: group.map((r) => r.id),
        round: (job.round ?? 0) + 1,
      } satisfies PushJobPayload,
      runAt: new Date(now() + Math.max(...group.map((r) => r.delayMs))),
    })
  }
  report.retried = worth.length
  return report
}

/** Runs `work` on every item, at most `limit` at once. */
async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane))
}

/** Both members exist and were not deleted: two ids in one query. */
async function bothLive(db: Db, a: number, b: number): Promise<boolean> {
  const rows = await membersFields(db, [a, b], ['deletedAt'])
  return rows.filter((r) => r.deletedAt === null).length === new Set([a, b]).size
}

/**
 * The handlers to register with the job runner (createJobRunner's handlers
 * or register()): the job's attempt count sets the backoff when a push
 * service gives no Retry-After.
 */
export function pushJobHandlers(db: Db, deps: Omit<SendJobDeps, 'attempts'>): JobHandlers {
  return {
    [PUSH_JOB_KIND]: async (payload, job) => {
      await sendPushJob(db, payload, { ...deps, attempts: job.attempts })
    },
  }
}
