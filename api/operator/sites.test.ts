// The console's sites and settings: an operator changes spec §3 settings per
// site or server-wide, the message cost, route rules, credit packages and
// discount codes; the server checks each with the settings' own schemas
// (400 naming the field), the next request sees the change without a
// restart, and every change is in the audit log with before and after.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import {
  DiscountsAdminResponse,
  PackagesAdminResponse,
  SitesResponse,
} from '../contract/operator/sites.ts'
import { AuditResponse } from '../contract/operator/staff.ts'
import { Settings } from '../contract/settings.ts'
import { messageCost } from '../credits/ledger.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { staffSession } from '../test/staff.ts'
import { loadRouteRules, matchRule } from '../traffic/route-rules.ts'

describeEngines('console sites and settings on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let admin: string
  let support: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    admin = (await staffSession(app, t.db, ['admin'])).cookie
    support = (await staffSession(app, t.db, ['support'])).cookie
  })
  afterAll(() => t.close())

  const settingsOf = async (host: string) =>
    Settings.parse(await (await send(app, '/api/settings.php', { base: `http://${host}` })).json())

  /** The newest audit entry of an action. */
  const lastAudit = async (action: string) => {
    const res = await send(app, '/api/operator/audit.php', { cookie: admin })
    const { entries } = AuditResponse.parse(await res.json())
    return entries.find((e) => e.action === action)
  }

  const put = (path: string, body: unknown, cookie = admin) =>
    send(app, path, { method: 'PUT', body, cookie })

  it('lists the defaults, the server-wide settings and no sites on a fresh server', async () => {
    const res = await send(app, '/api/operator/sites.php', { cookie: admin })
    expect(res.status).toBe(200)
    const view = SitesResponse.parse(await res.json())
    expect(view.defaults.template).toBe('classic')
    expect(view.server.effective.template).toBe('classic')
    expect(view.sites).toEqual([])
    expect(view.message_cost).toBe(10)
  })

  it('refuses staff without sites.edit (support) with 403', async () => {
    const res = await send(app, '/api/operator/sites.php', { cookie: support })
    expect(res.status).toBe(403)
  })

  it('switches a site to boxy: the next settings.php for that host has it, other hosts not', async () => {
    expect((await settingsOf('boxy.example')).template).toBe('classic')
    const res = await put('/api/operator/sites.php', {
      host: 'Boxy.Example',
      settings: { template: 'boxy', niche: 3, template_flags: { chat: false } },
      reason: 'new design',
    })
    expect(res.status).toBe(200)
    const view = SitesResponse.parse(await res.json())
    expect(view.sites.map((s) => s.host)).toEqual(['boxy.example'])
    const s = await settingsOf('boxy.example')
    expect([s.template, s.niche, s.template_flags.chat, s.template_flags.likes]).toEqual([
      'boxy',
      3,
      false,
      true,
    ])
    expect((await settingsOf('other.example')).template).toBe('classic')
    const entry = await lastAudit('site.update')
    expect(entry).toMatchObject({
      target_type: 'site',
      target_id: 'boxy.example',
      reason: 'new design',
      details: {
        host: 'boxy.example',
        changes: {
          template: { before: null, after: 'boxy' },
          niche: { before: null, after: 3 },
          template_flags: { before: null, after: { chat: false } },
        },
      },
    })
  })

  it('changes a server-wide field, and clearing a site field falls back to it', async () => {
    await put('/api/operator/sites.php', {
      host: null,
      settings: { name: 'Lovely', signups: 'other' },
    })
    expect((await settingsOf('any.example')).name).toBe('Lovely')
    expect((await settingsOf('boxy.example')).signups).toBe('other')
    await put('/api/operator/sites.php', { host: 'boxy.example', settings: { name: 'Boxy' } })
    expect((await settingsOf('boxy.example')).name).toBe('Boxy')
    await put('/api/operator/sites.php', { host: 'boxy.example', clear: ['name'] })
    expect((await settingsOf('boxy.example')).name).toBe('Lovely')
    expect((await lastAudit('site.update'))?.details).toEqual({
      host: 'boxy.example',
      changes: { name: { before: 'Boxy', after: null } },
    })
    const server = (await lastAudit('site.update'))?.details
    expect(server).toBeTruthy()
    await put('/api/operator/sites.php', { host: null, clear: ['name', 'signups'] })
    expect((await settingsOf('any.example')).name).toBe('Amora')
  })

  it('refuses a bad value with 400 naming the field, and changes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ host: 'boxy.example', settings: { template: 'fancy' } }, 'settings.template'],
      [{ host: 'boxy.example', settings: { niche: 9 } }, 'settings.niche'],
      [
        { host: 'boxy.example', settings: { template_flags: { chat: 'no' } } },
        'settings.template_flags.chat',
      ],
      [{ host: null, settings: { company_tradenames: 'Amora' } }, 'settings.company_tradenames'],
      [{ host: null, settings: { secret_key: 'x' } }, 'settings'],
      [{ host: 'not a host', settings: {} }, 'host'],
      [{ host: null, clear: ['nope'] }, 'clear.0'],
    ]
    for (const [body, field] of cases) {
      const res = await put('/api/operator/sites.php', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { field: string }).field).toBe(field)
    }
    expect((await settingsOf('boxy.example')).template).toBe('boxy')
  })

  it('removes a site: its host gets the server-wide settings again', async () => {
    const res = await send(app, '/api/operator/sites.php', {
      method: 'DELETE',
      body: { host: 'boxy.example' },
      cookie: admin,
    })
    expect(res.status).toBe(200)
    expect((await settingsOf('boxy.example')).template).toBe('classic')
    expect((await lastAudit('site.delete'))?.details).toMatchObject({
      before: { template: 'boxy', niche: 3 },
      after: null,
    })
    const again = await send(app, '/api/operator/sites.php', {
      method: 'DELETE',
      body: { host: 'boxy.example' },
      cookie: admin,
    })
    expect(again.status).toBe(404)
  })

  it('sets the message cost: packages.php prices with it at once on this server', async () => {
    expect(await messageCost(t.db)).toBe(10)
    const res = await put('/api/operator/message-cost.php', { credits: 25 })
    expect(SitesResponse.parse(await res.json()).message_cost).toBe(25)
    expect(await messageCost(t.db)).toBe(25)
    expect((await lastAudit('site.message_cost'))?.details).toEqual({ before: null, after: 25 })
    const bad = await put('/api/operator/message-cost.php', { credits: -1 })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { field: string }).field).toBe('credits')
  })

  it('sets route rules, checked with the rule schema the server applies', async () => {
    const rules = [{ from: '/old', to: '/new', status: 302 }]
    const res = await put('/api/operator/route-rules.php', { rules })
    expect(SitesResponse.parse(await res.json()).route_rules).toEqual(rules)
    // The server's redirect step reads the rules per request (api/traffic/redirects.ts).
    expect(matchRule(await loadRouteRules(t.db), '/old')).toEqual(rules[0])
    expect((await lastAudit('site.route_rules'))?.details).toEqual({ before: [], after: rules })
    const bad = await put('/api/operator/route-rules.php', { rules: [{ from: 'old', to: '/x' }] })
    expect(((await bad.json()) as { field: string }).field).toBe('rules.0.from')
  })

  it('creates and changes a credit package with its prices', async () => {
    const body = {
      id: 'mega',
      credits: 1000,
      bonus: 100,
      position: 9,
      prices: { EUR: 9999, GBP: 8999 },
    }
    const res = await put('/api/operator/packages.php', body)
    expect(res.status).toBe(200)
    const mega = PackagesAdminResponse.parse(await res.json()).packages.find((p) => p.id === 'mega')
    expect(mega).toEqual({
      id: 'mega',
      credits: 1000,
      bonus: 100,
      position: 9,
      featured: false,
      active: true,
      prices: { EUR: 9999, GBP: 8999 },
    })
    await put('/api/operator/packages.php', { ...body, prices: { EUR: 7999 }, active: false })
    const after = PackagesAdminResponse.parse(
      await (await send(app, '/api/operator/packages.php', { cookie: admin })).json(),
    ).packages.find((p) => p.id === 'mega')
    expect([after?.active, after?.prices]).toEqual([false, { EUR: 7999 }])
    expect((await lastAudit('package.save'))?.details).toMatchObject({
      before: { prices: { EUR: 9999, GBP: 8999 }, active: true },
      after: { prices: { EUR: 7999 }, active: false },
    })
    const bad = await put('/api/operator/packages.php', { ...body, prices: { eur: 1 } })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { field: string }).field).toBe('prices.eur')
  })

  it('creates, changes and deletes a discount code', async () => {
    const res = await put('/api/operator/discounts.php', {
      code: 'spring25',
      kind: 'normal',
      percent_off: 25,
      max_uses: 100,
    })
    expect(res.status).toBe(200)
    const { discounts } = DiscountsAdminResponse.parse(await res.json())
    expect(discounts.find((d) => d.code === 'SPRING25')).toMatchObject({
      kind: 'normal',
      percent_off: 25,
      bonus_percent: null,
      max_uses: 100,
      uses: 0,
    })
    await put('/api/operator/discounts.php', { code: 'SPRING25', kind: 'normal', percent_off: 30 })
    expect((await lastAudit('discount.save'))?.details).toMatchObject({
      before: { percent_off: 25 },
      after: { percent_off: 30 },
    })
    const both = await put('/api/operator/discounts.php', {
      code: 'BOTH',
      kind: 'normal',
      percent_off: 10,
      bonus_percent: 10,
    })
    expect(both.status).toBe(400)
    expect(((await both.json()) as { field: string }).field).toBe('bonus_percent')
    const del = await send(app, '/api/operator/discounts.php', {
      method: 'DELETE',
      body: { code: 'spring25' },
      cookie: admin,
    })
    expect(
      DiscountsAdminResponse.parse(await del.json()).discounts.map((d) => d.code),
    ).not.toContain('SPRING25')
    expect((await lastAudit('discount.delete'))?.details).toMatchObject({
      before: { code: 'SPRING25' },
      after: null,
    })
  })
})
