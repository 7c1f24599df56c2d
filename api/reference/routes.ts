import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { GeocodeResponse, RegionsResponse } from '../contract/index.ts'
import { enforce } from '../http/ratelimit.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { type AccountsDeps, ipOf } from '../mail/site.ts'
import { reverseGeocode } from './geocode.ts'
import { regionData } from './regions.ts'

/**
 * Reference data of the sign-up steps (spec §7): public, the same for every
 * visitor, no session needed (the sign-up form runs before the account exists).
 */
export const referenceRoutes = (db: Db, deps: AccountsDeps) =>
  new Hono()
    .get(pathOf(endpoints.regions), (c) =>
      c.json({ region_data: regionData() } satisfies RegionsResponse),
    )
    .get(pathOf(endpoints.geocode), queryOf(endpoints.geocode), async (c) => {
      await enforce(c, db, 'geocode', ipOf(c, deps))
      const { lat, lon } = c.req.valid('query')
      return c.json(reverseGeocode(lat, lon) satisfies GeocodeResponse)
    })
