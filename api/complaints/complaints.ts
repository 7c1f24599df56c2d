// Complaints from the public form (EU notice-and-action, and appeals of a
// decision): stored, receipted to the sender with a reference in their
// language, and mailed to the operator, who answers by mail quoting it.
import { randomInt } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { complaints } from '../../db/schema/index.ts'
import type { ComplaintRequest } from '../contract/index.ts'
import type { Mailer } from '../mail/mailer.ts'
import { storeMail } from '../mail/mailer.ts'

export interface ComplaintContext {
  mailer: Mailer
  /** The operator's address (COMPLAINTS_EMAIL). */
  complaintsTo: string
  site: string
  /** The site's language: the receipt's when the form named none. */
  siteLocale: string
  /** The signed-in member who sent it, if any. */
  memberId: number | null
  /** The site's address for links in mails; null: this request may send none (a foreign Host, api/mail/site.ts linkBase). */
  linkBase: string | null
}

// No 0/O or 1/I/L: a reference is read aloud on the phone.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'

/** "C-" and 8 random characters (31^8, ~8.5e11): unique under the table's constraint. */
export const newReference = () =>
  `C-${Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`

/**
 * Stores the complaint and both mails in one transaction (the jobs send them
 * after the commit). The mails are text only; the receipt names nothing the
 * sender wrote but their name, so the form cannot send chosen text to any
 * address.
 */
export async function fileComplaint(db: Db, input: ComplaintRequest, ctx: ComplaintContext) {
  const locale = input.locale ?? ctx.siteLocale
  const { row, mailIds } = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(complaints)
      .values({
        reference: newReference(),
        kind: input.kind,
        name: input.name,
        email: input.email.toLowerCase(),
        subject: input.subject,
        url: input.url || null,
        text: input.text,
        goodFaith: input.good_faith,
        memberId: ctx.memberId,
        locale,
      })
      .returning()
    if (!row) throw new Error('complaint row not stored')
    if (ctx.linkBase === null) return { row, mailIds: [] }
    const form = `${ctx.linkBase}/complaints`
    const complaint = {
      reference: row.reference,
      kind: row.kind,
      name: row.name,
      email: row.email,
      subject: row.subject,
      url: row.url ?? '',
      text: row.text,
      member: row.memberId,
    }
    const receipt = await storeMail(tx, {
      memberId: ctx.memberId,
      kind: 'complaint_receipt',
      to: row.email,
      locale,
      vars: { name: row.name, site: ctx.site, link: form, complaint },
      plainText: true,
    })
    const operator = await storeMail(tx, {
      memberId: null,
      kind: 'complaint',
      to: ctx.complaintsTo,
      locale: 'en',
      vars: { name: 'Moderation', site: ctx.site, link: row.url ?? form, complaint },
      plainText: true,
    })
    return { row, mailIds: [receipt, operator] }
  })
  ctx.mailer.send(db, mailIds)
  return {
    complaint: {
      reference: row.reference,
      status: 'received' as const,
      created_at: row.createdAt.toISOString(),
    },
  }
}
