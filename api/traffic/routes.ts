import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { requestHost } from '../http/host.ts'
import { clientIp, enforce } from '../http/ratelimit.ts'
import { type ClockEnv, nowOf } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { loadSettings, siteKeyOf } from '../settings/index.ts'
import { landerMembers } from './landers.ts'
import { recordVisit } from './visits.ts'

/**
 * GET /api/lander_members.php: public cards for the landers; no login, no
 * private data. POST /api/lander_visit.php: a lander was shown (visits.ts);
 * 204 whether it counted or not, 429 past the address's limit.
 */
export const trafficRoutes = (db: Db, trustProxy = false) =>
  new Hono<ClockEnv>()
    .get(pathOf(endpoints.landerMembers), queryOf(endpoints.landerMembers), async (c) =>
      c.json(
        await landerMembers(
          db,
          await loadSettings(db, requestHost(c, trustProxy)),
          c.req.valid('query').member,
        ),
      ),
    )
    .post(pathOf(endpoints.landerVisit), bodyOf(endpoints.landerVisit), async (c) => {
      const body = c.req.valid('json')
      const ip = clientIp(c, trustProxy)
      await enforce(c, db, 'lander_visit_ip', ip)
      await recordVisit(db, {
        ip,
        userAgent: c.req.header('user-agent'),
        site: await siteKeyOf(db, requestHost(c, trustProxy)),
        lander: body.lander,
        network: body.network,
        sub1: body.sub1,
        now: nowOf(c),
      })
      return c.body(null, 204)
    })
