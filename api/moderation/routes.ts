import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { notFound } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import type { AccountsDeps } from '../mail/site.ts'
import { ipOf } from '../mail/site.ts'
import { fileAppeal, sanctionByToken } from './appeals.ts'

/**
 * The statement of reasons and its appeal, by the token of the mail: they
 * work without a session, since a suspended member has none. An appeal
 * counts against the client's complaint limit, as a complaint does.
 */
export const appealRoutes = (db: Db, accounts: AccountsDeps) =>
  new Hono()
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
