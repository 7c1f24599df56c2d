import { Hono } from 'hono'
import { endpoints } from '../contract/endpoints.ts'
import { forgetMessageCost } from '../credits/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { nowOf } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { discardJob, retryJob } from '../jobs/queue.ts'
import { audit, type StaffEnv } from './auth.ts'
import type { OperatorDeps } from './deps.ts'
import { jobLists, jobOf, reportCsv, reportRange, siteFilter, trafficReport } from './reports.ts'
import {
  changesOf,
  deleteDiscount,
  deleteSite,
  listDiscounts,
  listPackages,
  saveDiscount,
  savePackage,
  setMessageCost,
  setRouteRules,
  sitesView,
  updateSite,
} from './sites.ts'

/**
 * The console's sites endpoints (api/contract/operator/sites.ts). Mounted
 * behind the staff gate of api/operator/routes.ts: c.get('staff') is the
 * signed-in staff member; the staff gate has checked the endpoint's capability (endpoint table).
 * Every change is written with its audit entry (before and after) in one
 * transaction, and applies on the next request: settings are read per request.
 */
export const siteAdminRoutes = (deps: OperatorDeps) => {
  const { db } = deps
  return new Hono<StaffEnv>()
    .get(pathOf(endpoints.operatorSites), async (c) => c.json(await sitesView(db)))
    .put(pathOf(endpoints.operatorSiteUpdate), bodyOf(endpoints.operatorSiteUpdate), async (c) => {
      const { host, settings, clear, reason } = c.req.valid('json')
      await db.transaction(async (tx) => {
        const { before, after } = await updateSite(tx, host, settings, clear)
        const changes = changesOf(before, after)
        if (Object.keys(changes).length === 0) return
        await audit(tx, c.get('staff').id, {
          action: 'site.update',
          targetType: 'site',
          targetId: host ?? '*',
          reason,
          details: { host, changes },
        })
      })
      return c.json(await sitesView(db))
    })
    .delete(
      pathOf(endpoints.operatorSiteDelete),
      bodyOf(endpoints.operatorSiteDelete),
      async (c) => {
        const { host, reason } = c.req.valid('json')
        const done = await db.transaction(async (tx) => {
          const before = await deleteSite(tx, host)
          if (!before) return false
          await audit(tx, c.get('staff').id, {
            action: 'site.delete',
            targetType: 'site',
            targetId: host,
            reason,
            details: { host, before, after: null },
          })
          return true
        })
        if (!done) throw notFound()
        return c.json(await sitesView(db))
      },
    )
    .put(
      pathOf(endpoints.operatorMessageCost),
      bodyOf(endpoints.operatorMessageCost),
      async (c) => {
        const { credits, reason } = c.req.valid('json')
        await db.transaction(async (tx) => {
          const before = await setMessageCost(tx, credits)
          await audit(tx, c.get('staff').id, {
            action: 'site.message_cost',
            targetType: 'setting',
            targetId: 'message_cost_credits',
            reason,
            details: { before, after: credits },
          })
        })
        forgetMessageCost(db)
        return c.json(await sitesView(db))
      },
    )
    .put(pathOf(endpoints.operatorRouteRules), bodyOf(endpoints.operatorRouteRules), async (c) => {
      const { rules, reason } = c.req.valid('json')
      await db.transaction(async (tx) => {
        const before = await setRouteRules(tx, rules)
        await audit(tx, c.get('staff').id, {
          action: 'site.route_rules',
          targetType: 'setting',
          targetId: 'route_rules',
          reason,
          details: { before, after: rules },
        })
      })
      return c.json(await sitesView(db))
    })
    .get(pathOf(endpoints.operatorPackages), async (c) =>
      c.json({ packages: await listPackages(db) }),
    )
    .put(
      pathOf(endpoints.operatorPackageSave),
      bodyOf(endpoints.operatorPackageSave),
      async (c) => {
        const { reason, ...input } = c.req.valid('json')
        await db.transaction(async (tx) => {
          const before = await savePackage(tx, input)
          await audit(tx, c.get('staff').id, {
            action: 'package.save',
            targetType: 'package',
            targetId: input.id,
            reason,
            details: { before, after: input },
          })
        })
        return c.json({ packages: await listPackages(db) })
      },
    )
    .get(pathOf(endpoints.operatorDiscounts), async (c) =>
      c.json({ discounts: await listDiscounts(db) }),
    )
    .put(
      pathOf(endpoints.operatorDiscountSave),
      bodyOf(endpoints.operatorDiscountSave),
      async (c) => {
        const { reason, ...input } = c.req.valid('json')
        const before = await db.transaction(async (tx) => {
          const old = await saveDiscount(tx, input)
          if (old === 'personal') return old
          await audit(tx, c.get('staff').id, {
            action: 'discount.save',
            targetType: 'discount',
            targetId: input.code,
            reason,
            details: { before: old, after: input },
          })
          return old
        })
        // A member's personal code is the server's, not the operator's.
        if (before === 'personal') throw new ApiFailure(409, 'personal_code', 'code')
        return c.json({ discounts: await listDiscounts(db) })
      },
    )
    .delete(
      pathOf(endpoints.operatorDiscountDelete),
      bodyOf(endpoints.operatorDiscountDelete),
      async (c) => {
        const { code, reason } = c.req.valid('json')
        const done = await db.transaction(async (tx) => {
          const before = await deleteDiscount(tx, code.toUpperCase())
          if (!before) return false
          await audit(tx, c.get('staff').id, {
            action: 'discount.delete',
            targetType: 'discount',
            targetId: before.code,
            reason,
            details: { before, after: null },
          })
          return true
        })
        if (!done) throw notFound()
        return c.json({ discounts: await listDiscounts(db) })
      },
    )
    .get(pathOf(endpoints.operatorReport), queryOf(endpoints.operatorReport), async (c) => {
      const range = reportRange(c.req.valid('query'), nowOf(c))
      if (!range)
        throw new ApiFailure(400, 'invalid_input', 'from', 'from: a date before to, within a year')
      return c.json(await trafficReport(db, { ...range, site: siteFilter(c.req.valid('query')) }))
    })
    .get(pathOf(endpoints.operatorReportCsv), queryOf(endpoints.operatorReportCsv), async (c) => {
      const range = reportRange(c.req.valid('query'), nowOf(c))
      if (!range)
        throw new ApiFailure(400, 'invalid_input', 'from', 'from: a date before to, within a year')
      const csv = reportCsv(
        await trafficReport(db, { ...range, site: siteFilter(c.req.valid('query')) }),
      )
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="traffic-${range.from}-${range.to}.csv"`,
        'Cache-Control': 'no-store',
      })
    })
    .get(pathOf(endpoints.operatorJobs), async (c) => c.json(await jobLists(db)))
    .post(pathOf(endpoints.operatorJobAction), bodyOf(endpoints.operatorJobAction), async (c) => {
      const { id, action, reason } = c.req.valid('json')
      const done = await db.transaction(async (tx) => {
        const before = await jobOf(tx, id)
        // Only a failed job is retried or discarded (the runner owns the others).
        const ok = action === 'retry' ? await retryJob(tx, id, nowOf(c)) : await discardJob(tx, id)
        if (!ok || !before) return false
        await audit(tx, c.get('staff').id, {
          action: `job.${action}`,
          targetType: 'job',
          targetId: id,
          reason,
          details: { before, after: action === 'retry' ? await jobOf(tx, id) : null },
        })
        return true
      })
      if (!done) throw new ApiFailure(404, 'not_found', 'id')
      return c.json(await jobLists(db))
    })
}
