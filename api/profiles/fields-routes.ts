import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { InterestsResponse, ProfileFieldsResponse } from '../contract/index.ts'
import { pathOf } from '../http/validate.ts'
import { loadSettings } from '../settings/index.ts'
import { allowedValues, INTERESTS } from './fields.ts'

/**
 * The profile fields' allowed values and the interests (spec §7): public,
 * the same for every visitor (the sign-up form asks before the account
 * exists). The fields are this domain's; the regions are api/reference/'s.
 */
export const profileFieldRoutes = (db: Db) =>
  new Hono()
    .get(pathOf(endpoints.interests), (c) =>
      c.json({ interests: [...INTERESTS] } satisfies InterestsResponse),
    )
    .get(pathOf(endpoints.profileFields), async (c) => {
      const settings = await loadSettings(db)
      return c.json({
        allowed_values: allowedValues(settings.visible_profile_fields),
      } satisfies ProfileFieldsResponse)
    })
