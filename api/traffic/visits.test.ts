// Lander visits (POST /api/lander_visit.php) and the traffic report's split
// per site, on both databases: a visit counts once per visitor and half hour
// (reloads and replays do not count again), bots never count, bad input is
// a 400 naming the field, a flood from one address is a 429; the site is the
// `sites` entry the request's host matched ('' the server-wide site, however
// odd the Host header); sign-ups record their site; the report (JSON and
// CSV) has a visits column, a site column and a site filter.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { landerVisits, members, siteSettings } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ReportResponse } from '../contract/operator/sites.ts'
import { LIMITS } from '../http/ratelimit.ts'
import { createMailer } from '../mail/mailer.ts'
import { fakeDns, signupBody } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMember } from '../test/seed.ts'
import { addStaff, staffLogin } from '../test/staff.ts'

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const MINUTE = 60_000

describeEngines('lander visits and the report per site on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let clock = new Date('2026-06-10T08:00:00Z')
  let serial = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
    await t.db.insert(siteSettings).values({
      key: 'sites',
      value: { 'b.example': { name: 'Amora B' }, 'c.example:8080': { name: 'Amora C' } },
    })
    app = createApi({
      db: t.db,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: true,
        siteHosts: ['b.example', 'localhost'],
        lookupHost: fakeDns,
      },
      now: () => clock,
    })
  })
  afterAll(() => t?.close())

  /** A fresh client address per call unless one is given. */
  const visit = (body: unknown, opts: { ua?: string | null; ip?: string; base?: string } = {}) =>
    send(app, '/api/lander_visit.php', {
      method: 'POST',
      body,
      base: opts.base ?? 'http://b.example',
      headers: {
        'x-forwarded-for': opts.ip ?? `198.51.100.${++serial}`,
        ...(opts.ua === null ? {} : { 'user-agent': opts.ua ?? BROWSER }),
      },
    })

  const counted = async (lander: string) =>
    (await t.db.select().from(landerVisits).where(eq(landerVisits.lander, lander))).map((r) => ({
      day: r.day,
      site: r.site,
      network: r.network,
      sub1: r.sub1,
      visits: r.visits,
    }))

  it('counts a visit once per visitor and half hour: a reload or replay inside it does not count again', async () => {
    clock = new Date('2026-06-10T08:00:00Z')
    const body = { lander: 'video', network: 'adnet', sub1: 's1' }
    expect((await visit(body, { ip: '203.0.113.7' })).status).toBe(204)
    clock = new Date(clock.getTime() + 5 * MINUTE)
    expect((await visit(body, { ip: '203.0.113.7' })).status).toBe(204)
    // Another visitor counts.
    expect((await visit(body, { ip: '203.0.113.8' })).status).toBe(204)
    expect(await counted('video')).toEqual([
      { day: '2026-06-10', site: 'b.example', network: 'adnet', sub1: 's1', visits: 2 },
    ])
    // The next window: the first visitor's return counts.
    clock = new Date(clock.getTime() + LIMITS.lander_visit.windowMs)
    expect((await visit(body, { ip: '203.0.113.7' })).status).toBe(204)
    expect((await counted('video'))[0]?.visits).toBe(3)
  })

  it('never counts bots: crawlers, headless browsers, HTTP libraries, no User-Agent', async () => {
    for (const ua of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36',
      'curl/8.5.0',
      'python-requests/2.31',
      null,
    ]) {
      expect((await visit({ lander: 'maplanding' }, { ua })).status).toBe(204)
    }
    expect(await counted('maplanding')).toEqual([])
  })

  it('counts per site as the sites setting names it, and a member landing page; any other host is the server-wide site', async () => {
    clock = new Date('2026-06-11T10:00:00Z')
    await visit({ lander: 'member-landing2' }, { base: 'http://c.example:8080' })
    await visit({ lander: 'member-landing2' }, { base: 'http://localhost' })
    await visit({ lander: 'member-landing2' }, { base: 'http://localhost' })
    expect((await counted('member-landing2')).sort((a, b) => a.site.localeCompare(b.site))).toEqual(
      [
        { day: '2026-06-11', site: '', network: '', sub1: '', visits: 2 },
        { day: '2026-06-11', site: 'c.example:8080', network: '', sub1: '', visits: 1 },
      ],
    )
  })

  it('refuses bad input with 400 naming the field, and counts nothing', async () => {
    const cases: [unknown, string][] = [
      [{ lander: 'nosuchlander' }, 'lander'],
      [{}, 'lander'],
      [{ lander: 'video', network: 'a b<script>' }, 'network'],
      [{ lander: 'video', sub1: 'x'.repeat(65) }, 'sub1'],
    ]
    for (const [body, field] of cases) {
      const res = await visit(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { field?: string }).field).toBe(field)
    }
    expect((await visit({ lander: 'video', extra: 1 })).status).toBe(400)
    expect(await counted('nosuchlander')).toEqual([])
  })

  it('answers 429 to an address past its limit', async () => {
    clock = new Date('2026-06-12T10:00:00Z')
    const ip = '192.0.2.99'
    let last = 0
    for (let i = 0; i <= LIMITS.lander_visit_ip.limit; i++) {
      last = (await visit({ lander: 'gallery' }, { ip })).status
    }
    expect(last).toBe(429)
    expect((await counted('gallery'))[0]?.visits).toBe(1)
  })

  it('records the site of a sign-up', async () => {
    const body = signupBody({ trafficsource: { network: 'adnet' } })
    const res = await send(app, '/api/user.php?new=1', {
      method: 'POST',
      body,
      base: 'http://b.example',
      headers: { 'x-forwarded-for': '203.0.113.200' },
    })
    expect(res.status).toBe(200)
    const [row] = await t.db
      .select({ site: members.signupSite })
      .from(members)
      .where(eq(members.email, body.email))
    expect(row?.site).toBe('b.example')
  })

  it('splits the report per site with a visits column, filters one site, and exports both in the CSV', async () => {
    const day = new Date('2026-07-01T09:00:00Z')
    const source = { network: 'aff', sub1: 'x1', lander: 'collagelanding' }
    await addMember(t.db, { trafficsource: source, signupDate: day, signupSite: 'b.example' })
    await addMember(t.db, { trafficsource: source, signupDate: day, signupSite: '' })
    clock = day
    for (const base of ['http://b.example', 'http://b.example', 'http://localhost']) {
      await visit({ lander: 'collagelanding', network: 'aff', sub1: 'x1' }, { base })
    }
    // The code is the one an authenticator shows at the API's (test) time.
    const admin = await staffLogin(app, await addStaff(t.db, ['admin']), clock.getTime())
    const report = async (query: string) => {
      const res = await send(
        app,
        `/api/operator/report.php?from=2026-07-01&to=2026-07-01${query}`,
        {
          cookie: admin,
        },
      )
      expect(res.status).toBe(200)
      return ReportResponse.parse(await res.json())
    }
    const row = (site: string, visits: number) => ({
      day: '2026-07-01',
      site,
      network: 'aff',
      sub1: 'x1',
      lander: 'collagelanding',
      visits,
      signups: 1,
      activations: 0,
      first_purchases: 0,
      revenue: {},
      spent: {},
    })
    const all = await report('')
    expect(all.site).toBeNull()
    expect(all.sites).toEqual(['b.example', 'c.example:8080'])
    expect(all.rows).toEqual([row('', 1), row('b.example', 2)])
    expect((await report('&site=b.example')).rows).toEqual([row('b.example', 2)])
    expect((await report('&site=_')).rows).toEqual([row('', 1)])
    expect((await report('&site=c.example:8080')).rows).toEqual([])
    const bad = await send(app, '/api/operator/report.php?site=%3Cb%3E', { cookie: admin })
    expect([bad.status, ((await bad.json()) as { field?: string }).field]).toEqual([400, 'site'])
    const csv = await send(
      app,
      '/api/operator/report-csv.php?from=2026-07-01&to=2026-07-01&site=b.example',
      { cookie: admin },
    )
    expect(await csv.text()).toBe(
      [
        'day,site,network,sub1,lander,visits,signups,activations,first_purchases',
        '2026-07-01,b.example,aff,x1,collagelanding,2,1,0,0',
        '',
      ].join('\r\n'),
    )
  })
})
