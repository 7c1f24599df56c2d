import { Hono } from 'hono'
import { endpoints } from '../contract/endpoints.ts'
import { notFound } from '../http/errors.ts'
import { nowOf } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { removeFilesNow } from '../images/index.ts'
import { linkBase } from '../mail/site.ts'
import {
  decide,
  dsaFigures,
  queue,
  queueItem,
  transparencySubmissionsList,
} from '../moderation/index.ts'
import { loadSettings } from '../settings/index.ts'
import type { StaffEnv } from './auth.ts'
import type { OperatorDeps } from './deps.ts'

/**
 * The console's moderation endpoints (api/contract/operator/moderation.ts). Mounted
 * behind the staff gate of api/operator/routes.ts: c.get('staff') is the
 * signed-in staff member; the staff gate has checked the endpoint's capability (endpoint table).
 */
export const moderationRoutes = (deps: OperatorDeps) => {
  const { db } = deps
  return new Hono<StaffEnv>()
    .get(pathOf(endpoints.operatorQueue), async (c) => c.json({ items: await queue(db, nowOf(c)) }))
    .get(pathOf(endpoints.operatorQueueItem), queryOf(endpoints.operatorQueueItem), async (c) => {
      const { type, id } = c.req.valid('query')
      const item = await queueItem(db, type, id, nowOf(c), deps.pictures)
      if (!item) throw notFound()
      return c.json(item)
    })
    .post(pathOf(endpoints.operatorDecide), bodyOf(endpoints.operatorDecide), async (c) => {
      const settings = await loadSettings(db)
      const done = await decide(db, c.req.valid('json'), {
        staffId: c.get('staff').id,
        now: nowOf(c),
        site: settings.name,
        linkBase: linkBase(c, deps.accounts).base,
      })
      deps.accounts.mailer.send(db, done.mailIds)
      if (!(await removeFilesNow(deps.pictures, done.files))) deps.jobs.poke()
      return c.json({
        status: 'done' as const,
        sanction: done.sanction,
        action_seconds: done.actionSeconds,
      })
    })
    .get(pathOf(endpoints.operatorDsa), queryOf(endpoints.operatorDsa), async (c) => {
      const { from, to } = c.req.valid('query')
      return c.json(await dsaFigures(db, from, to))
    })
    .get(pathOf(endpoints.operatorTransparency), async (c) =>
      c.json(await transparencySubmissionsList(db)),
    )
}
