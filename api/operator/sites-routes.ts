import { Hono } from 'hono'
import type { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import { forgetMessageCost, MESSAGE_COST_CACHE } from '../credits/index.ts'
import { notifyCacheChange } from '../events/bus.ts'
import { allGifts, saveGift } from '../gifts/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { nowOf } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { discardJob, retryJob } from '../jobs/queue.ts'
import { recorded } from '../shared/audit.ts'
import type { StaffEnv } from './auth.ts'
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
    .route('/', siteSettingsRoutes(db))
    .route('/', offerRoutes(db))
    .route('/', reportRoutes(db))
}

/** The validated JSON body of an endpoint of the table. */
type BodyOf<E extends { body: z.ZodType }> = z.output<E['body']>

/** The sites, their settings, the message cost and the route rules. */
const siteSettingsRoutes = (db: Db) =>
  new Hono<StaffEnv>()
    .get(pathOf(endpoints.operatorSites), async (c) => c.json(await sitesView(db)))
    .put(pathOf(endpoints.operatorSiteUpdate), bodyOf(endpoints.operatorSiteUpdate), async (c) => {
      await updateSiteRecorded(db, c.get('staff').id, c.req.valid('json'))
      return c.json(await sitesView(db))
    })
    .delete(
      pathOf(endpoints.operatorSiteDelete),
      bodyOf(endpoints.operatorSiteDelete),
      async (c) => {
        const done = await deleteSiteRecorded(db, c.get('staff').id, c.req.valid('json'))
        if (!done) throw notFound()
        return c.json(await sitesView(db))
      },
    )
    .put(
      pathOf(endpoints.operatorMessageCost),
      bodyOf(endpoints.operatorMessageCost),
      async (c) => {
        await setMessageCostRecorded(db, c.get('staff').id, c.req.valid('json'))
        // At once here; the other processes when the NOTIFY of the change reaches them.
        forgetMessageCost(db)
        return c.json(await sitesView(db))
      },
    )
    .put(pathOf(endpoints.operatorRouteRules), bodyOf(endpoints.operatorRouteRules), async (c) => {
      await setRouteRulesRecorded(db, c.get('staff').id, c.req.valid('json'))
      return c.json(await sitesView(db))
    })

/** The credit packages and the discount codes. */
const offerRoutes = (db: Db) =>
  new Hono<StaffEnv>()
    .get(pathOf(endpoints.operatorPackages), async (c) =>
      c.json({ packages: await listPackages(db) }),
    )
    .put(
      pathOf(endpoints.operatorPackageSave),
      bodyOf(endpoints.operatorPackageSave),
      async (c) => {
        await savePackageRecorded(db, c.get('staff').id, c.req.valid('json'))
        return c.json({ packages: await listPackages(db) })
      },
    )
    .get(pathOf(endpoints.operatorGifts), async (c) => c.json({ gifts: await allGifts(db) }))
    .put(pathOf(endpoints.operatorGiftSave), bodyOf(endpoints.operatorGiftSave), async (c) => {
      await saveGiftRecorded(db, c.get('staff').id, c.req.valid('json'))
      return c.json({ gifts: await allGifts(db) })
    })
    .get(pathOf(endpoints.operatorDiscounts), async (c) =>
      c.json({ discounts: await listDiscounts(db) }),
    )
    .put(
      pathOf(endpoints.operatorDiscountSave),
      bodyOf(endpoints.operatorDiscountSave),
      async (c) => {
        const before = await saveDiscountRecorded(db, c.get('staff').id, c.req.valid('json'))
        // A member's personal code is the server's, not the operator's.
        if (before === 'personal') throw new ApiFailure(409, 'personal_code', 'code')
        return c.json({ discounts: await listDiscounts(db) })
      },
    )
    .delete(
      pathOf(endpoints.operatorDiscountDelete),
      bodyOf(endpoints.operatorDiscountDelete),
      async (c) => {
        const done = await deleteDiscountRecorded(db, c.get('staff').id, c.req.valid('json'))
        if (!done) throw notFound()
        return c.json({ discounts: await listDiscounts(db) })
      },
    )

/** The traffic report (JSON and CSV) and the job queue. */
const reportRoutes = (db: Db) =>
  new Hono<StaffEnv>()
    .get(pathOf(endpoints.operatorReport), queryOf(endpoints.operatorReport), async (c) => {
      const range = validRange(c.req.valid('query'), nowOf(c))
      return c.json(await trafficReport(db, { ...range, site: siteFilter(c.req.valid('query')) }))
    })
    .get(pathOf(endpoints.operatorReportCsv), queryOf(endpoints.operatorReportCsv), async (c) => {
      const range = validRange(c.req.valid('query'), nowOf(c))
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
      const now = () => nowOf(c)
      const done = await jobActionRecorded(db, c.get('staff').id, c.req.valid('json'), now)
      if (!done) throw new ApiFailure(404, 'not_found', 'id')
      return c.json(await jobLists(db))
    })

/** The report's period, or 400 when it is not one. */
function validRange(query: Parameters<typeof reportRange>[0], now: Date) {
  const range = reportRange(query, now)
  if (!range)
    throw new ApiFailure(400, 'invalid_input', 'from', 'from: a date before to, within a year')
  return range
}

/** Changes a site's settings and records the change, if there is one. */
const updateSiteRecorded = (
  db: Db,
  staffId: number,
  { host, settings, clear, reason }: BodyOf<typeof endpoints.operatorSiteUpdate>,
) =>
  recorded(db, staffId, async (tx) => {
    const { before, after } = await updateSite(tx, host, settings, clear)
    const changes = changesOf(before, after)
    if (Object.keys(changes).length === 0) return { result: undefined }
    return {
      result: undefined,
      audit: {
        action: 'site.update',
        targetType: 'site',
        targetId: host ?? '*',
        reason,
        details: { host, changes },
      },
    }
  })

/** Deletes a site and records it; false when there was none. */
const deleteSiteRecorded = (
  db: Db,
  staffId: number,
  { host, reason }: BodyOf<typeof endpoints.operatorSiteDelete>,
) =>
  recorded(db, staffId, async (tx) => {
    const before = await deleteSite(tx, host)
    if (!before) return { result: false }
    return {
      result: true,
      audit: {
        action: 'site.delete',
        targetType: 'site',
        targetId: host,
        reason,
        details: { host, before, after: null },
      },
    }
  })

const setMessageCostRecorded = (
  db: Db,
  staffId: number,
  { credits, reason }: BodyOf<typeof endpoints.operatorMessageCost>,
) =>
  recorded(db, staffId, async (tx) => {
    const before = await setMessageCost(tx, credits)
    // Every process drops its cached cost when this commits (api/credits/ledger.ts).
    await notifyCacheChange(tx, MESSAGE_COST_CACHE)
    return {
      result: undefined,
      audit: {
        action: 'site.message_cost',
        targetType: 'setting',
        targetId: 'message_cost_credits',
        reason,
        details: { before, after: credits },
      },
    }
  })

const setRouteRulesRecorded = (
  db: Db,
  staffId: number,
  { rules, reason }: BodyOf<typeof endpoints.operatorRouteRules>,
) =>
  recorded(db, staffId, async (tx) => ({
    result: undefined,
    audit: {
      action: 'site.route_rules',
      targetType: 'setting',
      targetId: 'route_rules',
      reason,
      details: { before: await setRouteRules(tx, rules), after: rules },
    },
  }))

const savePackageRecorded = (
  db: Db,
  staffId: number,
  { reason, ...input }: BodyOf<typeof endpoints.operatorPackageSave>,
) =>
  recorded(db, staffId, async (tx) => ({
    result: undefined,
    audit: {
      action: 'package.save',
      targetType: 'package',
      targetId: input.id,
      reason,
      details: { before: await savePackage(tx, input), after: input },
    },
  }))

const saveGiftRecorded = (
  db: Db,
  staffId: number,
  { reason, ...input }: BodyOf<typeof endpoints.operatorGiftSave>,
) =>
  recorded(db, staffId, async (tx) => ({
    result: undefined,
    audit: {
      action: 'gift.save',
      targetType: 'gift',
      targetId: `${input.site}/${input.slug}`,
      reason,
      details: { before: await saveGift(tx, input), after: input },
    },
  }))

/** Saves a discount code and records it: 'saved', or 'personal' (nothing saved) for a member's own code. */
const saveDiscountRecorded = (
  db: Db,
  staffId: number,
  { reason, ...input }: BodyOf<typeof endpoints.operatorDiscountSave>,
) =>
  recorded(db, staffId, async (tx) => {
    const old = await saveDiscount(tx, input)
    if (old === 'personal') return { result: old }
    return {
      result: 'saved' as const,
      audit: {
        action: 'discount.save',
        targetType: 'discount',
        targetId: input.code,
        reason,
        details: { before: old, after: input },
      },
    }
  })

/** Deletes a discount code and records it; false when there was none. */
const deleteDiscountRecorded = (
  db: Db,
  staffId: number,
  { code, reason }: BodyOf<typeof endpoints.operatorDiscountDelete>,
) =>
  recorded(db, staffId, async (tx) => {
    const before = await deleteDiscount(tx, code.toUpperCase())
    if (!before) return { result: false }
    return {
      result: true,
      audit: {
        action: 'discount.delete',
        targetType: 'discount',
        targetId: before.code,
        reason,
        details: { before, after: null },
      },
    }
  })

/** Retries or discards a failed job and records it; false when the job is not a failed one. */
const jobActionRecorded = (
  db: Db,
  staffId: number,
  { id, action, reason }: BodyOf<typeof endpoints.operatorJobAction>,
  now: () => Date,
) =>
  recorded(db, staffId, async (tx) => {
    const before = await jobOf(tx, id)
    // Only a failed job is retried or discarded (the runner owns the others).
    const ok = action === 'retry' ? await retryJob(tx, id, now()) : await discardJob(tx, id)
    if (!ok || !before) return { result: false }
    return {
      result: true,
      audit: {
        action: `job.${action}`,
        targetType: 'job',
        targetId: id,
        reason,
        details: { before, after: action === 'retry' ? await jobOf(tx, id) : null },
      },
    }
  })
