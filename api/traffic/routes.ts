import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { loadSettings } from '../settings/settings.ts'
import { landerMembers } from './landers.ts'

/** GET /api/lander_members.php: public cards for the landers; no login, no private data. */
export const trafficRoutes = (db: Db) =>
  new Hono().get(pathOf(endpoints.landerMembers), queryOf(endpoints.landerMembers), async (c) =>
    c.json(await landerMembers(db, await loadSettings(db), c.req.valid('query').member)),
  )
