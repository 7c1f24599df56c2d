import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { pathOf } from '../http/validate.ts'
import { markActive } from './user.ts'

/**
 * Spec §7: the page-hidden beacon (an empty JSON body). It marks the member's
 * last activity, which orders search results; nothing else depends on it.
 */
export const activityRoutes = (db: Db) =>
  new Hono<AuthEnv>().post(pathOf(endpoints.pageHidden), requireMember(db), async (c) => {
    await markActive(db, c.get('memberId'))
    return c.body(null, 204)
  })
