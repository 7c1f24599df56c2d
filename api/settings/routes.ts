import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { requestHost } from '../http/host.ts'
import { pathOf } from '../http/validate.ts'
import { companyInfo, loadSettings } from './settings.ts'

/**
 * GET /api/settings.php: public, the settings of the site the request was
 * sent to (spec §3 Settings plus template and template flags; one server may
 * serve several sites, keyed by host). GET /api/companyinfo.php: public, that
 * site's imprint (spec §3 company info response).
 */
export const settingsRoutes = (db: Db, trustProxy = false) =>
  new Hono()
    .get(pathOf(endpoints.settings), async (c) =>
      c.json(await loadSettings(db, requestHost(c, trustProxy))),
    )
    .get(pathOf(endpoints.companyInfo), async (c) =>
      c.json(companyInfo(await loadSettings(db, requestHost(c, trustProxy)))),
    )
