import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { notFound } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { sessionMember } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { fileAppeal, sanctionByToken } from '../moderation/index.ts'
import { loadSettings } from '../settings/index.ts'
import type { AccountsDeps } from '../shared/site.ts'
import { ipOf, linkBase } from '../shared/site.ts'
import { fileComplaint } from './complaints.ts'

/**
 * POST /api/complaints.php: public (a visitor may report what they saw
 * without an account); a signed-in member's complaint names them. Every
 * attempt counts against the client's limit, valid or not.
 */
export const complaintRoutes = (db: Db, accounts: AccountsDeps, complaintsTo: string) =>
  new Hono()
    .post(
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
    // The statement of reasons and its appeal, by the token of the mail: they
    // work without a session, since a suspended member has none.
    .get(pathOf(endpoints.statement), queryOf(endpoints.statement), async (c) => {
      const found = await sanctionByToken(db, c.req.valid('query').token)
      if (!found) throw notFound()
      const { sanction: s, appeal } = found
      return c.json({
        kind: s.kind,
        rule: s.rule,
        reason: s.reason,
        starts_at: s.startsAt.toISOString(),
        ends_at: s.endsAt?.toISOString() ?? null,
        lifted_at: s.liftedAt?.toISOString() ?? null,
        automated: false as const,
        appeal: appeal
          ? {
              created_at: appeal.createdAt.toISOString(),
              outcome: appeal.outcome,
              reason: appeal.reason,
            }
          : null,
      })
    })
    .post(
      pathOf(endpoints.appeal),
      async (c, next) => {
        await enforce(c, db, 'complaint', ipOf(c, accounts))
        await next()
      },
      bodyOf(endpoints.appeal),
      async (c) => {
        const { token, text } = c.req.valid('json')
        await fileAppeal(db, token, text)
        return c.json({ status: 'received' as const }, 201)
      },
    )
