import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import {
  GeocodeQuery,
  type GeocodeResponse,
  type InterestsResponse,
  type ProfileFieldsResponse,
  type RegionsResponse,
} from '../contract/index.ts'
import { reverseGeocode } from './geocode.ts'
import { allowedValues, INTERESTS } from '../profiles/fields.ts'
import { enforce } from '../http/ratelimit.ts'
import { regionData } from './regions.ts'
import { loadSettings } from '../settings/settings.ts'
import { validate } from '../http/validate.ts'
import { type AccountsDeps, ipOf } from '../accounts/deps.ts'

/**
 * Reference data of the sign-up steps (spec §7): public, the same for every
 * visitor, no session needed (the sign-up form runs before the account exists).
 */
export const referenceRoutes = (db: Db, deps: AccountsDeps) =>
  new Hono()
    .get('/regions.php', (c) => c.json({ region_data: regionData() } satisfies RegionsResponse))
    .get('/interests.php', (c) => c.json({ interests: [...INTERESTS] } satisfies InterestsResponse))
    .get('/profile_fields.php', async (c) => {
      const settings = await loadSettings(db)
      return c.json({
        allowed_values: allowedValues(settings.visible_profile_fields),
      } satisfies ProfileFieldsResponse)
    })
    .get('/geocode.php', validate('query', GeocodeQuery), async (c) => {
      await enforce(c, db, 'geocode', ipOf(c, deps))
      const { lat, lon } = c.req.valid('query')
      return c.json(reverseGeocode(lat, lon) satisfies GeocodeResponse)
    })
