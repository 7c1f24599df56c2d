// Staff sessions and the role check of every console endpoint. Staff sign in
// apart from members (own table, own cookie): a member session never reaches
// the console, and anyone without a live staff session gets the 404 of a path
// that does not exist, so the console is not even seen.
import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Db } from '../../db/client.ts'
import { staff, staffSessions } from '../../db/schema/index.ts'
import { type Capability, can, STAFF_ABSOLUTE_S, STAFF_IDLE_S } from '../contract/rules/staff.ts'
import { ApiFailure } from '../http/errors.ts'
import { isSecureOrigin, nowOf } from '../http/session.ts'
import { hashToken } from '../shared/tokens.ts'

export const STAFF_COOKIE = 'staff_sid'
/** Last use is written at most once a minute per session. */
const TOUCH_S = 60

export interface StaffMember {
  id: number
  email: string
  name: string
  roles: string[]
  sessionId: number
}
export type StaffEnv = { Variables: { staff: StaffMember } }

/** The answer to anyone who is not staff: the same as an unknown endpoint's. */
export const hidden = () => new ApiFailure(404, 'not_found', undefined, 'no such endpoint')

function setStaffCookie(c: Context, token: string) {
  setCookie(c, STAFF_COOKIE, token, {
    httpOnly: true,
    secure: isSecureOrigin(c),
    // Strict: no link from another site (a mail, a forum post) arrives
    // signed in to the console.
    sameSite: 'Strict',
    path: '/',
    maxAge: STAFF_IDLE_S,
  })
}

export async function startStaffSession(c: Context, db: Db, staffId: number): Promise<void> {
  const token = randomBytes(32).toString('base64url')
  const now = nowOf(c)
  await db
    .delete(staffSessions)
    .where(and(eq(staffSessions.staffId, staffId), lt(staffSessions.expiresAt, now)))
  await db.insert(staffSessions).values({
    tokenHash: hashToken(token),
    staffId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_S * 1000),
  })
  setStaffCookie(c, token)
}

export async function endStaffSession(c: Context, db: Db): Promise<void> {
  const token = getCookie(c, STAFF_COOKIE)
  if (token) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(token)))
  deleteCookie(c, STAFF_COOKIE, { path: '/', secure: isSecureOrigin(c) })
}

/**
 * The staff member of the request's console session, or null: no cookie,
 * unknown, idle for STAFF_IDLE_S, past STAFF_ABSOLUTE_S, or the account
 * disabled. Use renews the idle time (and the cookie) at most once a minute.
 */
export async function currentStaff(c: Context, db: Db): Promise<StaffMember | null> {
  const token = getCookie(c, STAFF_COOKIE)
  if (!token || token.length > 128) return null
  const now = nowOf(c)
  const tokenHash = hashToken(token)
  const [row] = await db
    .select({
      id: staff.id,
      email: staff.email,
      name: staff.name,
      roles: staff.roles,
      sessionId: staffSessions.id,
      lastSeenAt: staffSessions.lastSeenAt,
    })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.tokenHash, tokenHash),
        gt(staffSessions.expiresAt, now),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - STAFF_IDLE_S * 1000)),
        isNull(staff.disabledAt),
      ),
    )
  if (!row) return null
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_S * 1000) {
    await db
      .update(staffSessions)
      .set({ lastSeenAt: now })
      .where(eq(staffSessions.id, row.sessionId))
    setStaffCookie(c, token)
  }
  const { lastSeenAt: _, ...member } = row
  return member
}

/**
 * Every console endpoint but the sign-in: a live staff session, else 404;
 * with a capability, a staff member whose roles lack it gets 403.
 */
export const requireStaff =
  (db: Db, capability?: Capability): MiddlewareHandler<StaffEnv> =>
  async (c, next) => {
    const member = await currentStaff(c, db)
    if (!member) throw hidden()
    if (capability && !can(member.roles, capability)) throw new ApiFailure(403, 'forbidden')
    c.set('staff', member)
    await next()
  }

export { type AuditInput, audit } from '../shared/audit.ts'
