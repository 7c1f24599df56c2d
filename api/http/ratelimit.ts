// Fixed-window rate limits kept in the database (they hold across
// API processes). One atomic upsert per hit: INSERT ... ON CONFLICT DO UPDATE
// SET count = count + 1 RETURNING count, so two processes counting the same
// key at once can never both see a count under the limit for the same slot.
import { createHash } from 'node:crypto'
import { getConnInfo } from '@hono/node-server/conninfo'
import { and, eq, lt, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import type { Db } from '../../db/client.ts'
import { rateLimits } from '../../db/schema.ts'
import { RATE_LIMITED } from '../contract/index.ts'
import { ApiFailure } from './errors.ts'

const MINUTE = 60_000

/**
 * Limits per bucket. Not in the spec (§9 has none): sized so a person never
 * meets them and a script soon does. validate_email runs as the visitor types
 * (spec §5: once the value holds @ and a dot, each keystroke), hence its room.
 */
export const LIMITS = {
  login: { limit: 10, windowMs: 15 * MINUTE },
  // Failed logins on one account from every address together: a botnet with
  // an address per guess meets this one. Above `login`, so a single client
  // meets its own limit first and leaves the owner's other devices alone.
  // Successful logins are forgiven (forgive()); a finished password reset
  // clears it (the mailed unlock); the lock ends with its window.
  login_account: { limit: 20, windowMs: 15 * MINUTE },
  signup: { limit: 10, windowMs: 60 * MINUTE },
  validate_email: { limit: 120, windowMs: 10 * MINUTE },
  reset: { limit: 5, windowMs: 60 * MINUTE },
  reset_ip: { limit: 30, windowMs: 60 * MINUTE },
  mail_change: { limit: 10, windowMs: 60 * MINUTE },
  activation_resend: { limit: 5, windowMs: 60 * MINUTE },
  upload: { limit: 60, windowMs: 60 * MINUTE },
  // Sign-up step 3 asks once; a lookup far out at sea costs the package ~50 ms.
  geocode: { limit: 60, windowMs: 10 * MINUTE },
  // The test notification of /notifications: a member tries it a few times.
  push_test: { limit: 10, windowMs: 10 * MINUTE },
  // The public complaints form: a person files a few; the 11th in an hour is
  // refused, so the form cannot be used to mail receipts in bulk.
  complaint: { limit: 10, windowMs: 60 * MINUTE },
  // Console sign-in: staff type a password and a code a few times at most;
  // tighter than members', since a staff account sees every member.
  staff_login: { limit: 10, windowMs: 15 * MINUTE },
  staff_login_account: { limit: 5, windowMs: 15 * MINUTE },
  // The member's data export reads every table about them: a person asks
  // now and then, a loop would be a load on the database.
  account_export: { limit: 5, windowMs: 60 * MINUTE },
  // Lander visits (api/traffic/visits.ts): a person opens a few landers; a
  // script posting visits meets this and gets 429.
  lander_visit_ip: { limit: 60, windowMs: 10 * MINUTE },
  // Not a limit but the visit counter's memory: one visitor (address, browser,
  // site, page, source) counts once per window; reloads and replays inside it
  // do not count again.
  lander_visit: { limit: 1, windowMs: 30 * MINUTE },
} as const

export type Bucket = keyof typeof LIMITS

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')

/** Windows older than this are deleted when a bucket opens a new window. */
const KEEP_MS = 24 * 60 * MINUTE

export interface HitResult {
  allowed: boolean
  count: number
  /** Seconds until the window ends. */
  retryAfterS: number
}

/**
 * Counts one attempt of `key` in `bucket`. Keys are stored hashed: the table
 * then holds no email addresses or IPs in the clear.
 */
export async function hit(
  db: Db,
  bucket: Bucket,
  key: string,
  now = Date.now(),
): Promise<HitResult> {
  const { limit, windowMs } = LIMITS[bucket]
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs)
  const keyHash = hashKey(key)
  const [row] = await db
    .insert(rateLimits)
    .values({ bucket, key: keyHash, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.bucket, rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count })
  const count = row?.count ?? 1
  if (count === 1) {
    // First hit of a new window: a cheap moment to drop this bucket's stale rows.
    await db
      .delete(rateLimits)
      .where(
        and(eq(rateLimits.bucket, bucket), lt(rateLimits.windowStart, new Date(now - KEEP_MS))),
      )
  }
  const retryAfterS = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000))
  return { allowed: count <= limit, count, retryAfterS }
}

/** Takes back one counted attempt of `key` in the current window (an attempt that proved harmless). */
export async function forgive(
  db: Db,
  bucket: Bucket,
  key: string,
  now = Date.now(),
): Promise<void> {
  const { windowMs } = LIMITS[bucket]
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs)
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(
      and(
        eq(rateLimits.bucket, bucket),
        eq(rateLimits.key, hashKey(key)),
        eq(rateLimits.windowStart, windowStart),
      ),
    )
}

/** Forgets every window of `key` in `bucket` (a lock lifted by a proof of ownership). */
export async function clearKey(db: Db, bucket: Bucket, key: string): Promise<void> {
  await db
    .delete(rateLimits)
    .where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.key, hashKey(key))))
}

/** Counts the attempt and refuses it with 429 rate_limited (and Retry-After) past the limit. */
export async function enforce(c: Context, db: Db, bucket: Bucket, key: string): Promise<void> {
  const result = await hit(db, bucket, key)
  if (!result.allowed) {
    c.header('Retry-After', String(result.retryAfterS))
    throw new ApiFailure(429, RATE_LIMITED)
  }
}

/** Requests without a socket (app.request in tests) share this address. */
export const UNKNOWN_IP = 'unknown'

/**
 * The client's address: behind a trusted proxy the last X-Forwarded-For entry
 * (the one our proxy appended; earlier entries are the client's to forge),
 * otherwise the socket's peer.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const last = c.req.header('x-forwarded-for')?.split(',').pop()?.trim()
    if (last) return last.slice(0, 64)
  }
  try {
    return getConnInfo(c).remote.address ?? UNKNOWN_IP
  } catch {
    return UNKNOWN_IP
  }
}
