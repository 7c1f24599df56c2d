// Spec §2 "Unknown paths give 404": the server knows the app's route table
// (dist/routes.json, written by tools/routes-vite-plugin.ts from the router's
// generated tree) and answers a path no page matches with 404 and the app
// (which shows the error page), a bot with the plain status only.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { routePatterns } from '../../tools/routes-vite-plugin.ts'
import { Locale } from '../contract/index.ts'
import { slugFor } from '../contract/rules/index.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMembers } from '../test/seed.ts'
import { compileRoutes } from './route-table.ts'

const SHELL = '<!doctype html><title>Amora</title><div id="root"></div>'
/** The light entry (app/lander.tsx), one copy per language, told apart from the app's shell by its script. */
const LANDER_SHELL =
  '<!doctype html><title>Amora</title><div id="root"></div><script src="/lander.js"></script>'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36'

/** The route table of the app as it is now (the same parse the build runs). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const patterns = routePatterns(readFileSync(join(ROOT, 'app', 'routeTree.gen.ts'), 'utf8'))

it('reads every page path of the generated route tree, params and all', () => {
  expect(patterns).toContain('/')
  expect(patterns).toContain('/members/$memberId')
  expect(patterns).toContain('/chats/$chatId')
  expect(patterns).toContain('/_dev/mail')
})

it('matches $param to one segment, {-$param} to zero or one, a splat to any rest', () => {
  const isPage = compileRoutes([
    '/members/$memberId',
    '/credits/$creditId/{-$paymentMethod}',
    '/landers/gallery/$',
  ])
  expect(isPage('/members/12')).toBe(true)
  expect(isPage('/members/12/')).toBe(true)
  expect(isPage('/members/12/extra')).toBe(false)
  expect(isPage('/members')).toBe(false)
  expect(isPage('/credits/3')).toBe(true)
  expect(isPage('/credits/3/ideal')).toBe(true)
  expect(isPage('/credits/3/ideal/x')).toBe(false)
  expect(isPage('/landers/gallery/a/b/c')).toBe(true)
  expect(isPage('/landers/other')).toBe(false)
  expect(isPage('/%E0%A4%A')).toBe(false)
})

describeEngines('the page server on %s', (engine) => {
  let database: TestDatabase
  let dist: string
  let server: ReturnType<typeof createServer>
  /** A member who exists; the paths below say `/members/M`. */
  let member = 0
  let deleted = 0
  const get = (path: string, ua = CHROME) =>
    server.request(`http://localhost${path.replace('/M', `/${member}`)}`, {
      headers: { 'user-agent': ua },
    })

  beforeAll(async () => {
    database = await freshDatabase(engine)
    const [live, gone] = await addMembers(database.db, [{}, { deletedAt: new Date() }])
    member = live?.id ?? 0
    deleted = gone?.id ?? 0
    dist = mkdtempSync(join(tmpdir(), 'amora-dist-'))
    mkdirSync(join(dist, 'media'))
    writeFileSync(join(dist, 'index.html'), SHELL)
    for (const locale of Locale.options) {
      mkdirSync(join(dist, 'l', locale), { recursive: true })
      writeFileSync(
        join(dist, 'l', locale, 'lander.html'),
        LANDER_SHELL.replace('/lander.js', `/l/${locale}/lander.js`),
      )
    }
    writeFileSync(join(dist, 'routes.json'), JSON.stringify(patterns))
    server = createServer({ db: database.db, distDir: dist, mediaDir: join(dist, 'media') })
  })

  afterAll(async () => {
    await database?.close()
    if (dist) rmSync(dist, { recursive: true, force: true })
  })

  // Spec §2's screens that exist in this build, one concrete path each
  // (with a trailing slash too, which is the same page).
  const known = [
    '/',
    '/login',
    '/signup',
    '/chats',
    '/chats/7',
    '/members',
    '/search',
    '/members/M',
    '/likes/m/12',
    '/members/M/chat',
    '/profile',
    '/likes',
    '/likes/received',
    '/activate/done',
    '/activate/error',
    '/notifications',
    '/mail-change/do',
    '/account-deleted',
    '/complete-signup',
    '/reset-password',
    '/reset-password/do',
    '/_dev/mail',
    '/members/',
  ]
  it.each(known)('answers the page %s with 200 and the app', async (path) => {
    const res = await get(path)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(SHELL)
  })

  it.each(['/no-such-page', '/members/M/nothing', '/login/extra', '/pagesx'])(
    'answers the unknown path %s with 404 and the app (its error page)',
    async (path) => {
      const res = await get(path)
      expect(res.status).toBe(404)
      expect(await res.text()).toBe(SHELL)
    },
  )

  // A member page of a member who does not exist is a page that does not exist.
  it.each([
    '/members/999999999',
    '/members/999999999/chat',
    '/members/0',
    '/members/abc',
    '/members/abc/chat',
  ])('answers the page of a member who does not exist, %s, with 404 and the app', async (path) => {
    const res = await get(path)
    expect(res.status).toBe(404)
    expect(await res.text()).toBe(SHELL)
  })

  it('answers the profile and chat of a deleted member with 404', async () => {
    expect((await get(`/members/${deleted}`)).status).toBe(404)
    expect((await get(`/members/${deleted}/chat`)).status).toBe(404)
  })

  it('answers a bot on an unknown path with the plain status, without the app', async () => {
    const res = await get('/no-such-page', GOOGLEBOT)
    expect(res.status).toBe(404)
    const body = await res.text()
    expect(body).toBe('404 Not Found')
    expect(body).not.toContain('<div id="root">')
  })

  it('gives a bot the page itself on a known path', async () => {
    const res = await get('/login', GOOGLEBOT)
    expect(res.status).toBe(200)
  })

  it('leaves unknown API calls to the API (JSON 404)', async () => {
    const res = await get('/api/nothing.php')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  // docs/landers-and-tracking.md: a lander's first load is the light entry, without the router.
  it.each([
    '/landers/video/meet-singles-on-video-eng',
    `/landers/gallery/${slugFor('gallery', 'en', 1)}`,
    `/landers/gallery/${slugFor('gallery', 'en', 1)}/more`,
    '/members/12/signup',
    '/members/12/landing',
    '/members/12/landing2/chat-with-me-eng',
  ])("answers the lander page %s with the landers' light entry", async (path) => {
    const res = await get(path)
    expect(res.status).toBe(200)
    // The copy of the visitor's language (English: no Accept-Language here).
    expect(await res.text()).toContain('/l/en/lander.js')
  })

  it.each(['/members', '/members/M', '/signup', '/landers/video/no-such-slug'])(
    'answers %s with the app, not the light entry',
    async (path) => {
      const res = await get(path)
      expect(await res.text()).not.toContain('/lander.js')
    },
  )
})
