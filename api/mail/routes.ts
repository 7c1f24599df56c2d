import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { DevMailResponse } from '../contract/index.ts'
import { notFound } from '../http/errors.ts'
import { sessionMember } from '../http/session.ts'
import { pathOf } from '../http/validate.ts'
import type { Mailer } from './mailer.ts'
import { mailsOfMember, recentMails } from './mailer.ts'

/**
 * GET /api/_dev/mail.php: stored mails for the page /_dev/mail, only while
 * mail is store-only (no SMTP_URL: the row is the delivery; with SMTP mails
 * are in mailboxes and this answers 404).
 * - By default (a demo start too) a signed-in member sees the mails sent to
 *   them, enough to activate a demo sign-up, except reset mails: a reset is
 *   done logged out, so in a session its link would only serve someone who
 *   stole that session. Without a session: 404. Another member's mails are
 *   never shown: their links open that member's account.
 * - Every mail, no session asked, only on a development configuration that
 *   asks for it with DEV_MAIL=all (mailer.devListing, config.ts devMail:
 *   never with SMTP_URL, NODE_ENV=production or DEMO_SEED=off), where the
 *   developer follows sign-up and reset links logged in or not.
 */
export const devMailRoutes = (db: Db, mailer: Mailer) =>
  new Hono().get(pathOf(endpoints.devMails), async (c) => {
    if (!mailer.storeOnly) throw notFound()
    let rows: Awaited<ReturnType<typeof recentMails>>
    if (mailer.devListing) {
      rows = await recentMails(db)
    } else {
      const memberId = await sessionMember(c, db)
      if (memberId === null) throw notFound()
      rows = await mailsOfMember(db, memberId, { except: ['reset'] })
    }
    return c.json({
      mails: rows.map((m) => ({
        id: m.id,
        kind: m.kind,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        created_at: m.createdAt.toISOString(),
        sent_at: m.sentAt?.toISOString() ?? null,
        error: m.error,
      })),
    } satisfies DevMailResponse)
  })
