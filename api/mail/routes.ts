import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { DevMailResponse } from '../contract/index.ts'
import { notFound } from '../http/errors.ts'
import { pathOf } from '../http/validate.ts'
import type { Mailer } from './mailer.ts'
import { recentMails } from './mailer.ts'

/**
 * GET /api/_dev/mail.php: the stored mails for the developer page /_dev/mail.
 * It exists only while mail is store-only (no SMTP_URL) and dev mail is on
 * (DEMO_SEED=on or DEV_MAIL=on): its links would open any account, so a
 * production site (DEMO_SEED=off, or SMTP) answers 404. No session is asked:
 * the developer follows sign-up and reset links, logged in or not.
 */
export const devMailRoutes = (db: Db, mailer: Mailer) =>
  new Hono().get(pathOf(endpoints.devMails), async (c) => {
    if (!mailer.storeOnly || !mailer.devListing) throw notFound()
    const rows = await recentMails(db)
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
