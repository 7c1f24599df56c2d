import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { requestHost } from '../http/host.ts'
import { pathOf } from '../http/validate.ts'
import { catalogueOf } from './gifts.ts'

/** GET /api/gifts.php: the gifts on sale on the request's site, with their prices. */
export const giftRoutes = (db: Db, trustProxy: boolean) =>
  new Hono().get(pathOf(endpoints.gifts), async (c) =>
    c.json({ gifts: await catalogueOf(db, requestHost(c, trustProxy)) }),
  )
