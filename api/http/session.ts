import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lte } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Db } from '../../db/client.ts'
import { members, sessions } from '../../db/schema.ts'
import { ApiFailure } from './errors.ts'

export const SESSION_COOKIE = 'sid'
/** Spec §9: the storage cookie lives 30 days (2592000 s), SameSite Lax. */
export const SESSION_MAX_AGE_S = 2_592_000

export type AuthEnv = { Variables: { memberId: number } }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Secure everywhere but plain-http localhost, where browsers would drop it. */
function isSecureOrigin(c: Context): boolean {
  const url = new URL(c.req.url)
  const proto = c.req.header('x-forwarded-proto') ?? url.protocol.replace(':', '')
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  return proto === 'https' || !local
}

/** A new random token (256 bits) per login; only its hash is stored. */
export async function startSession(c: Context, db: Db, memberId: number): Promise<void> {
  const token = randomBytes(32).toString('base64url')
  // Expired sessions of this member go when a new one starts, so the table
  // does not grow without bound for members who never log out.
  await db
    .delete(sessions)
    .where(and(eq(sessions.memberId, memberId), lte(sessions.expiresAt, new Date())))
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    memberId,
    expiresAt: new Date(Date.now() + SESSION_MAX_AGE_S * 1000),
  })
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: isSecureOrigin(c),
    sameSite: 'Lax',
    path: '/',
    maxAge: SESSION_MAX_AGE_S,
  })
}

export async function endSession(c: Context, db: Db): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)))
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecureOrigin(c) })
}

/** The member of the request's session, or null (expired, unknown, deleted). */
export async function sessionMember(c: Context, db: Db): Promise<number | null> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token || token.length > 128) return null
  const [row] = await db
    .select({ memberId: sessions.memberId })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        gt(sessions.expiresAt, new Date()),
        isNull(members.deletedAt),
      ),
    )
  return row?.memberId ?? null
}

/** Spec §8: a request without a live session gets 403 (the client refetches/clears the user). */
export const requireMember =
  (db: Db): MiddlewareHandler<AuthEnv> =>
  async (c, next) => {
    const memberId = await sessionMember(c, db)
    if (memberId === null) throw new ApiFailure(403, 'not_logged_in')
    c.set('memberId', memberId)
    await next()
  }
