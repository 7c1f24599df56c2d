import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { siteSettings } from '../../db/schema/index.ts'
import {
  guestPageOf,
  LANDERS,
  lightPageOf,
  MEMBER_LANDINGS,
  NICHES,
  SLUG_LOCALES,
  type SlugPage,
  slugFor,
} from '../contract/rules/index.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { scaled } from '../test/time-scale.ts'
import { visitorLocale } from './redirects.ts'

const PAGES: SlugPage[] = [...LANDERS, ...MEMBER_LANDINGS]
const pathOf = (page: SlugPage) =>
  (MEMBER_LANDINGS as string[]).includes(page) ? `/members/7/${page}` : `/landers/${page}`

it('slugs follow spec §9: niche prefix, en written eng, one slug per lander × locale × niche', () => {
  expect(slugFor('video', 'en', 1)).toBe('meet-singles-on-video-eng')
  expect(slugFor('video', 'nl', 2)).toBe('she-singles-ontmoeten-op-video-nl')
  const prefixes = ['', 'she-', 'bdsm-', 'bbw-', 'gilf-', 'milf-', 'gay-']
  for (const niche of NICHES) {
    expect(slugFor('maplanding', 'de', niche).startsWith(prefixes[niche - 1] ?? '?')).toBe(true)
  }
  for (const page of PAGES) {
    const all = SLUG_LOCALES.flatMap((l) => NICHES.map((n) => slugFor(page, l, n)))
    expect(new Set(all).size).toBe(SLUG_LOCALES.length * NICHES.length)
    for (const s of all) expect(s).toMatch(/^[a-z0-9-]+$/)
  }
})

it('the visitor locale is the locale cookie, then the browser language, then en (spec §4)', () => {
  expect(visitorLocale('pl', 'nl-NL,nl;q=0.9')).toBe('pl')
  expect(visitorLocale(undefined, 'pt-BR,de;q=0.8,nl;q=0.9')).toBe('nl')
  expect(visitorLocale('xx', 'sv')).toBe('en')
  expect(visitorLocale(undefined, undefined)).toBe('en')
})

describeEngines('lander slug redirects on %s', (engine) => {
  let database: TestDatabase
  let server: ReturnType<typeof createServer>
  const get = (path: string, locale?: string) =>
    server.request(path, {
      redirect: 'manual',
      headers: locale ? { cookie: `PARAGLIDE_LOCALE=${locale}` } : {},
    })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    const dist = mkdtempSync(join(tmpdir(), 'dist-'))
    server = createServer({ db: database.db, distDir: dist, mediaDir: dist })
  })
  afterAll(async () => {
    await database.close()
  })

  it(
    'every lander × locale × niche: the bare path and a foreign slug 301 to the slug, which serves the page',
    async () => {
      for (const niche of NICHES) {
        await database.db
          .insert(siteSettings)
          .values({ key: 'niche', value: niche })
          .onConflictDoUpdate({ target: siteSettings.key, set: { value: niche } })
        for (const page of PAGES) {
          for (const locale of SLUG_LOCALES) {
            const slug = slugFor(page, locale, niche)
            const bare = await get(`${pathOf(page)}?network=aff1&sub1=x`, locale)
            expect(bare.status, `${page} ${locale} ${niche}`).toBe(301)
            // The query is kept: it carries the tracking keys the app stores.
            expect(bare.headers.get('location')).toBe(`${pathOf(page)}/${slug}?network=aff1&sub1=x`)
            expect((await get(`${pathOf(page)}/${slug}`, locale)).status).toBe(200)
            const other = SLUG_LOCALES[(SLUG_LOCALES.indexOf(locale) + 1) % SLUG_LOCALES.length]
            const foreign = await get(`${pathOf(page)}/${slugFor(page, other ?? 'en', 1)}`, locale)
            expect(foreign.status).toBe(301)
            expect(foreign.headers.get('location')).toBe(`${pathOf(page)}/${slug}`)
          }
        }
      }
    },
    scaled(120_000),
  )

  it('an unknown slug is 404; the Dutch browser language picks the Dutch slug', async () => {
    await database.db
      .insert(siteSettings)
      .values({ key: 'niche', value: 2 })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value: 2 } })
    expect((await get('/landers/video/no-such-slug')).status).toBe(404)
    expect((await get('/members/7/landing2/no-such-slug')).status).toBe(404)
    expect((await get('/landers/nosuchlander')).status).toBe(200) // not a lander: the app's 404 page
    const nl = await server.request('/landers/video', {
      redirect: 'manual',
      headers: { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' },
    })
    expect(nl.headers.get('location')).toBe('/landers/video/she-singles-ontmoeten-op-video-nl')
  })

  it('operator route rules redirect before the app, also to external addresses', async () => {
    await database.db.insert(siteSettings).values({
      key: 'route_rules',
      value: [
        { from: '/old-promo', to: 'https://partner.example/offer', status: 302 },
        { from: '/blog/*', to: '/pages/faq' },
      ],
    })
    const ext = await get('/old-promo')
    expect([ext.status, ext.headers.get('location')]).toEqual([
      302,
      'https://partner.example/offer',
    ])
    const inner = await get('/blog/anything?x=1')
    expect([inner.status, inner.headers.get('location')]).toEqual([301, '/pages/faq?x=1'])
    await database.db
      .update(siteSettings)
      .set({ value: [{ from: 'no-slash', to: 'javascript:alert(1)' }] })
    expect((await get('/old-promo')).status).toBe(200) // a malformed rule list is ignored
  })
})

// docs/landers-and-tracking.md: the paths the server answers with the landers' light entry.
it("names a guest's entry pages the light entry hydrates (home, login, sign-up, a profile), and nothing else", () => {
  expect(guestPageOf('/')).toBe('home')
  expect(guestPageOf('/login')).toBe('login')
  expect(guestPageOf('/signup')).toBe('signup')
  expect(guestPageOf('/members/7')).toEqual({ member: 7 })
  expect(guestPageOf('/members/123456789')).toEqual({ member: 123456789 })
  for (const path of [
    '/members',
    '/members/0',
    '/members/07',
    '/members/7/',
    '/members/1234567890',
    '/members/7/signup',
    '/login/',
    '/chats',
    '/profile',
    '/pages/faq',
  ]) {
    expect(guestPageOf(path), path).toBeNull()
  }
})

it('names the lander and member landing pages the light entry renders, and nothing else', () => {
  const video = slugFor('video', 'nl', 2)
  const gallery = slugFor('gallery', 'de', 1)
  expect(lightPageOf(`/landers/video/${video}`)).toEqual({ lander: 'video' })
  expect(lightPageOf(`/landers/gallery/${gallery}`)).toEqual({ lander: 'gallery' })
  expect(lightPageOf(`/landers/gallery/${gallery}/x/y`)).toEqual({ lander: 'gallery' })
  expect(lightPageOf('/members/7/signup')).toEqual({ member: 7, variant: 'signup' })
  expect(lightPageOf('/members/7/landing')).toEqual({ member: 7, variant: 'landing' })
  expect(lightPageOf(`/members/7/landing3/${slugFor('landing3', 'fr', 1)}`)).toEqual({
    member: 7,
    variant: 'landing3',
  })
  for (const path of [
    '/landers/video',
    `/landers/video/${video}/more`,
    '/landers/video/no-such-slug',
    `/landers/nosuch/${video}`,
    '/landers/gallery',
    '/members/7/landing2',
    '/members/7/landing2/no-such-slug',
    '/members/0/signup',
    '/members/7/signup/x',
    '/members/7',
    '/signup',
  ]) {
    expect(lightPageOf(path), path).toBeNull()
  }
})
