import { randomBytes } from 'node:crypto'
import { and, eq, gt, lt, lte, or, type SQL, sql } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { perDatabase } from '../../db/prepared.ts'
import { sessions } from '../../db/schema/index.ts'
import { SIGNED_IN_COOKIE } from '../contract/rules/index.ts'
import { liveMemberSql } from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'
import { hashToken } from '../shared/tokens.ts'
import { ApiFailure } from './errors.ts'

export const SESSION_COOKIE = 'sid'
/** Spec §9: the storage cookie lives 30 days (2592000 s), SameSite Lax. */
export const SESSION_MAX_AGE_S = 2_592_000
/**
 * A session unused for 30 days ends. It matches the cookie's 30 days, which
 * are renewed as the session is used: a member who comes back within a month
 * stays signed in (what a dating site's members expect on their own phone),
 * and a phone left in a drawer, or a shared computer, is not signed in forever.
 */
export const SESSION_IDLE_S = 30 * 24 * 3600
/**
 * Whatever the use, a session ends 90 days after its login: a stolen cookie
 * stops working within a season, and the password is asked for four times a
 * year, which members of a site they use weekly accept.
 */
export const SESSION_ABSOLUTE_S = 90 * 24 * 3600
/** Last use is written at most every 5 minutes per session (one write, not one per request). */
export const SESSION_TOUCH_S = 300
/** Stored User-Agent length: enough to tell browser and system apart. */
const USER_AGENT_MAX = 256

export type AuthEnv = { Variables: { memberId: number; sessionId: number } }

/** Tests pass a clock (AppDeps.now); it is set per request by createApi. */
export type ClockEnv = { Variables: { now?: () => Date } }
export const nowOf = (c: Context): Date =>
  (c as unknown as Context<ClockEnv>).get('now')?.() ?? new Date()

/** Secure everywhere but plain-http localhost, where browsers would drop it. */
export function isSecureOrigin(c: Context): boolean {
  const url = new URL(c.req.url)
  const proto = c.req.header('x-forwarded-proto') ?? url.protocol.replace(':', '')
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  return proto === 'https' || !local
}

function setSessionCookie(c: Context, token: string, maxAge: number): void {
  const secure = isSecureOrigin(c)
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    path: '/',
    maxAge,
  })
  setCookie(c, SIGNED_IN_COOKIE, '1', { secure, sameSite: 'Lax', path: '/', maxAge })
}

/** Sessions that can no longer be used: past the absolute end or idle too long. */
const deadAt = (now: Date) =>
  or(
    lte(sessions.expiresAt, now),
    lte(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_S * 1000)),
  )

/** A new random token (256 bits) per login; only its hash is stored. */
export async function startSession(c: Context, db: Db, memberId: number): Promise<void> {
  const token = randomBytes(32).toString('base64url')
  const now = nowOf(c)
  // Dead sessions of this member go when a new one starts, so the table
  // does not grow without bound for members who never log out.
  await db.delete(sessions).where(and(eq(sessions.memberId, memberId), deadAt(now)))
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    memberId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_S * 1000),
    userAgent: (c.req.header('user-agent') ?? '').slice(0, USER_AGENT_MAX),
  })
  setSessionCookie(c, token, SESSION_MAX_AGE_S)
}

export async function endSession(c: Context, db: Db): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)))
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecureOrigin(c) })
  deleteCookie(c, SIGNED_IN_COOKIE, { path: '/', secure: isSecureOrigin(c) })
}

/** The stored key of the request's session cookie (push subscriptions hang on it), if any. */
export function sessionHashOf(c: Context): string | undefined {
  const token = getCookie(c, SESSION_COOKIE)
  return token && token.length <= 128 ? hashToken(token) : undefined
}

/**
 * The live session of a token's hash: the one read of every request that
 * needs a member, built once and, on PostgreSQL, parsed once per pooled
 * connection (a named prepared statement).
 */
const sessionLookup = perDatabase((db) =>
  db
    .select({
      memberId: sessions.memberId,
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('hash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.lastSeenAt, sql.placeholder('idleSince')),
        liveMemberSql(sql`${sessions.memberId}`),
      ),
    )
    .prepare('session_lookup'),
)

/**
 * The live session of the request (member and session id), or null: unknown,
 * ended elsewhere, past its absolute end, idle too long, or the member
 * deleted. Using it renews its last use (at most every SESSION_TOUCH_S) and
 * the cookie with it, so the idle expiry counts from the last visit.
 */
export async function currentSession(
  c: Context,
  db: Db,
  { renewCookie = true }: SessionCheck = {},
): Promise<{ memberId: number; sessionId: number } | null> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token || token.length > 128) return null
  const now = nowOf(c)
  const tokenHash = hashToken(token)
  const [row] = await sessionLookup(db).execute({
    hash: tokenHash,
    now,
    idleSince: new Date(now.getTime() - SESSION_IDLE_S * 1000),
  })
  if (!row) return null
  if (now.getTime() - row.lastSeenAt.getTime() >= SESSION_TOUCH_S * 1000) {
    const touched = await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.tokenHash, tokenHash), lt(sessions.lastSeenAt, now)))
      .returning({ id: sessions.id })
    // The cookie lives as long as the session can: the idle span, never past the absolute end.
    const left = Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000)
    if (touched.length > 0 && renewCookie)
      setSessionCookie(c, token, Math.min(SESSION_MAX_AGE_S, left))
  }
  return { memberId: row.memberId, sessionId: row.sessionId }
}

/**
 * Which of `ids` are still live sessions (as currentSession: not past the
 * absolute end, not idle too long, the member not deleted), in one
 * statement however many: the periodic check of every open event stream of
 * a process (api/http/stream-sessions.ts). Renews the last use of those not
 * renewed for SESSION_TOUCH_S in the same statement, as currentSession would.
 */
export async function liveSessionsOf(db: Db, ids: number[], now: Date): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const idleSince = new Date(now.getTime() - SESSION_IDLE_S * 1000)
  const touchBefore = new Date(now.getTime() - SESSION_TOUCH_S * 1000)
  const rows = await rowsOf(
    db,
    sql`WITH live AS (
      SELECT s.id, s.last_seen_at FROM sessions s
      WHERE s.id = ANY(${sql.param(ids)}::bigint[]) AND s.expires_at > ${now}::timestamptz
        AND s.last_seen_at > ${idleSince}::timestamptz AND ${liveMemberSql(sql`s.member_id`)}
    ), touch AS (
      UPDATE sessions SET last_seen_at = ${now}::timestamptz FROM live
      WHERE sessions.id = live.id AND live.last_seen_at <= ${touchBefore}::timestamptz
        AND sessions.last_seen_at < ${now}::timestamptz
      RETURNING sessions.id
    )
    SELECT live.id FROM live`,
    z.object({ id: z.coerce.number() }),
  )
  return new Set(rows.map((r) => r.id))
}

export interface SessionCheck {
  /**
   * Renew the cookie with the session's last use (the default). Off for a
   * check inside an answer already sent, the live stream: its headers are
   * on the wire, and setting one there threw and ended every stream
   * 5 minutes (SESSION_TOUCH_S) after the session's last renewal.
   */
  renewCookie?: boolean
}

/** The member of the request's session, or null (see currentSession). */
export async function sessionMember(
  c: Context,
  db: Db,
  check: SessionCheck = {},
): Promise<number | null> {
  return (await currentSession(c, db, check))?.memberId ?? null
}

/** Spec §8: a request without a live session gets 403 (the client refetches/clears the user). */
export const requireMember =
  (db: Db): MiddlewareHandler<AuthEnv> =>
  async (c, next) => {
    const session = await currentSession(c, db)
    if (session === null) throw new ApiFailure(403, 'not_logged_in')
    c.set('memberId', session.memberId)
    c.set('sessionId', session.sessionId)
    await next()
  }

/** What a statement that checks the session itself needs (sessionInStatement), or null without a usable cookie. */
export function sessionParams(c: Context) {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token || token.length > 128) return null
  const now = nowOf(c)
  return {
    token,
    hash: hashToken(token),
    now,
    idleSince: new Date(now.getTime() - SESSION_IDLE_S * 1000),
    touchBefore: new Date(now.getTime() - SESSION_TOUCH_S * 1000),
  }
}

/**
 * currentSession as common table expressions of a caller's single statement
 * (the paid send, api/chats/messages.ts): `sess` is the live session of the
 * token's hash (one row or none, as sessionLookup), `sess_touch` renews its
 * last use at most every SESSION_TOUCH_S and returns the session's id when it
 * did. Parameters as sessionParams makes them.
 *
 * Set-shaped with `each` (several requests in one statement, the gathered
 * send: api/chats/send-batch.ts): `from` is a FROM item with a row per
 * request, the parameters are expressions over it, and `sess` has a row per
 * request whose session is live, with the columns `carry` names (SQL select
 * items over `from`) before its own.
 */
export function sessionInStatement(p: {
  hash: SQL
  now: SQL
  idleSince: SQL
  touchBefore: SQL
  each?: { from: SQL; carry: SQL }
}): SQL {
  const source = p.each
    ? sql`${p.each.carry}, s.id, s.member_id, s.expires_at, s.last_seen_at,
        ${p.now}::timestamptz AS touch_to, ${p.touchBefore}::timestamptz AS touch_before
      FROM ${p.each.from} JOIN sessions s ON s.token_hash = ${p.hash}::text`
    : sql`s.id, s.member_id, s.expires_at, s.last_seen_at,
        ${p.now}::timestamptz AS touch_to, ${p.touchBefore}::timestamptz AS touch_before
      FROM sessions s WHERE s.token_hash = ${p.hash}::text`
  return sql`sess AS (
      SELECT ${source}
        ${p.each ? sql`WHERE` : sql`AND`} s.expires_at > ${p.now}::timestamptz
        AND s.last_seen_at > ${p.idleSince}::timestamptz AND ${liveMemberSql(sql`s.member_id`)}
    ), sess_touch AS (
      UPDATE sessions SET last_seen_at = sess.touch_to FROM sess
      WHERE sessions.id = sess.id AND sess.last_seen_at <= sess.touch_before
        AND sessions.last_seen_at < sess.touch_to
      RETURNING sessions.id
    )`
}

/**
 * After a statement with sessionInStatement: the request's member (403
 * not_logged_in without a live session, as requireMember), and the cookie
 * renewed with the session's last use when the statement renewed it.
 */
export function sessionFromStatement(
  c: Context<AuthEnv>,
  params: { token: string; now: Date },
  row: {
    memberId: number | null
    sessionId: number | null
    expiresAt: Date | null
    touched: boolean
  },
): number {
  if (row.memberId === null || row.sessionId === null) throw new ApiFailure(403, 'not_logged_in')
  if (row.touched && row.expiresAt) {
    const left = Math.floor((row.expiresAt.getTime() - params.now.getTime()) / 1000)
    setSessionCookie(c, params.token, Math.min(SESSION_MAX_AGE_S, left))
  }
  c.set('memberId', row.memberId)
  c.set('sessionId', row.sessionId)
  return row.memberId
}

/**
 * A route that checks the session in its own statement (sessionInStatement)
 * still answers a request without a session cookie 403 before reading its
 * body, as requireMember does.
 */
export const requireSessionCookie: MiddlewareHandler = async (c, next) => {
  if (sessionParams(c) === null) throw new ApiFailure(403, 'not_logged_in')
  await next()
}
