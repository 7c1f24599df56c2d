// Webcam tiles (spec §6 who sees them, §7 xcams search and clicks): the feed
// is empty for members who may not see cams, filtered by the query, and the
// clicks redirect to configured places only. The upstream adapter is tested
// with a stand-in fetch: nothing here touches the network.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { siteSettings } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { loadCamsConfig } from '../config.ts'
import { ApiError, type Cam, CamsResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import {
  DEFAULT_CAM_REDIRECT_BASE,
  DEFAULT_RESELL_PARTNER_URL,
  DEMO_CAMS,
  demoCamProvider,
  httpCamProvider,
  MAX_CAMS,
  mayViewCams,
} from './cams.ts'
import { camsFromEnv } from './routes.ts'

const DAY_MS = 86_400_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS)

/** Spec §6: cams only for members signed up more than 4 days (345600000 ms) ago. */
const FOUR_DAYS_MS = 345_600_000

describe('mayViewCams (spec §6)', () => {
  const now = Date.parse('2025-06-01T12:00:00Z')
  const member = (paidUser: boolean, signedUpMsAgo: number) => ({
    paidUser,
    signupDate: new Date(now - signedUpMsAgo),
  })

  it('needs: not paid, a member for more than 345600000 ms, and cams or camads resold', () => {
    expect(mayViewCams(member(false, 5 * DAY_MS), ['cams'], now)).toBe(true)
    expect(mayViewCams(member(false, 5 * DAY_MS), ['camads'], now)).toBe(true)
    expect(mayViewCams(member(false, 5 * DAY_MS), ['other', 'camads'], now)).toBe(true)
    expect(mayViewCams(member(true, 5 * DAY_MS), ['cams'], now)).toBe(false)
    expect(mayViewCams(member(false, DAY_MS), ['cams'], now)).toBe(false)
    expect(mayViewCams(member(false, FOUR_DAYS_MS), ['cams'], now)).toBe(false)
    expect(mayViewCams(member(false, FOUR_DAYS_MS + 1), ['cams'], now)).toBe(true)
    expect(mayViewCams(member(false, 5 * DAY_MS), ['none'], now)).toBe(false)
    expect(mayViewCams(member(false, 5 * DAY_MS), [], now)).toBe(false)
  })
})

describe('demo cam feed', () => {
  it('is deterministic fictional accounts with inline thumbnails, both genders, adult ages', () => {
    expect(DEMO_CAMS.length).toBe(24)
    expect(new Set(DEMO_CAMS.map((c) => c.account)).size).toBe(24)
    for (const cam of DEMO_CAMS) {
      expect(cam.age).toBeGreaterThanOrEqual(18)
      expect(cam.thumb_url).toMatch(/^data:image\/svg\+xml,/)
    }
    expect(new Set(DEMO_CAMS.map((c) => c.gender))).toEqual(new Set(['female', 'male']))
  })

  it('filters by gender and age, and redirects known accounts only', async () => {
    const provider = demoCamProvider()
    const found = await provider.search({ gender: 'male', min_age: 20, max_age: 40 })
    expect(found.length).toBeGreaterThan(0)
    expect(found).toEqual(
      DEMO_CAMS.filter((c) => c.gender === 'male' && c.age >= 20 && c.age <= 40),
    )
    expect(await provider.search({ min_age: 99 })).toEqual([])
    expect(provider.redirectUrl('demo-luna')).toBe(`${DEFAULT_CAM_REDIRECT_BASE}demo-luna`)
    expect(provider.redirectUrl('nobody')).toBeNull()
    expect(demoCamProvider('https://cams.example/go/').redirectUrl('demo-luna')).toBe(
      'https://cams.example/go/demo-luna',
    )
  })
})

describe('upstream cam feed adapter', () => {
  const good: Cam = {
    account: 'anna_77',
    name: 'Anna',
    age: 30,
    gender: 'female',
    thumb_url: 'https://img.example/anna.jpg',
    online: true,
  }
  const answer = (body: unknown, status = 200) =>
    vi.fn<typeof fetch>(async () => Response.json(body, { status }))

  it('passes the query on, keeps valid entries that match, drops the rest', async () => {
    const fetchFn = answer({
      cams: [
        good,
        { ...good, account: 'too young', age: 17 },
        { ...good, account: 'bad account!' },
        { ...good, account: 'js', thumb_url: 'javascript:alert(1)' },
        { ...good, account: 'http', thumb_url: 'http://img.example/x.jpg' },
        { ...good, account: 'man', gender: 'male' },
        { ...good, account: 'old', age: 60 },
        'garbage',
        null,
      ],
    })
    const provider = httpCamProvider('https://feed.example/cams?key=k', '/go?cam=', fetchFn)
    expect(await provider.search({ gender: 'female', min_age: 25, max_age: 40 })).toEqual([good])
    const url = new URL(String(fetchFn.mock.calls[0]?.[0]))
    expect(url.origin + url.pathname).toBe('https://feed.example/cams')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      key: 'k',
      gender: 'female',
      min_age: '25',
      max_age: '40',
    })
    expect(fetchFn.mock.calls[0]?.[1]?.signal).toBeInstanceOf(AbortSignal)
  })

  it('accepts a bare array and caps the answer', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ ...good, account: `cam${i}` }))
    const provider = httpCamProvider('https://feed.example/', undefined, answer(many))
    expect(await provider.search({})).toHaveLength(MAX_CAMS)
  })

  it('answers [] when the feed fails, errs, times out or sends nonsense', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const failures: (typeof fetch)[] = [
      answer({ cams: [good] }, 500),
      answer({ nope: true }),
      answer('just a string'),
      vi.fn<typeof fetch>(async () => new Response('<html>', { status: 200 })),
      vi.fn<typeof fetch>(async () => {
        throw new TypeError('fetch failed')
      }),
      vi.fn<typeof fetch>(async () => {
        throw new DOMException('The operation timed out.', 'TimeoutError')
      }),
    ]
    for (const fetchFn of failures) {
      expect(await httpCamProvider('https://feed.example/', undefined, fetchFn).search({})).toEqual(
        [],
      )
    }
  })

  it('builds click URLs for well-formed accounts only', () => {
    const provider = httpCamProvider('https://feed.example/', 'https://partner.example/c/')
    expect(provider.redirectUrl('anna_77')).toBe('https://partner.example/c/anna_77')
    expect(provider.redirectUrl('../x')).toBeNull()
    expect(provider.redirectUrl('..')).toBeNull()
    expect(provider.redirectUrl('a b')).toBeNull()
    expect(provider.redirectUrl('x'.repeat(65))).toBeNull()
  })
})

describe('cams configuration', () => {
  it('uses the demo feed without CAMS_UPSTREAM_URL and the adapter with it', async () => {
    expect(loadCamsConfig({})).toEqual({
      upstreamUrl: undefined,
      redirectBase: undefined,
      resellPartnerUrl: undefined,
    })
    expect(await camsFromEnv({}).provider.search({})).toHaveLength(DEMO_CAMS.length)
    const deps = camsFromEnv({
      CAMS_UPSTREAM_URL: 'https://feed.example/cams',
      CAMS_REDIRECT_BASE: 'https://partner.example/c/',
      RESELL_PARTNER_URL: '/partner',
    })
    expect(deps.resellPartnerUrl).toBe('/partner')
    expect(deps.provider.redirectUrl('anyone')).toBe('https://partner.example/c/anyone')
  })

  it('refuses unsafe or malformed values at start', () => {
    for (const env of [
      { CAMS_UPSTREAM_URL: 'ftp://feed.example/' },
      { CAMS_UPSTREAM_URL: 'not a url' },
      { CAMS_REDIRECT_BASE: '//evil.example/' },
      { CAMS_REDIRECT_BASE: 'javascript:alert(1)' },
      { RESELL_PARTNER_URL: 'partner' },
    ]) {
      expect(() => loadCamsConfig(env), JSON.stringify(env)).toThrow()
    }
  })
})

describeEngines('xcams API on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let eligible: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db, cams: camsFromEnv({}) })
    eligible = await addMember(database.db, { gender: 'male', signupDate: daysAgo(10) })
    cookie = await login(app, eligible.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const camsFor = async (query: string, as = cookie) => {
    const res = await send(app, `/api/xcams/search.php${query}`, { cookie: as })
    expect(res.status, query).toBe(200)
    return CamsResponse.parse(await res.json()).cams
  }
  const cookieOf = async (spec: Parameters<typeof addMember>[1]) =>
    login(app, (await addMember(database.db, spec)).email, TEST_PASSWORD)
  const withResell = async (value: string[], run: () => Promise<void>) => {
    await database.db.insert(siteSettings).values({ key: 'member_resell', value })
    try {
      await run()
    } finally {
      await database.db.delete(siteSettings).where(eq(siteSettings.key, 'member_resell'))
    }
  }

  it('answers 403 without a session (spec §8)', async () => {
    const res = await send(app, '/api/xcams/search.php')
    expect(res.status).toBe(403)
  })

  it('gives an eligible member cams matching the query', async () => {
    expect(await camsFor('')).toHaveLength(DEMO_CAMS.length)
    const women = await camsFor('?gender=female&min_age=25&max_age=35')
    expect(women.length).toBeGreaterThan(0)
    for (const cam of women) {
      expect(cam.gender).toBe('female')
      expect(cam.age).toBeGreaterThanOrEqual(25)
      expect(cam.age).toBeLessThanOrEqual(35)
    }
    expect(await camsFor('?min_age=100')).toEqual([])
  })

  it('gives a paid member no cams', async () => {
    expect(await camsFor('', await cookieOf({ paidUser: true, signupDate: daysAgo(10) }))).toEqual(
      [],
    )
  })

  it('gives a member who signed up 1 day ago no cams', async () => {
    expect(await camsFor('', await cookieOf({ signupDate: daysAgo(1) }))).toEqual([])
  })

  it("follows the operator's member_resell setting", async () => {
    await withResell(['none'], async () => expect(await camsFor('')).toEqual([]))
    await withResell(['camads'], async () => expect((await camsFor('')).length).toBeGreaterThan(0))
  })

  it('answers bad queries with 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['?gender=robot', 'gender'],
      ['?min_age=17', 'min_age'],
      ['?max_age=101', 'max_age'],
      ['?min_age=abc', 'min_age'],
      ['?min_age=40&max_age=30', 'min_age'],
    ]
    for (const [query, field] of cases) {
      const res = await send(app, `/api/xcams/search.php${query}`, { cookie })
      expect(res.status, query).toBe(400)
      expect(ApiError.parse(await res.json()).field).toBe(field)
    }
  })

  it('redirects a click on a known account (302) and answers 404 for an unknown one', async () => {
    const res = await send(app, '/api/xcams/redirect.php?account=demo-luna', { cookie })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/api/xcams/demo.php?account=demo-luna')
    const landing = await app.request('http://localhost/api/xcams/demo.php?account=%3Cb%3E')
    expect(landing.status).toBe(200)
    const html = await landing.text()
    expect(html).toContain('Demo webcam provider')
    expect(html).not.toContain('<b>')
    expect((await send(app, '/api/xcams/redirect.php?account=nobody')).status).toBe(404)
    for (const q of ['', '?account=', `?account=${'x'.repeat(65)}`]) {
      const bad = await send(app, `/api/xcams/redirect.php${q}`)
      expect(bad.status, q).toBe(400)
      expect(ApiError.parse(await bad.json()).field).toBe('account')
    }
  })

  it('redirects the resell-partner click, and refuses an unknown flow', async () => {
    const res = await send(app, '/api/resellpartner.php?flow=profile-search&redirect=1', {
      cookie,
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(DEFAULT_RESELL_PARTNER_URL)
    for (const [q, field] of [
      ['?flow=other&redirect=1', 'flow'],
      ['?redirect=1', 'flow'],
      ['?flow=profile-search', 'redirect'],
      ['?flow=profile-search&redirect=0', 'redirect'],
    ]) {
      const bad = await send(app, `/api/resellpartner.php${q}`)
      expect(bad.status, q).toBe(400)
      expect(ApiError.parse(await bad.json()).field).toBe(field)
    }
  })

  it('uses the configured provider and partner', async () => {
    const custom = createApi({
      db: database.db,
      cams: {
        provider: httpCamProvider(
          'https://feed.example/',
          'https://partner.example/c/',
          vi.fn<typeof fetch>(async () => Response.json({ cams: [DEMO_CAMS[0]] })),
        ),
        resellPartnerUrl: 'https://partner.example/resell',
      },
    })
    const demo = DEMO_CAMS[0]!
    // A data: thumbnail is allowed from the upstream too.
    const list = await send(custom, '/api/xcams/search.php', { cookie })
    expect(CamsResponse.parse(await list.json()).cams).toEqual([demo])
    const click = await send(custom, `/api/xcams/redirect.php?account=${demo.account}`)
    expect(click.headers.get('location')).toBe(`https://partner.example/c/${demo.account}`)
    const resell = await send(custom, '/api/resellpartner.php?flow=profile-search&redirect=1')
    expect(resell.headers.get('location')).toBe('https://partner.example/resell')
  })
})
