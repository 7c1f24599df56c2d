import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { enforce } from '../http/ratelimit.ts'
import { sessionMember } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import type { AccountsDeps } from '../mail/site.ts'
import { ipOf, linkBase } from '../mail/site.ts'
import { loadSettings } from '../settings/index.ts'
import { fileComplaint } from './complaints.ts'

/**
 * POST /api/complaints.php: public (a visitor may report what they saw
 * without an account); a signed-in member's complaint names them. Every
 * attempt counts against the client's limit, valid or not.
 */
export const complaintRoutes = (db: Db, accounts: AccountsDeps, complaintsTo: string) =>
  new Hono().post(
    pathOf(endpoints.complaint),
    async (c, next) => {
      await enforce(c, db, 'complaint', ipOf(c, accounts))
      await next()
    },
    bodyOf(endpoints.complaint),
    async (c) => {
      const settings = await loadSettings(db)
      const receipt = await fileComplaint(db, c.req.valid('json'), {
        mailer: accounts.mailer,
        complaintsTo,
        site: settings.name,
        siteLocale: settings.domain_language,
        memberId: await sessionMember(c, db),
        linkBase: linkBase(c, accounts).base,
      })
      return c.json(receipt, 201)
    },
  )
