import { type Context, Hono } from 'hono'
import { exportMember } from '../accounts/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import { notFound } from '../http/errors.ts'
import { nowOf } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { removeFilesNow } from '../images/index.ts'
import type { StaffEnv } from './auth.ts'
import type { OperatorDeps } from './deps.ts'
import {
  adjustCredits,
  auditExport,
  deleteMemberOnRequest,
  endMemberSession,
  memberDetail,
  refundOrder,
  searchMembers,
} from './members.ts'

/** The site's origin for links in the export and receipts: PUBLIC_URL, else the request's. */
const originOf = (c: Context, deps: OperatorDeps) =>
  deps.accounts.publicUrl ?? new URL(c.req.url).origin

/**
 * The console's members endpoints (api/contract/operator/members.ts). Mounted
 * behind the staff gate of api/operator/routes.ts: c.get('staff') is the
 * signed-in staff member; the staff gate has checked the endpoint's capability (endpoint table).
 */
export const memberAdminRoutes = (deps: OperatorDeps) => {
  const { db } = deps
  return new Hono<StaffEnv>()
    .get(pathOf(endpoints.operatorMembers), queryOf(endpoints.operatorMembers), async (c) => {
      const { q, page } = c.req.valid('query')
      return c.json(await searchMembers(db, q, page))
    })
    .get(pathOf(endpoints.operatorMember), queryOf(endpoints.operatorMember), async (c) => {
      const detail = await memberDetail(db, c.req.valid('query').id, nowOf(c))
      if (!detail) throw notFound()
      return c.json(detail)
    })
    .post(
      pathOf(endpoints.operatorEndMemberSession),
      bodyOf(endpoints.operatorEndMemberSession),
      async (c) => {
        if (!(await endMemberSession(db, c.get('staff').id, c.req.valid('json')))) throw notFound()
        return c.json({ status: 'done' as const })
      },
    )
    .post(
      pathOf(endpoints.operatorCreditAdjust),
      bodyOf(endpoints.operatorCreditAdjust),
      async (c) => c.json(await adjustCredits(db, c.get('staff').id, c.req.valid('json'))),
    )
    .post(pathOf(endpoints.operatorRefund), bodyOf(endpoints.operatorRefund), async (c) =>
      c.json(
        await refundOrder(
          db,
          { provider: deps.payments, base: originOf(c, deps) },
          c.get('staff').id,
          c.req.valid('json'),
        ),
      ),
    )
    .get(
      pathOf(endpoints.operatorMemberExport),
      queryOf(endpoints.operatorMemberExport),
      async (c) => {
        const { id, reason } = c.req.valid('query')
        const at = nowOf(c)
        const data = await exportMember(db, id, originOf(c, deps), at, deps.pictures)
        if (!data) throw notFound()
        await auditExport(db, c.get('staff').id, id, reason)
        c.header('Content-Disposition', `attachment; filename="member-${id}-data.json"`)
        c.header('Cache-Control', 'no-store')
        return c.json(data)
      },
    )
    .post(
      pathOf(endpoints.operatorMemberDelete),
      bodyOf(endpoints.operatorMemberDelete),
      async (c) => {
        const files = await deleteMemberOnRequest(db, c.get('staff').id, c.req.valid('json'))
        if (!files) throw notFound()
        if (!(await removeFilesNow(deps.pictures, files))) deps.jobs.poke()
        return c.json({ status: 'done' as const })
      },
    )
}
