import { Hono, type MiddlewareHandler } from 'hono'
import { type EndpointDef, endpoints } from '../contract/endpoints.ts'
import { operatorEndpoints } from '../contract/operator/index.ts'
import type { StaffMe, StaffUnlockResponse } from '../contract/operator/staff.ts'
import { type Capability, can, capabilitiesOf, type StaffRole } from '../contract/rules/staff.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { enforce, forgive } from '../http/ratelimit.ts'
import { nowOf } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { ipOf, linkBase } from '../mail/site.ts'
import { loadSettings } from '../settings/index.ts'
import {
  audit,
  endStaffSession,
  hidden,
  type StaffEnv,
  type StaffMember,
  currentStaff as staffOfRequest,
  startStaffSession,
} from './auth.ts'
import type { OperatorDeps } from './deps.ts'
import { memberAdminRoutes } from './members-routes.ts'
import { moderationRoutes } from './moderation-routes.ts'
import { siteAdminRoutes } from './sites-routes.ts'
import {
  auditPage,
  createStaff,
  listStaff,
  staffEntry,
  updateStaff,
  verifyStaffLogin,
} from './staff.ts'
import { offerStaffUnlock, staffAccountKey, staffAddressKey, unlockStaff } from './unlock.ts'

export const toMe = (s: Pick<StaffMember, 'id' | 'email' | 'name' | 'roles'>): StaffMe => ({
  id: s.id,
  email: s.email,
  name: s.name,
  roles: s.roles as StaffRole[],
  capabilities: capabilitiesOf(s.roles),
})

/** `METHOD /api/operator/...` → the permission the endpoint table gives it. */
const CAPABILITY_OF = new Map<string, Capability>(
  Object.values(operatorEndpoints as Record<string, EndpointDef>)
    .filter((e) => e.capability)
    .map((e) => [`${e.method} ${e.path}`, e.capability as Capability]),
)

/**
 * The console's API under /api/operator/. The sign-in (rate-limited) and
 * its mailed unlock link are open to anyone; every other path needs a live
 * staff session and answers anyone else exactly like a path that does not
 * exist.
 */
export function operatorRoutes(deps: OperatorDeps) {
  return new Hono<StaffEnv>()
    .route('/', signInRoutes(deps))
    .use('/operator/*', staffGate(deps.db))
    .route('/', staffRoutes(deps))
    .route('/', moderationRoutes(deps))
    .route('/', memberAdminRoutes(deps))
    .route('/', siteAdminRoutes(deps))
}

/** The sign-in and its mailed unlock link: open to anyone. */
function signInRoutes(deps: OperatorDeps) {
  const { db } = deps
  return new Hono<StaffEnv>()
    .post(pathOf(endpoints.operatorLogin), bodyOf(endpoints.operatorLogin), async (c) => {
      const { email, password, code } = c.req.valid('json')
      const accountKey = staffAccountKey(email)
      const addressKey = staffAddressKey(email, ipOf(c, deps.accounts))
      // Per address + account, then per account from every address (a high
      // ceiling); a refusal mails a live staff member an unlock link and
      // answers the same 429 to anyone (api/operator/unlock.ts).
      try {
        await enforce(c, db, 'staff_login', addressKey)
        await enforce(c, db, 'staff_login_account', accountKey)
      } catch (e) {
        if (e instanceof ApiFailure && e.status === 429) {
          const settings = await loadSettings(db)
          const links = linkBase(c, deps.accounts)
          const mailer = deps.accounts.mailer
          await offerStaffUnlock(db, email, { settings, links, mailer })
        }
        throw e
      }
      const id = await verifyStaffLogin(db, email, password, code, nowOf(c))
      // One answer for every failure: unknown address, wrong password, wrong
      // or reused code, disabled account.
      if (id === null) throw new ApiFailure(401, 'invalid_credentials')
      await forgive(db, 'staff_login', addressKey)
      await forgive(db, 'staff_login_account', accountKey)
      await startStaffSession(c, db, id)
      await audit(db, id, { action: 'staff.login', targetType: 'staff', targetId: id })
      const me = await staffEntry(db, id)
      if (!me) throw hidden()
      return c.json(toMe(me))
    })
    .post(pathOf(endpoints.operatorUnlock), bodyOf(endpoints.operatorUnlock), async (c) => {
      // The mailed link (opened on /operator/unlock), open like the sign-in.
      await unlockStaff(db, c.req.valid('json').token)
      return c.json({ status: 'done' } satisfies StaffUnlockResponse)
    })
}

/**
 * Every other console path: a live staff session with the permission the
 * endpoint table names, else the answer to a path that does not exist.
 */
const staffGate =
  (db: OperatorDeps['db']): MiddlewareHandler<StaffEnv> =>
  async (c, next) => {
    const member = await staffOfRequest(c, db)
    if (!member) throw hidden()
    // The endpoint table names each console endpoint's permission; it is
    // checked here for all of them, so no route can forget it. A HEAD is
    // checked as its GET: Hono answers HEAD with the GET handler, so a
    // HEAD looked up under its own name found no permission and ran the
    // route for any staff member.
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method
    const capability = CAPABILITY_OF.get(`${method} ${c.req.path}`)
    if (capability && !can(member.roles, capability)) throw new ApiFailure(403, 'forbidden')
    // Console reads are staff actions with effects (an export is audited and
    // rate-counted, a report is generated): a HEAD, authorised like its GET
    // above, runs none of them. No console client sends HEAD.
    if (c.req.method === 'HEAD') {
      c.header('Allow', 'GET')
      return c.body(null, 405)
    }
    c.set('staff', member)
    await next()
  }

/** The staff member's own session, the audit log and the staff accounts. */
function staffRoutes(deps: OperatorDeps) {
  const { db } = deps
  return new Hono<StaffEnv>()
    .post(pathOf(endpoints.operatorLogout), async (c) => {
      await endStaffSession(c, db)
      return c.json({ status: 'done' as const })
    })
    .get(pathOf(endpoints.operatorMe), (c) => c.json(toMe(c.get('staff'))))
    .get(pathOf(endpoints.operatorAudit), queryOf(endpoints.operatorAudit), async (c) =>
      c.json(await auditPage(db, c.req.valid('query'))),
    )
    .get(pathOf(endpoints.operatorStaff), async (c) => c.json({ staff: await listStaff(db) }))
    .post(
      pathOf(endpoints.operatorStaffCreate),
      bodyOf(endpoints.operatorStaffCreate),
      async (c) => {
        const input = c.req.valid('json')
        const created = await db.transaction(async (tx) => {
          const made = await createStaff(tx, input, `Operator console ${new URL(c.req.url).host}`)
          if (!made) return null
          await audit(tx, c.get('staff').id, {
            action: 'staff.create',
            targetType: 'staff',
            targetId: made.id,
            details: { email: input.email, roles: input.roles },
          })
          return made
        })
        if (!created) throw new ApiFailure(409, 'email_taken', 'email')
        const entry = await staffEntry(db, created.id)
        if (!entry) throw notFound()
        return c.json({
          staff: entry,
          password: created.password,
          totp_secret: created.totpSecret,
          totp_uri: created.totpUri,
        })
      },
    )
    .put(
      pathOf(endpoints.operatorStaffUpdate),
      bodyOf(endpoints.operatorStaffUpdate),
      async (c) => {
        const { id, reason, ...change } = c.req.valid('json')
        const me = c.get('staff')
        // An admin cannot lock themselves out (the last admin would leave the console without one).
        if (id === me.id && (change.disabled || (change.roles && !change.roles.includes('admin'))))
          throw new ApiFailure(422, 'cannot_change_own_access', 'id')
        const entry = await db.transaction(async (tx) => {
          const updated = await updateStaff(tx, id, change, nowOf(c))
          if (!updated) return null
          await audit(tx, me.id, {
            action: 'staff.update',
            targetType: 'staff',
            targetId: id,
            reason,
            details: change,
          })
          return updated
        })
        if (!entry) throw notFound()
        return c.json(entry)
      },
    )
}
