// Outgoing mail (issue 3). Every mail is first a row in `mails`, written in
// the same transaction as what it announces (a token, an account); sending
// happens after the commit, so a rolled-back request never mails and a failed
// send never loses the row: `sent_at` is set on success, `error` on failure.
// Without SMTP_URL the row is the delivery: it is marked sent at once and the
// developer page /_dev/mail lists it.
import { desc, eq } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { Db } from '../../db/client.ts'
import { mails } from '../../db/schema.ts'
import { type MailKind, type MailVars, renderMail } from './templates.ts'

export interface OutgoingMail {
  memberId: number | null
  kind: MailKind
  to: string
  /** The member's language; templates fall back to English. */
  locale: string
  vars: MailVars
}

/** Renders and stores a mail (call inside the request's transaction); returns its id. */
export async function storeMail(db: Db, mail: OutgoingMail): Promise<number> {
  const rendered = renderMail(mail.kind, mail.locale, mail.vars)
  const [row] = await db
    .insert(mails)
    .values({
      memberId: mail.memberId,
      kind: mail.kind,
      to: mail.to,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
    })
    .returning({ id: mails.id })
  if (!row) throw new Error('mail row not stored')
  return row.id
}

export interface Mailer {
  /** True when mails are only stored (no SMTP_URL). */
  readonly storeOnly: boolean
  /** Whether GET /api/_dev/mail.php may list stored mails. */
  readonly devListing: boolean
  /** Sends stored mails after the commit; never throws, never blocks the answer. */
  send(db: Db, ids: number[]): void
  /** Resolves when every send started so far has finished (tests, shutdown). */
  idle(): Promise<void>
}

export interface MailerOptions {
  smtpUrl?: string | undefined
  from?: string
  /** Default: on exactly when there is no SMTP. */
  devListing?: boolean
}

export function createMailer(options: MailerOptions = {}): Mailer {
  const from = options.from ?? 'Amora <no-reply@localhost>'
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null
  const pending = new Set<Promise<void>>()

  async function deliver(db: Db, id: number): Promise<void> {
    const [row] = await db.select().from(mails).where(eq(mails.id, id))
    if (!row || row.sentAt) return
    try {
      if (transport) {
        await transport.sendMail({
          from,
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html,
        })
      }
      await db.update(mails).set({ sentAt: new Date(), error: null }).where(eq(mails.id, id))
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e)
      console.error('mail: sending failed', id, row.kind, error)
      await db
        .update(mails)
        .set({ error: error.slice(0, 1000) })
        .where(eq(mails.id, id))
    }
  }

  return {
    storeOnly: transport === null,
    devListing: options.devListing ?? transport === null,
    send(db, ids) {
      const job = (async () => {
        for (const id of ids) await deliver(db, id)
      })().catch((e) => console.error('mail: bookkeeping failed', ids, e))
      pending.add(job)
      void job.finally(() => pending.delete(job))
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending])
    },
  }
}

/** The newest stored mails, for the developer page. */
export async function recentMails(db: Db, limit = 100) {
  return db.select().from(mails).orderBy(desc(mails.id)).limit(limit)
}
