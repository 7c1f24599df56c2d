// The console's door: staff sign in with password and a TOTP code that works
// once; sessions end after 30 idle minutes or 12 hours; anyone who is not
// staff (a member included) gets "no such endpoint" from every console
// endpoint; each endpoint's permission from the endpoint table is enforced
// for every role; staff actions are in an append-only audit log.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { type EndpointDef, endpoints } from '../contract/endpoints.ts'
import { operatorEndpoints } from '../contract/operator/index.ts'
import { AuditResponse, StaffCreateResponse, StaffMe } from '../contract/operator/staff.ts'
import {
  CAPABILITIES,
  can,
  STAFF_ABSOLUTE_S,
  STAFF_IDLE_S,
  STAFF_ROLES,
} from '../contract/rules/staff.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { addStaff, staffLogin, staffSession } from '../test/staff.ts'
import { totpCode } from './totp.ts'

const MINUTE = 60_000
const consoleEndpoints = Object.entries(operatorEndpoints as Record<string, EndpointDef>)
/** Open to anyone: the sign-in, and the unlock link mailed when sign-ins were refused. */
const OPEN = ['operatorLogin', 'operatorUnlock']
const behindGate = consoleEndpoints.filter(([name]) => !OPEN.includes(name))

const call = (app: Api, e: EndpointDef, cookie?: string) =>
  send(app, e.path, { method: e.method, cookie, ...(e.method === 'GET' ? {} : { body: {} }) })

describe('staff rules', () => {
  it('pins the console session: 30 idle minutes, 12 hours at most', () => {
    expect(STAFF_IDLE_S).toBe(1800)
    expect(STAFF_ABSOLUTE_S).toBe(43_200)
  })

  it('gives admins everything and the other roles only their own work', () => {
    expect(STAFF_ROLES).toEqual(['moderator', 'support', 'finance', 'admin'])
    for (const capability of Object.keys(CAPABILITIES) as (keyof typeof CAPABILITIES)[])
      expect(can(['admin'], capability)).toBe(true)
    expect(can(['moderator'], 'moderate')).toBe(true)
    expect(can(['support'], 'moderate')).toBe(false)
    expect(can(['support'], 'credits.adjust')).toBe(true)
    expect(can(['moderator'], 'credits.adjust')).toBe(false)
    expect(can(['finance'], 'payments.refund')).toBe(true)
    expect(can(['support'], 'payments.refund')).toBe(false)
    expect(can(['finance', 'moderator'], 'sites.edit')).toBe(false)
  })

  it('every console endpoint lives under /api/operator/', () => {
    for (const [name, e] of consoleEndpoints) expect(e.path, name).toMatch(/^\/api\/operator\//)
    for (const [name, e] of Object.entries(endpoints) as [string, EndpointDef][])
      if (e.path.startsWith('/api/operator/'))
        expect(Object.keys(operatorEndpoints), name).toContain(name)
  })
})

describeEngines('console access on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  /** The server's clock runs this far ahead of the real one (session expiry tests move it). */
  let ahead = 0
  let memberCookie: string
  let unknown: unknown

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db, now: () => new Date(Date.now() + ahead) })
    const member = await addMember(t.db, { email: 'member-console@example.com' })
    memberCookie = await login(app, member.email, TEST_PASSWORD)
    unknown = await (await send(app, '/api/operator/nothing-here.php')).json()
  })
  afterAll(() => t.close())

  it('answers anyone without a staff session exactly like a path that does not exist', async () => {
    for (const [name, e] of behindGate) {
      for (const cookie of [undefined, memberCookie]) {
        const res = await call(app, e, cookie)
        expect(res.status, `${name} ${cookie ? 'member' : 'anonymous'}`).toBe(404)
        expect(await res.json(), name).toEqual(unknown)
      }
    }
  })

  it('serves every console endpoint to an admin', async () => {
    const admin = await staffSession(app, t.db, ['admin'])
    for (const [name, e] of consoleEndpoints) {
      if (name === 'operatorLogout') continue
      const res = await call(app, e, admin.cookie)
      // A download (the report as CSV) answers a file, not JSON.
      const body = res.headers.get('content-type')?.includes('json') ? await res.json() : {}
      expect(body.message, name).not.toBe('no such endpoint')
      expect(res.status, name).not.toBe(403)
    }
  })

  it('refuses with 403 each role whose permissions lack an endpoint’s, and lets the others through', async () => {
    const sessions = new Map<string, string>()
    for (const role of STAFF_ROLES)
      sessions.set(role, (await staffSession(app, t.db, [role])).cookie)
    let refused = 0
    for (const [name, e] of behindGate) {
      if (name === 'operatorLogout') continue
      for (const role of STAFF_ROLES) {
        const res = await call(app, e, sessions.get(role))
        const allowed = !e.capability || can([role], e.capability)
        if (allowed) expect(res.status, `${name} as ${role}`).not.toBe(403)
        else {
          expect(res.status, `${name} as ${role}`).toBe(403)
          expect((await res.json()).error, name).toBe('forbidden')
          refused++
        }
      }
    }
    expect(refused, 'the check can fail').toBeGreaterThan(0)
  })

  it('authorises a HEAD exactly as its GET, for every role and every console GET, and runs nothing', async () => {
    const gets = behindGate.filter(([, e]) => e.method === 'GET')
    expect(gets.length, 'the console has GET endpoints').toBeGreaterThan(0)
    const head = (e: EndpointDef, cookie?: string) => send(app, e.path, { method: 'HEAD', cookie })
    const audited = async () =>
      (
        await t.db
          .select({ id: auditLog.id })
          .from(auditLog)
          .where(eq(auditLog.action, 'member.export'))
      ).length
    const exportsBefore = await audited()
    let refused = 0
    for (const role of STAFF_ROLES) {
      const cookie = (await staffSession(app, t.db, [role])).cookie
      for (const [name, e] of gets) {
        const res = await head(e, cookie)
        const allowed = !e.capability || can([role], e.capability)
        if (allowed) expect(res.status, `HEAD ${name} as ${role}`).toBe(405)
        else {
          expect(res.status, `HEAD ${name} as ${role}`).toBe(403)
          refused++
        }
      }
    }
    expect(refused, 'some role lacks some GET’s permission').toBeGreaterThan(0)
    for (const [name, e] of gets) {
      for (const cookie of [undefined, memberCookie])
        expect((await head(e, cookie)).status, `HEAD ${name} without staff`).toBe(404)
    }
    // The audit's finding: a moderator's HEAD of the export ran it and logged it.
    const moderator = await staffSession(app, t.db, ['moderator'])
    const member = await addMember(t.db, { email: 'head-export@example.com' })
    const exported = await send(
      app,
      `${operatorEndpoints.operatorMemberExport.path}?id=${member.id}&reason=x`,
      { method: 'HEAD', cookie: moderator.cookie },
    )
    expect(exported.status).toBe(403)
    const admin = await staffSession(app, t.db, ['admin'])
    const byAdmin = await send(
      app,
      `${operatorEndpoints.operatorMemberExport.path}?id=${member.id}&reason=x`,
      { method: 'HEAD', cookie: admin.cookie },
    )
    expect(byAdmin.status).toBe(405)
    expect(await audited(), 'no export ran or was logged').toBe(exportsBefore)
  })

  it('signs in with password and current code, and tells who is signed in', async () => {
    const s = await addStaff(t.db, ['moderator', 'support'], 'Two Hats')
    const cookie = await staffLogin(app, s)
    const me = StaffMe.parse(await (await send(app, '/api/operator/me.php', { cookie })).json())
    expect(me).toMatchObject({ email: s.email, name: 'Two Hats', roles: ['moderator', 'support'] })
    expect(me.capabilities).toContain('moderate')
    expect(me.capabilities).toContain('credits.adjust')
    expect(me.capabilities).not.toContain('sites.edit')
  })

  it('refuses a wrong code, a wrong password and a code used before, with one answer', async () => {
    const s = await addStaff(t.db, ['support'])
    const code = totpCode(s.secret)
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const attempt = (password: string, c: string) =>
      send(app, '/api/operator/login.php', {
        method: 'POST',
        body: { email: s.email, password, code: c },
      })
    for (const res of [await attempt(s.password, wrongCode), await attempt('nope', code)]) {
      expect(res.status).toBe(401)
      expect((await res.json()).error).toBe('invalid_credentials')
    }
    expect((await attempt(s.password, code)).status).toBe(200)
    const replay = await attempt(s.password, code)
    expect(replay.status, 'a code works once').toBe(401)
    const unknownStaff = await send(app, '/api/operator/login.php', {
      method: 'POST',
      body: { email: 'nobody@example.com', password: 'x', code: '123456' },
    })
    expect(unknownStaff.status).toBe(401)
  })

  it('names the field of a malformed sign-in', async () => {
    const res = await send(app, '/api/operator/login.php', {
      method: 'POST',
      body: { email: 'a@b.c', password: 'x', code: '12ab' },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).field).toBe('code')
  })

  it('slows down an address after 10 failed sign-ins in 15 minutes (429)', async () => {
    // Per address + account; the ceiling across addresses (100 an hour) and
    // the unlock mail: api/operator/staff-unlock.test.ts.
    const s = await addStaff(t.db, ['finance'])
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await send(app, '/api/operator/login.php', {
        method: 'POST',
        body: { email: s.email, password: 'wrong', code: '000000' },
      })
      statuses.push(res.status)
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429])
  })

  it('ends a session after 30 idle minutes, and after 12 hours however busy', async () => {
    const s = await addStaff(t.db, ['moderator'])
    const cookie = await staffLogin(app, s)
    const me = (c: string) => send(app, '/api/operator/me.php', { cookie: c })
    ahead = 29 * MINUTE
    expect((await me(cookie)).status).toBe(200)
    ahead = 29 * MINUTE + 31 * MINUTE
    expect((await me(cookie)).status, 'idle 31 minutes').toBe(404)

    ahead = 2 * 60 * MINUTE
    const busy = await staffLogin(app, s, Date.now() + ahead)
    const t0 = ahead
    for (let m = 20; m < 12 * 60; m += 20) {
      ahead = t0 + m * MINUTE
      expect((await me(busy)).status, `${m} min`).toBe(200)
    }
    ahead = t0 + 12 * 60 * MINUTE + MINUTE
    expect((await me(busy)).status, 'past 12 hours').toBe(404)
    ahead = 0
  })

  it('signs out', async () => {
    const s = await staffSession(app, t.db, ['support'])
    const out = await send(app, '/api/operator/logout.php', { method: 'POST', cookie: s.cookie })
    expect(out.status).toBe(200)
    expect((await send(app, '/api/operator/me.php', { cookie: s.cookie })).status).toBe(404)
  })

  it('lets an admin add staff (audited) who then sign in with what they were given once', async () => {
    const admin = await staffSession(app, t.db, ['admin'])
    const res = await send(app, '/api/operator/staff.php', {
      method: 'POST',
      cookie: admin.cookie,
      body: { email: 'new-mod@example.com', name: 'New Mod', roles: ['moderator'] },
    })
    expect(res.status).toBe(200)
    const made = StaffCreateResponse.parse(await res.json())
    expect(made.totp_uri).toMatch(/^otpauth:\/\/totp\//)
    await staffLogin(app, {
      id: made.staff.id,
      email: 'new-mod@example.com',
      password: made.password,
      secret: made.totp_secret,
    })
    const again = await send(app, '/api/operator/staff.php', {
      method: 'POST',
      cookie: admin.cookie,
      body: { email: 'new-mod@example.com', name: 'Again', roles: ['support'] },
    })
    expect(again.status).toBe(409)
    const log = AuditResponse.parse(
      await (
        await send(app, `/api/operator/audit.php?target_type=staff&target_id=${made.staff.id}`, {
          cookie: admin.cookie,
        })
      ).json(),
    )
    expect(log.entries.map((e) => e.action)).toEqual(['staff.login', 'staff.create'])
    expect(log.entries[1]?.staff?.id).toBe(admin.id)
  })

  it('disabling a staff member ends their console sessions; an admin cannot lock themselves out', async () => {
    const admin = await staffSession(app, t.db, ['admin'])
    const mod = await staffSession(app, t.db, ['moderator'])
    const off = await send(app, '/api/operator/staff.php', {
      method: 'PUT',
      cookie: admin.cookie,
      body: { id: mod.id, disabled: true, reason: 'left the team' },
    })
    expect(off.status).toBe(200)
    expect((await send(app, '/api/operator/me.php', { cookie: mod.cookie })).status).toBe(404)
    const self = await send(app, '/api/operator/staff.php', {
      method: 'PUT',
      cookie: admin.cookie,
      body: { id: admin.id, roles: ['support'], reason: 'oops' },
    })
    expect(self.status).toBe(422)
  })

  it('keeps the audit log append-only: UPDATE and DELETE are refused by the database', async () => {
    await staffSession(app, t.db, ['support'])
    await expect(t.db.execute(sql`UPDATE audit_log SET reason = 'changed'`)).rejects.toThrow()
    await expect(t.db.execute(sql`DELETE FROM audit_log`)).rejects.toThrow()
    const rows = (await t.db.execute(sql`SELECT count(*)::int AS n FROM audit_log`)) as unknown as {
      rows: { n: number }[]
    }
    expect(rows.rows[0]?.n).toBeGreaterThan(0)
  })
})
