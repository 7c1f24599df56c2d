// Password reset: the request always answers the same; the mailed
// single-use link (1 hour) sets a new password and ends every session.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { storeMail } from '../mail/mailer.ts'
import { endAllSessions } from '../sessions/index.ts'
import { link, type MailContext, mailsAllowed, normalizeEmail } from './accounts.ts'
import { clearLoginLimits } from './login-unlock.ts'
import { assertStrongPassword, hashPassword } from './password.ts'
import { consumeToken, createToken, isOpenToken, voidTokens } from './tokens.ts'

/**
 * Mails a reset link when the address belongs to a live account, and does
 * nothing otherwise: the caller answers the same either way. Delivery runs
 * after the answer, so SMTP time does not tell the two apart; what is left is
 * two small inserts.
 */
export async function requestReset(db: Db, email: string, ctx: MailContext): Promise<void> {
  // Reset-link poisoning: a reset asked on a host that is not the site's
  // would mail a link to that host; it is answered the same and does nothing.
  if (!mailsAllowed(ctx.links)) return
  const mailIds: number[] = []
  await db.transaction(async (tx) => {
    const [member] = await tx
      .select()
      .from(members)
      .where(and(eq(members.email, normalizeEmail(email)), isNull(members.deletedAt)))
    if (!member) return
    const token = await createToken(tx, member.id, 'reset')
    mailIds.push(
      await storeMail(tx, {
        memberId: member.id,
        kind: 'reset',
        to: member.email,
        locale: member.language,
        vars: {
          name: member.name,
          site: ctx.settings.name,
          link: link(ctx.links, `/reset-password/do?token=${token}`),
        },
      }),
    )
  })
  ctx.mailer.send(db, mailIds)
}

/**
 * Sets the new password from a reset link. Every session of the member ends
 * (a thief signed in elsewhere is out), every other reset link dies, and an
 * unconfirmed account counts as activated: the link proved the mailbox.
 * Returns the member, for whom the caller starts one new session.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<number> {
  // argon2id costs ~50 ms and 19 MiB: never spent on a token that cannot work.
  if (!(await isOpenToken(db, token, 'reset'))) throw new ApiFailure(400, 'invalid_token', 'token')
  assertStrongPassword(password)
  const passwordHash = await hashPassword(password)
  const member = await db.transaction(async (tx) => {
    const row = await consumeToken(tx, token, 'reset')
    if (!row) return null
    const [owner] = await tx
      .select({ email: members.email })
      .from(members)
      .where(eq(members.id, row.memberId))
    // Throwing rolls the token back: the member may try another password.
    if (owner) assertStrongPassword(password, owner.email)
    const [member] = await tx
      .update(members)
      .set({ passwordHash, activatedAt: sql`coalesce(${members.activatedAt}, now())` })
      .where(and(eq(members.id, row.memberId), isNull(members.deletedAt)))
      .returning({ id: members.id, email: members.email })
    if (!member) return null
    await endAllSessions(tx, member.id)
    await voidTokens(tx, member.id, 'reset')
    return member
  })
  if (member === null) throw new ApiFailure(400, 'invalid_token', 'token')
  // The mailbox is proven and the password new: failed logins of others on
  // this account no longer keep its owner out, from any address (as the
  // mailed unlock link does).
  await clearLoginLimits(db, member.email)
  return member.id
}
