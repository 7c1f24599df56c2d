import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { notFound } from '../http/errors.ts'
import { enforce } from '../http/ratelimit.ts'
import { type AuthEnv, nowOf, requireMember } from '../http/session.ts'
import { pathOf } from '../http/validate.ts'
import type { PictureStore } from '../images/index.ts'
import type { AccountsDeps } from '../mail/site.ts'
import { exportMember } from './export.ts'

/**
 * GET /api/account_export.php: the signed-in member's own data as a JSON
 * download (GDPR Art. 15/20). Only ever the session's member: there is no
 * parameter naming whose data. Rate-limited per member.
 */
export const exportRoutes = (db: Db, deps: AccountsDeps, pictures?: PictureStore) =>
  new Hono<AuthEnv>().get(pathOf(endpoints.accountExport), requireMember(db), async (c) => {
    const memberId = c.get('memberId')
    await enforce(c, db, 'account_export', `member:${memberId}`)
    const base = deps.publicUrl ?? new URL(c.req.url).origin
    const data = await exportMember(db, memberId, base, nowOf(c), pictures)
    if (!data) throw notFound()
    const day = nowOf(c).toISOString().slice(0, 10)
    c.header('Content-Disposition', `attachment; filename="my-data-${day}.json"`)
    c.header('Cache-Control', 'no-store')
    return c.json(data)
  })
