// Mail change (spec §2): the new address gets a link and the change
// happens only when it is followed; the old address is told at once, with a
// way to call it off (/notifications#email-change-incorrect).
import { and, eq, isNull, sql } from 'drizzle-orm'
import { type Db, hasPgCode } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { storeMail } from '../mail/mailer.ts'
import {
  checkPassword,
  link,
  type MailContext,
  mailproviderOf,
  mailsAllowed,
  normalizeEmail,
} from './accounts.ts'
import { refuseDisposable } from './disposable.ts'
import { consumeToken, createToken, voidTokens } from './tokens.ts'

export async function requestMailChange(
  db: Db,
  memberId: number,
  req: { password: string; email: string },
  ctx: MailContext,
): Promise<void> {
  const member = await checkPassword(db, memberId, req.password)
  const newEmail = normalizeEmail(req.email)
  if (newEmail === member.email) throw new ApiFailure(400, 'same_email', 'email')
  // A throw-away address is refused here as at sign-up (docs/accounts.md).
  refuseDisposable(newEmail)
  // Asked on a host that is not the site's: nothing changes, nothing is mailed.
  if (!mailsAllowed(ctx.links)) return
  const site = ctx.settings.name
  const mailIds: number[] = []
  await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ id: members.id, deletedAt: members.deletedAt, language: members.language })
      .from(members)
      .where(eq(members.email, newEmail))
    if (owner) {
      // Taken: the same answer as a free address; the address's owner is told
      // (a deleted account's owner is left alone). Nothing else happens.
      if (!owner.deletedAt) {
        mailIds.push(
          await storeMail(tx, {
            memberId: owner.id,
            kind: 'mail_change_taken',
            to: newEmail,
            locale: owner.language,
            vars: { name: newEmail, site, link: link(ctx.links, '/login') },
          }),
        )
      }
      return
    }
    // One pending change at a time: a new request replaces the last.
    await voidTokens(tx, memberId, 'mail_change')
    const token = await createToken(tx, memberId, 'mail_change', newEmail)
    const vars = { name: member.name, site, newEmail }
    mailIds.push(
      await storeMail(tx, {
        memberId,
        kind: 'mail_change_confirm',
        to: newEmail,
        locale: member.language,
        vars: { ...vars, link: link(ctx.links, `/mail-change/do?token=${token}`) },
      }),
      await storeMail(tx, {
        memberId,
        kind: 'mail_change_notice',
        to: member.email,
        locale: member.language,
        vars: { ...vars, link: link(ctx.links, '/notifications#email-change-incorrect') },
      }),
    )
  })
  ctx.mailer.send(db, mailIds)
}

/** PostgreSQL's unique_violation. */
const isUniqueViolation = (e: unknown) => hasPgCode(e, '23505')

/**
 * Follows a mail-change link: the address changes now. The unique index on
 * members.email decides a race with a sign-up or another change (409; the
 * token stays usable since the transaction rolls back). The new mailbox is
 * proven, so an unconfirmed account becomes active.
 */
export async function applyMailChange(db: Db, token: string): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const row = await consumeToken(tx, token, 'mail_change')
      if (!row?.newEmail) throw new ApiFailure(400, 'invalid_token', 'token')
      const [member] = await tx
        .update(members)
        .set({
          email: row.newEmail,
          mailprovider: mailproviderOf(row.newEmail),
          activatedAt: sql`coalesce(${members.activatedAt}, now())`,
        })
        .where(and(eq(members.id, row.memberId), isNull(members.deletedAt)))
        .returning({ email: members.email })
      if (!member) throw new ApiFailure(400, 'invalid_token', 'token')
      return member.email
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw new ApiFailure(409, 'email_taken', 'email')
    throw e
  }
}
