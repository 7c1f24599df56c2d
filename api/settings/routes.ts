import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { pathOf } from '../http/validate.ts'
import { loadSettings } from './settings.ts'

/** GET /api/settings.php: public, the same for every visitor (spec §3 Settings). */
export const settingsRoutes = (db: Db) =>
  new Hono().get(pathOf(endpoints.settings), async (c) => c.json(await loadSettings(db)))
