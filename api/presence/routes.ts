import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf } from '../http/validate.ts'
import { privacyOf, setPrivacy } from './privacy.ts'
import { markVisitorsSeen, visitorsOf } from './visits.ts'

/**
 * The member's privacy choices about live signals (GET/PUT /api/privacy.php)
 * and the visitors of their profile (GET/PUT /api/visitors.php).
 */
export const presenceRoutes = (db: Db) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.privacy), requireMember(db), async (c) =>
      c.json(await privacyOf(db, c.get('memberId'))),
    )
    .put(
      pathOf(endpoints.privacyUpdate),
      requireMember(db),
      bodyOf(endpoints.privacyUpdate),
      async (c) => c.json(await setPrivacy(db, c.get('memberId'), c.req.valid('json'))),
    )
    .get(pathOf(endpoints.visitors), requireMember(db), async (c) =>
      c.json(await visitorsOf(db, c.get('memberId'))),
    )
    .put(pathOf(endpoints.visitorsSeen), requireMember(db), async (c) => {
      await markVisitorsSeen(db, c.get('memberId'))
      return c.json({ new_count: 0 as const })
    })
