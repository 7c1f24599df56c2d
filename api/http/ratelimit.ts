// Fixed-window rate limits kept in the database (they hold across
// API processes). One atomic upsert per hit: INSERT ... ON CONFLICT DO UPDATE
// SET count = count + 1 RETURNING count, so two processes counting the same
// key at once can never both see a count under the limit for the same slot.
import { createHash } from 'node:crypto'
import { getConnInfo } from '@hono/node-server/conninfo'
import { and, eq, like, lt, type SQL, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import type { Db } from '../../db/client.ts'
import { rateLimits } from '../../db/schema/index.ts'
import { RATE_LIMITED } from '../contract/index.ts'
import { ApiFailure } from './errors.ts'

const MINUTE = 60_000

/**
 * Limits per bucket. Not in the spec (§9 has none): sized so a person never
 * meets them and a script soon does. validate_email runs as the visitor types
 * (spec §5: once the value holds @ and a dot, each keystroke), hence its room.
 */
export const LIMITS = {
  // Member logins per address + account (a ScopedKey: the account is its
  // scope, so an unlock clears it for every address at once). A person who
  // forgot their password tries a few times; the 11th try in 15 minutes from
  // one address waits. It holds one attacker address to 40 guesses an hour
  // and never touches the owner's own address. Right passwords are forgiven.
  login: { limit: 10, windowMs: 15 * MINUTE },
  // Failed logins on one account from every address together: the ceiling
  // for a botnet with an address per guess (100 guesses an hour, 2,400 a
  // day: nothing against a password that is not among the commonest). Set
  // high on purpose: it is the one bucket an attacker can fill for the owner,
  // so filling it costs 100 requests an hour, and every time it is met the
  // owner is mailed an unlock link (login_unlock_mail). A right password is
  // forgiven; the unlock link and a finished password reset clear it.
  login_account: { limit: 100, windowMs: 60 * MINUTE },
  // Unlock mails (api/accounts/login-unlock.ts) per account: one a window, so
  // refused logins cannot mail-bomb a member; following the link allows the
  // next one. Counted for unknown addresses too (nothing is sent to them).
  login_unlock_mail: { limit: 1, windowMs: 60 * MINUTE },
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
  // Console sign-in per address + account (a ScopedKey, like `login`): staff
  // type a password and a code a few times at most. A guess needs the
  // password and the current TOTP code (about 3 in a million per try).
  staff_login: { limit: 10, windowMs: 15 * MINUTE },
  // Failed console sign-ins on one staff account from every address: 100 an
  // hour, as for members, so a botnet cannot cheaply lock staff out of the
  // console (the old 5 per 15 minutes could, with 5 requests). With the
  // password known, 100 code guesses an hour still find a code only once in
  // ~3,300 hours; each time this is met the staff member is mailed an unlock
  // link (staff_unlock_mail), which also tells them someone is trying.
  staff_login_account: { limit: 100, windowMs: 60 * MINUTE },
  // Console unlock mails per staff account: one a window (no mail-bombing).
  staff_unlock_mail: { limit: 1, windowMs: 60 * MINUTE },
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
  // Messages a member sends (api/http/member-limits.ts; replays of a client
  // id are not counted). A fast thumb sends a short line every 3 to 5 s in a
  // burst and then reads the answer: 20 in one minute is a line every 3 s for
  // the whole minute, which a script does (2,000 in 27 s) and a person does
  // not. 300 an hour is 5 a minute for a whole hour, beyond the liveliest
  // chat, and 3,000 credits at the default price.
  message: { limit: 20, windowMs: MINUTE },
  message_hour: { limit: 300, windowMs: 60 * MINUTE },
  // The same for an account younger than a day (NEW_ACCOUNT_MS), the age of
  // throwaway spam accounts: a newcomer's hello runs to a few lines, so 10 a
  // minute leaves room for an eager one; 100 in the first hours caps how
  // many members one new account can write to.
  message_new: { limit: 10, windowMs: MINUTE },
  message_new_hour: { limit: 100, windowMs: 60 * MINUTE },
  // Likes and unlikes together (each a change, each a push to someone). The
  // overview grid shows 12 profiles a page: a person tapping every heart
  // while looking at the photos, then paging on, makes 40 to 50 a minute at
  // most; 60 a minute is out of reach, 742 in 20 s is a script. 600 an hour
  // is 50 pages liked through for an hour.
  like: { limit: 60, windowMs: MINUTE },
  like_hour: { limit: 600, windowMs: 60 * MINUTE },
  // For an account younger than a day: half the pace, and 200 in an hour.
  like_new: { limit: 30, windowMs: MINUTE },
  like_new_hour: { limit: 200, windowMs: 60 * MINUTE },
  // Withdrawal links asked for without a session (api/payments/withdrawal.ts):
  // a person asks once or twice; per address, 10 an hour stops a script from
  // trying order numbers or mailing links in bulk, and per order number 3 an
  // hour stops anyone from mail-bombing the order's member. Counted for
  // unknown addresses and orders alike, so the limit tells nothing either.
  withdrawal_link: { limit: 10, windowMs: 60 * MINUTE },
  withdrawal_link_order: { limit: 3, windowMs: 60 * MINUTE },
  // "Is typing" signals (api/chats/typing.ts): the client sends one every
  // 2 s at most while its member types, 30 a minute in one chat; 60 leaves
  // room for two chats at once, a script sending more is refused.
  typing: { limit: 60, windowMs: MINUTE },
  // Age checks started by one member (api/age/): a member needs one or two;
  // 20 an hour stops a script from filling the table with open requests.
  age_request: { limit: 20, windowMs: 60 * MINUTE },
} as const

export type Bucket = keyof typeof LIMITS

/**
 * A key in two parts: `scope` (one account) and `part` (one client address).
 * Stored as sha256(scope) "." sha256(scope|part): still nothing in the clear,
 * and clearScope() forgets every part of a scope (the account from every
 * address) without knowing the parts.
 */
export interface ScopedKey {
  scope: string
  part: string
}
export type Key = string | ScopedKey

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const scopeHash = (scope: string) => `${sha256(scope)}.`
const hashKey = (key: Key) =>
  typeof key === 'string'
    ? sha256(key)
    : `${scopeHash(key.scope)}${sha256(`${key.scope}|${key.part}`)}`

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
export async function hit(db: Db, bucket: Bucket, key: Key, now = Date.now()): Promise<HitResult> {
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
export async function forgive(db: Db, bucket: Bucket, key: Key, now = Date.now()): Promise<void> {
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
export async function clearKey(db: Db, bucket: Bucket, key: Key): Promise<void> {
  await db
    .delete(rateLimits)
    .where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.key, hashKey(key))))
}

/** Forgets every window of every ScopedKey of `scope` in `bucket` (one account, all addresses). */
export async function clearScope(db: Db, bucket: Bucket, scope: string): Promise<void> {
  // A hex digest and a dot: nothing LIKE would read as a wildcard.
  await db
    .delete(rateLimits)
    .where(and(eq(rateLimits.bucket, bucket), like(rateLimits.key, `${scopeHash(scope)}%`)))
}

/** Counts the attempt and refuses it with 429 rate_limited (and Retry-After) past the limit. */
export async function enforce(c: Context, db: Db, bucket: Bucket, key: Key): Promise<void> {
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
    // A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d: one client, one key.
    return getConnInfo(c).remote.address?.replace(/^::ffff:(?=\d+\.)/, '') ?? UNKNOWN_IP
  } catch {
    return UNKNOWN_IP
  }
}

/** One bucket counted inside a caller's statement: its name and when it counts. */
export interface BucketInStatement {
  bucket: Bucket
  /** The bucket's current window start (windowStartOf), as a timestamptz parameter. */
  windowStart: SQL
  /** SQL boolean: whether this bucket counts (e.g. the young or the settled set). */
  when: SQL
}

/** The start of `bucket`'s window that holds `now`. */
export const windowStartOf = (bucket: Bucket, now: number) =>
  new Date(Math.floor(now / LIMITS[bucket].windowMs) * LIMITS[bucket].windowMs)

/**
 * `hit` as common table expressions of a caller's single statement (the paid
 * send, api/chats/messages.ts): `pace` counts one attempt of `key` (a text
 * expression, hashed here as hashKey does a plain key) in each bucket whose
 * `when` holds, when `counts` holds, and returns (bucket, count);
 * `pace_stale` drops a bucket's windows older than KEEP_MS when one opens a
 * new window, as hit() does. `paceAllows` (SQL boolean over `pace`) says
 * whether every counted bucket is within its limit, and `paceRefusal` reads
 * the Retry-After of the returned rows.
 */
export function paceInStatement(input: {
  key: SQL
  counts: SQL
  from: SQL
  buckets: BucketInStatement[]
  keepSince: SQL
}): SQL {
  const rows = sql.join(
    input.buckets.map((b) => sql`(${b.bucket}::text, ${b.windowStart}::timestamptz, ${b.when})`),
    sql`, `,
  )
  return sql`pace AS (
      INSERT INTO rate_limits (bucket, key, window_start, count)
      SELECT b.bucket, ${hashedKeySql(input.key)}, b.window_start, 1
      FROM ${input.from}, LATERAL (VALUES ${rows}) AS b(bucket, window_start, counts)
      WHERE b.counts AND ${input.counts}
      ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limits.count + 1
      RETURNING bucket, key, count
    ), pace_stale AS (
      DELETE FROM rate_limits r USING pace
      WHERE pace.count = 1 AND r.bucket = pace.bucket AND r.window_start < ${input.keepSince}::timestamptz
    )`
}

/** A key as rate_limits stores it (hashKey's digest), of a text expression. */
const hashedKeySql = (key: SQL) => sql`encode(sha256(convert_to(${key}, 'UTF8')), 'hex')`

/**
 * SQL true when no bucket counted in `pace` is over its limit; with `key`
 * (a statement that counts several keys: the gathered send), of that key's
 * rows only.
 */
export function paceAllows(buckets: readonly Bucket[], key?: SQL): SQL {
  const limits = sql.join(
    buckets.map((b) => sql`WHEN ${b}::text THEN ${sql.raw(String(LIMITS[b].limit))}`),
    sql` `,
  )
  return sql`NOT EXISTS (SELECT 1 FROM pace WHERE ${paceOfKey(key)} pace.count > CASE pace.bucket ${limits} END)`
}

const paceOfKey = (key: SQL | undefined) => (key ? sql`pace.key = ${hashedKeySql(key)} AND` : sql``)

/**
 * The rows `pace` counted (of `key` only, when given) as a json array of
 * {bucket, count}, which paceRefusal reads.
 */
export const paceRowsJson = (key?: SQL): SQL =>
  sql`(SELECT coalesce(json_agg(json_build_object('bucket', pace.bucket, 'count', pace.count)), '[]'::json)
       FROM pace WHERE ${paceOfKey(key)} true)`

/** The windows older than this are dropped when a bucket opens a new one (paceInStatement). */
export const keepSinceOf = (now: number) => new Date(now - KEEP_MS)

/**
 * The Retry-After (seconds) of a statement's `pace` rows over their limit,
 * or null when none is; what `hit` answers for each.
 */
export function paceRefusal(rows: { bucket: string; count: number }[], now: number): number | null {
  const over = rows.filter((r) => r.count > LIMITS[r.bucket as Bucket].limit)
  if (over.length === 0) return null
  return Math.max(
    ...over.map((r) => {
      const b = r.bucket as Bucket
      const end = windowStartOf(b, now).getTime() + LIMITS[b].windowMs
      return Math.max(1, Math.ceil((end - now) / 1000))
    }),
  )
}
