// Activation: the mailed single-use link confirms the address.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema/index.ts'
import type { ActivateStatusResponse } from '../contract/index.ts'
import { mailSent, storeMail } from '../mail/mailer.ts'
import { link, type MailContext, mailsAllowed } from './accounts.ts'
import { consumeToken, createToken, voidTokens } from './tokens.ts'

/** Follows an activation link; false for a used, expired or unknown token (→ /activate/error). */
export async function activate(db: Db, token: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await consumeToken(tx, token, 'activate')
    if (!row) return false
    const [member] = await tx
      .update(members)
      .set({ activatedAt: sql`coalesce(${members.activatedAt}, now())` })
      .where(and(eq(members.id, row.memberId), isNull(members.deletedAt)))
      .returning({ id: members.id })
    return member !== undefined
  })
}

/** Mails a fresh activation link (older ones stop working). */
export async function resendActivation(
  db: Db,
  memberId: number,
  ctx: MailContext,
): Promise<'sent' | 'already_active'> {
  const mailIds: number[] = []
  const status = await db.transaction(async (tx) => {
    const [member] = await tx
      .select()
      .from(members)
      .where(and(eq(members.id, memberId), isNull(members.deletedAt)))
    if (!member || member.activatedAt) return 'already_active' as const
    // Asked on a foreign host: nothing changes and nothing is mailed.
    if (!mailsAllowed(ctx.links)) return 'sent' as const
    await voidTokens(tx, memberId, 'activate')
    const token = await createToken(tx, memberId, 'activate')
    mailIds.push(
      await storeMail(tx, {
        memberId,
        kind: 'activate',
        to: member.email,
        locale: member.language,
        vars: {
          name: member.name,
          site: ctx.settings.name,
          link: link(ctx.links, `/api/activate.php?token=${token}`),
        },
      }),
    )
    return 'sent' as const
  })
  ctx.mailer.send(db, mailIds)
  return status
}

/** Spec §4 step 6: has the activation mail left, and is the account activated? */
export async function activationStatus(db: Db, memberId: number): Promise<ActivateStatusResponse> {
  const [member] = await db
    .select({ activatedAt: members.activatedAt })
    .from(members)
    .where(eq(members.id, memberId))
  const delivered = await mailSent(db, memberId, 'activate')
  return { delivered, activated: member?.activatedAt != null }
}
