// Per-member limits on the actions that reach other members: messages and
// likes (the numbers, and why, are in LIMITS of ./ratelimit.ts). Each action
// counts in a minute and an hour bucket; an account younger than a day counts
// in tighter ones. Past either limit the action is refused with 429
// rate_limited and Retry-After, before it changes anything (no message
// stored, no credits debited, no like).
//
// Only new actions count. The caller first asks whether the client id was
// used before (a replay: a retry after a lost answer); a replay is never
// counted nor refused and gets its first answer, however far over the limit
// the member is. Two identical first sends racing each other are both counted
// here; for a message, the one that turns out to be a replay is forgiven
// (forgive()); a raced like may count twice, which costs the member one like.
import { type SQL, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import type { Db } from '../../db/client.ts'
import { RATE_LIMITED } from '../contract/index.ts'
import { ApiFailure } from './errors.ts'
import {
  type Bucket,
  type BucketInStatement,
  forgive,
  hit,
  keepSinceOf,
  windowStartOf,
} from './ratelimit.ts'
import { nowOf } from './session.ts'

/** An account younger than this (members.signup_date) meets the `_new` limits. */
export const NEW_ACCOUNT_MS = 24 * 60 * 60_000

export type MemberAction = 'message' | 'like'

const BUCKETS: Record<MemberAction, { settled: Bucket[]; young: Bucket[] }> = {
  message: { settled: ['message', 'message_hour'], young: ['message_new', 'message_new_hour'] },
  like: { settled: ['like', 'like_hour'], young: ['like_new', 'like_new_hour'] },
}

/** The buckets an action of a member who signed up at `signupDate` counts in at `now`. */
export function bucketsOf(action: MemberAction, signupDate: Date, now: number): Bucket[] {
  const young = now - signupDate.getTime() < NEW_ACCOUNT_MS
  return BUCKETS[action][young ? 'young' : 'settled']
}

/** A counted action: forgive() takes it back (it proved to be a replay). */
export interface Counted {
  forgive(): Promise<void>
}

/**
 * Counts one new action of `memberId` in each of its buckets (on the
 * request's clock, api/http/session.ts nowOf) and throws 429 rate_limited
 * with Retry-After (the longest wait of the buckets it is over) past any
 * limit. Every attempt counts, refused ones too, as everywhere in ./ratelimit.ts.
 */
export async function limitMemberAction(
  c: Context,
  db: Db,
  action: MemberAction,
  member: { id: number; signupDate: Date },
): Promise<Counted> {
  const now = nowOf(c).getTime()
  const key = `member:${member.id}`
  const buckets = bucketsOf(action, member.signupDate, now)
  const results = await Promise.all(buckets.map((bucket) => hit(db, bucket, key, now)))
  const over = results.filter((r) => !r.allowed)
  if (over.length > 0) {
    c.header('Retry-After', String(Math.max(...over.map((r) => r.retryAfterS))))
    throw new ApiFailure(429, RATE_LIMITED, undefined, `too many ${action}s, try again later`)
  }
  return {
    forgive: async () => {
      await Promise.all(buckets.map((bucket) => forgive(db, bucket, key, now)))
    },
  }
}

/**
 * The buckets of `action` for a count inside one statement (paceInStatement,
 * api/http/ratelimit.ts): both sets, each counting when the member's sign-up
 * (`signup`, SQL over the statement's member row) makes them young or settled
 * at the time the parameters were made (paceParams).
 */
export function paceBuckets(
  action: MemberAction,
  signup: SQL,
  p: { minute: SQL; hour: SQL; youngSince: SQL },
): BucketInStatement[] {
  const { settled, young } = BUCKETS[action]
  const isYoung = sql`(${signup} > ${p.youngSince}::timestamptz)`
  const set = (buckets: Bucket[], when: SQL) =>
    buckets.map((bucket, i) => ({ bucket, windowStart: i === 0 ? p.minute : p.hour, when }))
  return [...set(settled, sql`NOT ${isYoung}`), ...set(young, isYoung)]
}

/** Every bucket an action may count in (for paceAllows). */
export const actionBuckets = (action: MemberAction): Bucket[] => [
  ...BUCKETS[action].settled,
  ...BUCKETS[action].young,
]

/** The parameters of paceBuckets and paceInStatement at `now` (ms). */
export function paceParams(action: MemberAction, now: number) {
  const [minute, hour] = BUCKETS[action].settled as [Bucket, Bucket]
  return {
    paceMinute: windowStartOf(minute, now),
    paceHour: windowStartOf(hour, now),
    youngSince: new Date(now - NEW_ACCOUNT_MS),
    keepSince: keepSinceOf(now),
  }
}
