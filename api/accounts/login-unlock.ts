// Login throttling that an attacker cannot turn against the owner (an
// audit's finding: 20 wrong passwords from anywhere used to lock a member out
// of their own account, even at home). Failed logins count per address +
// account (`login`: the owner's own address is never touched by others'
// guesses) and per account from every address together (`login_account`, a
// ceiling high enough that filling it takes 100 requests an hour). When
// either refuses a login with 429, the owner of a live account is mailed a
// one-time link (at most one a window: `login_unlock_mail`) that clears both
// for every address. The HTTP answer is the same 429 whether or not the
// account exists, and the mail goes only to the account's own address.
//
// Clearing "every address" without knowing them: the per-address key is a
// ScopedKey whose scope is the account (api/http/ratelimit.ts), stored as
// hash(account).hash(account|address), so clearScope() deletes the account's
// rows by their prefix; nothing is kept in the clear and no extra state (an
// "unlocked at" per account) has to be read on every login.
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { clearKey, clearScope, hit, type ScopedKey } from '../http/ratelimit.ts'
import { storeMail } from '../mail/mailer.ts'
import { loginBarOf } from '../moderation/index.ts'
import { link, loginAccountKey, type MailContext, mailsAllowed, memberByEmail } from './accounts.ts'
import { consumeToken, createToken } from './tokens.ts'

/** The key of rate limit `login`: this account from this client address. */
export const loginAddressKey = (email: string, ip: string): ScopedKey => ({
  scope: loginAccountKey(email),
  part: ip,
})

/**
 * Forgets every failed login of the account: per account, per address (all
 * of them) and the unlock mail's window, so a new lock mails a new link. A
 * proof of owning the mailbox calls it: the unlock link, a finished reset.
 */
export async function clearLoginLimits(db: Db, email: string): Promise<void> {
  const scope = loginAccountKey(email)
  await clearKey(db, 'login_account', scope)
  await clearScope(db, 'login', scope)
  await clearKey(db, 'login_unlock_mail', scope)
}

/**
 * A login of `email` was refused with 429: mails the owner of a live account
 * (not deleted, not closed by a ban at `now`) a one-time unlock link, at most
 * once per `login_unlock_mail` window. Does nothing for an unknown address;
 * the caller answers the same 429 either way. Delivery runs after the answer.
 */
export async function offerLoginUnlock(
  db: Db,
  email: string,
  ctx: MailContext,
  now = new Date(),
): Promise<void> {
  // A request to a host that is not the site's would mail a link to it.
  if (!mailsAllowed(ctx.links)) return
  // Counted for unknown addresses too: up to here both cost the same.
  const { count } = await hit(db, 'login_unlock_mail', loginAccountKey(email))
  if (count !== 1) return
  const mailIds: number[] = []
  await db.transaction(async (tx) => {
    const member = await memberByEmail(tx, email)
    if (!member) return
    // A closed account has nothing to log in to (its login only says so).
    if ((await loginBarOf(tx, member.id, now))?.kind === 'ban') return
    const token = await createToken(tx, member.id, 'login_unlock')
    mailIds.push(
      await storeMail(tx, {
        memberId: member.id,
        kind: 'login_unlock',
        to: member.email,
        locale: member.language,
        vars: {
          name: member.name,
          site: ctx.settings.name,
          link: link(ctx.links, `/login-unlock?token=${token}`),
        },
      }),
    )
  })
  ctx.mailer.send(db, mailIds)
}

/**
 * Follows an unlock link: the token is used up (once, unexpired) and the
 * account's login limits are cleared. Signs nobody in: the password is still
 * needed. 400 invalid_token for a used, expired or unknown token.
 */
export async function unlockLogin(db: Db, token: string): Promise<void> {
  const email = await db.transaction(async (tx) => {
    const row = await consumeToken(tx, token, 'login_unlock')
    if (!row) return null
    const [member] = await tx
      .select({ email: members.email })
      .from(members)
      .where(and(eq(members.id, row.memberId), isNull(members.deletedAt)))
    return member?.email ?? null
  })
  if (email === null) throw new ApiFailure(400, 'invalid_token', 'token')
  await clearLoginLimits(db, email)
}
