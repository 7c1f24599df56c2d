// Outgoing mail. Every mail is first a row in `mails` and a `mail.send` job,
// written in the same transaction as what it announces (a token, an account);
// sending happens after the commit, so a rolled-back request never mails. The
// job queue (api/jobs/) retries a failed send with backoff, so a mail is not
// lost to a passing SMTP failure: `sent_at` is set on success, `error` holds
// the last failure. Delivery is at least once: a crash between the SMTP
// server's acceptance and the sent_at update sends that mail again.
// Without SMTP_URL the row is the delivery: it is marked sent at once and the
// developer page /_dev/mail lists it.
import { and, desc, eq, isNotNull, notInArray } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { Db } from '../../db/client.ts'
import { mails } from '../../db/schema/index.ts'
import { enqueue, type JobHandlers, type JobRunner } from '../jobs/queue.ts'
import { type MailKind, type MailVars, renderMail } from './templates.ts'

export interface OutgoingMail {
  memberId: number | null
  kind: MailKind
  to: string
  /** The member's language; templates fall back to English. */
  locale: string
  vars: MailVars
  /** Text only, no HTML part (mails carrying a visitor's words: never a relay for markup). */
  plainText?: boolean
}

/** The job kind that sends one stored mail. */
export const MAIL_SEND = 'mail.send'

/** Renders and stores a mail and its send job (call inside the request's transaction); returns its id. */
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
      html: mail.plainText ? '' : rendered.html,
    })
    .returning({ id: mails.id })
  if (!row) throw new Error('mail row not stored')
  await enqueue(db, { kind: MAIL_SEND, payload: { mailId: row.id } })
  return row.id
}

export interface Mailer {
  /** True when mails are only stored (no SMTP_URL). */
  readonly storeOnly: boolean
  /**
   * Whether GET /api/_dev/mail.php lists every stored mail to anyone
   * (DEV_MAIL=all, development only, api/config.ts); else a member their own.
   */
  readonly devListing: boolean
  /** Sends stored mails after the commit; never throws, never blocks the answer. */
  send(db: Db, ids: number[]): void
  /** Resolves when every send started so far has finished (tests, shutdown). */
  idle(): Promise<void>
  /** Sends one stored mail unless it was sent; throws when the SMTP server refuses it. */
  deliver(db: Db, id: number): Promise<void>
  /** From now on send() hands the work to the job queue (retries) instead of sending itself. */
  attach(runner: JobRunner): void
}

/** The job handlers of mail, for the runner of `db`. */
export const mailJobs = (db: Db, mailer: Mailer): JobHandlers => ({
  [MAIL_SEND]: async (payload) => {
    const mailId = (payload as { mailId?: unknown }).mailId
    if (typeof mailId !== 'number') throw new Error('mail.send without mailId')
    await mailer.deliver(db, mailId)
  },
})

export interface MailerOptions {
  smtpUrl?: string | undefined
  from?: string
  /** Every stored mail listed to anyone (DEV_MAIL=all). Default off: a member sees their own. */
  devListing?: boolean
}

export function createMailer(options: MailerOptions = {}): Mailer {
  const from = options.from ?? 'Amora <no-reply@localhost>'
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null
  const pending = new Set<Promise<void>>()
  let runner: JobRunner | undefined

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
          ...(row.html ? { html: row.html } : {}),
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
      throw e
    }
  }

  return {
    storeOnly: transport === null,
    devListing: transport === null && options.devListing === true,
    send(db, ids) {
      if (runner) {
        runner.poke()
        return
      }
      // No queue attached (a mailer used on its own): one attempt now; the
      // stored job is still there for a runner to retry.
      const job = (async () => {
        for (const id of ids) await deliver(db, id).catch(() => undefined)
      })().catch((e) => console.error('mail: bookkeeping failed', ids, e))
      pending.add(job)
      void job.finally(() => pending.delete(job))
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending])
      await runner?.idle()
    },
    deliver,
    attach(next) {
      runner = next
    },
  }
}

/** The newest stored mails, for the developer page. */
export async function recentMails(db: Db, limit = 100) {
  return db.select().from(mails).orderBy(desc(mails.id)).limit(limit)
}

/** The newest mails sent to one member, leaving out some kinds. */
export async function mailsOfMember(
  db: Db,
  memberId: number,
  { except = [], limit = 100 }: { except?: MailKind[]; limit?: number } = {},
) {
  return db
    .select()
    .from(mails)
    .where(
      and(
        eq(mails.memberId, memberId),
        except.length > 0 ? notInArray(mails.kind, except) : undefined,
      ),
    )
    .orderBy(desc(mails.id))
    .limit(limit)
}

/** Whether a mail of `kind` to the member has left (sent_at set): spec §4 step 6 asks of the activation mail. */
export async function mailSent(db: Db, memberId: number, kind: MailKind): Promise<boolean> {
  const [sent] = await db
    .select({ id: mails.id })
    .from(mails)
    .where(and(eq(mails.memberId, memberId), eq(mails.kind, kind), isNotNull(mails.sentAt)))
    .limit(1)
  return sent !== undefined
}
