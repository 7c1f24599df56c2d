// Console sign-in throttling, by the members' rules (api/accounts/login-unlock.ts):
// failed sign-ins count per address + staff account (`staff_login`) and per
// staff account from every address (`staff_login_account`, 100 an hour, so
// a botnet cannot cheaply lock staff out of the console); when either
// refuses a sign-in with 429, a live (not disabled) staff member is mailed a
// one-time link (at most one a window: `staff_unlock_mail`) that clears both
// for every address. The answer is the same 429 for unknown addresses.
// Staff tokens live in `staff_tokens` (staff are not members), made and used
// like members' account tokens: 256 random bits in the link, their SHA-256
// stored, single use, 1 hour.
import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { staff, staffTokens } from '../../db/schema/index.ts'
import type { MailContext } from '../accounts/index.ts'
import { TOKEN_TTL_MS } from '../accounts/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { clearKey, clearScope, hit, type ScopedKey } from '../http/ratelimit.ts'
import { storeMail } from '../mail/mailer.ts'
import { link, mailsAllowed } from '../mail/site.ts'
import { hashToken } from '../shared/tokens.ts'

/** Staff addresses are stored lower-cased (api/operator/staff.ts). */
const normalize = (email: string) => email.trim().toLowerCase()

/** The key of rate limit `staff_login_account`, and the scope of `staff_login`'s keys. */
export const staffAccountKey = (email: string) => `staff:${normalize(email)}`

/** The key of rate limit `staff_login`: this staff account from this client address. */
export const staffAddressKey = (email: string, ip: string): ScopedKey => ({
  scope: staffAccountKey(email),
  part: ip,
})

/** Forgets every failed sign-in of the staff account, from every address, and the mail's window. */
export async function clearStaffLoginLimits(db: Db, email: string): Promise<void> {
  const scope = staffAccountKey(email)
  await clearKey(db, 'staff_login_account', scope)
  await clearScope(db, 'staff_login', scope)
  await clearKey(db, 'staff_unlock_mail', scope)
}

/**
 * A console sign-in of `email` was refused with 429: mails a live staff
 * member a one-time unlock link, at most once per `staff_unlock_mail` window
 * (in English, like the console's other mails: staff have no language).
 * Nothing for an unknown or disabled account; the caller answers the same.
 */
export async function offerStaffUnlock(db: Db, email: string, ctx: MailContext): Promise<void> {
  if (!mailsAllowed(ctx.links)) return
  const { count } = await hit(db, 'staff_unlock_mail', staffAccountKey(email))
  if (count !== 1) return
  const mailIds: number[] = []
  await db.transaction(async (tx) => {
    const [member] = await tx
      .select()
      .from(staff)
      .where(and(eq(staff.email, normalize(email)), isNull(staff.disabledAt)))
    if (!member) return
    const token = randomBytes(32).toString('base64url')
    const now = new Date()
    await tx.insert(staffTokens).values({
      tokenHash: hashToken(token),
      staffId: member.id,
      kind: 'login_unlock',
      createdAt: now,
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS.login_unlock),
    })
    mailIds.push(
      await storeMail(tx, {
        memberId: null,
        kind: 'staff_unlock',
        to: member.email,
        locale: 'en',
        vars: {
          name: member.name,
          site: ctx.settings.name,
          link: link(ctx.links, `/operator/unlock?token=${token}`),
        },
      }),
    )
  })
  ctx.mailer.send(db, mailIds)
}

/**
 * Follows a console unlock link: the token is used up (one conditional
 * UPDATE: unused, unexpired, so two clicks cannot both pass) and the
 * account's sign-in limits are cleared. Signs nobody in: password and code
 * are still needed. 400 invalid_token for a used, expired or unknown token,
 * or a disabled account.
 */
export async function unlockStaff(db: Db, token: string, now = new Date()): Promise<void> {
  const email = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(staffTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffTokens.tokenHash, hashToken(token)),
          eq(staffTokens.kind, 'login_unlock'),
          isNull(staffTokens.usedAt),
          gt(staffTokens.expiresAt, now),
        ),
      )
      .returning({ staffId: staffTokens.staffId })
    if (!row) return null
    const [member] = await tx
      .select({ email: staff.email })
      .from(staff)
      .where(and(eq(staff.id, row.staffId), isNull(staff.disabledAt)))
    return member?.email ?? null
  })
  if (email === null) throw new ApiFailure(400, 'invalid_token', 'token')
  await clearStaffLoginLimits(db, email)
}
