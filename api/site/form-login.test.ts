// The login form sent before the app hydrated (api/site/form-login.ts): an
// ordinary form post to /login, answered by POST /api/login.php in-process
// and redirected (303), never a password in an address, never a 500.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { rateLimits } from '../../db/schema/index.ts'
import { samePath } from '../contract/rules/index.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

/**
 * Open-redirect payloads from the usual lists, as the `redirect` value arrives
 * (already decoded once from the query). Browsers strip tabs and newlines from
 * a URL, read a backslash as a slash and `//` as another host, so each of these
 * would take a member who just logged in to another site, or is a look-alike
 * of one that would.
 */
const OFF_SITE = [
  '//evil.example',
  '//evil.example/',
  '///evil.example',
  '////evil.example',
  '//evil.example@good.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  ' /\\evil',
  ' //evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '/\r\n//evil.example',
  '\t//evil.example',
  '/\u0000/evil.example',
  '/\u000b/evil.example',
  '/\u000c/evil.example',
  '/\u007f/evil.example',
  '/\u0085/evil.example',
  '/\u00a0/evil.example',
  '/\u200b/evil.example',
  '/\u2028/evil.example',
  '/\u3000/evil.example',
  '/ /evil.example',
  '/members ',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0D%0A//evil.example',
  '/%0d%0a//evil',
  '/%00/evil.example',
  '/%1f/evil.example',
  '/%7F/evil.example',
  '/%C2%85/evil.example',
  '/%5Cevil.example',
  '/%5cevil.example',
  '/%2F%2Fevil.example',
  '/%2f%2fevil.example',
  '/%2F/evil.example',
  '/%252F%252Fevil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/./..//evil.example',
  '/x/..//evil.example',
  '/%2e%2e//evil.example',
  '/%2E//evil.example',
  '\uff0f\uff0fevil.example',
  '/\uff0fevil.example',
  '\u2215\u2215evil.example',
  'https://evil.example',
  'https://evil.example/',
  'HTTPS://evil.example',
  'https:/evil.example',
  'https:evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'evil.example',
  './/evil.example',
  'members',
  '',
]

/** Where a member may well be sent back to after login. */
const ON_SITE = [
  '/',
  '/members',
  '/members/12?x=1#y',
  '/members/12?x=1',
  '/likes',
  '/chats',
  '/chats/7',
  '/search?q=a%20b',
  '/members?city=Den%20Haag&page=2',
  '/complete-signup',
  '/login?redirect=%2Flikes',
  // Only looks like a scheme: it is a path of this site (a 404 at worst).
  '/javascript:alert(1)',
]

it('accepts only paths of this site as where to go after login', () => {
  for (const to of ON_SITE) expect(samePath(to), JSON.stringify(to)).toBe(to)
  for (const to of [undefined, null, 42, ['/members'], { to: '/members' }])
    expect(samePath(to), JSON.stringify(to)).toBeNull()
})

it('refuses every usual open-redirect payload, each one', () => {
  const letThrough = OFF_SITE.filter((to) => samePath(to) !== null)
  expect(letThrough).toEqual([])
})

it('never accepts a path the browser would resolve to another origin or a `//` path', () => {
  // Whatever samePath accepts stays on the site however a browser reads it.
  const site = 'https://site.example'
  for (const to of [...ON_SITE, ...OFF_SITE]) {
    const accepted = samePath(to)
    if (accepted === null) continue
    const url = new URL(accepted, site)
    expect(url.origin, JSON.stringify(to)).toBe(site)
    expect(url.pathname.startsWith('//'), JSON.stringify(to)).toBe(false)
  }
})

describeEngines('the login form without the app on %s', (engine) => {
  let database: TestDatabase
  let dist: string
  let server: ReturnType<typeof createServer>
  let email: string

  const post = (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    server.request(`http://localhost${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    })
  const sessionCookie = (res: Response) =>
    res.headers.getSetCookie().find((cookie) => cookie.startsWith('sid='))

  beforeAll(async () => {
    database = await freshDatabase(engine)
    dist = mkdtempSync(join(tmpdir(), 'amora-dist-'))
    mkdirSync(join(dist, 'media'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>')
    server = createServer({ db: database.db, distDir: dist, mediaDir: join(dist, 'media') })
    email = (await addMember(database.db)).email
  })

  afterAll(async () => {
    await database?.close()
    if (dist) rmSync(dist, { recursive: true, force: true })
  })

  it('logs in with the right password: a session cookie and 303 to the members', async () => {
    const res = await post('/login', { email, password: TEST_PASSWORD })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/members')
    expect(sessionCookie(res)).toMatch(/^sid=[^;]+;.*HttpOnly/i)
    // The cookie is a working session: the app's user.php answers with it.
    const cookie = sessionCookie(res)!.split(';')[0]!
    const user = await server.request('http://localhost/api/user.php', { headers: { cookie } })
    expect(user.status).toBe(200)
  })

  it('goes on to the page the member was sent to login from, only on this site', async () => {
    const ok = await post('/login?redirect=%2Flikes', { email, password: TEST_PASSWORD })
    expect(ok.headers.get('location')).toBe('/likes')
    const away = await post('/login?redirect=%2F%2Fevil.example', {
      email,
      password: TEST_PASSWORD,
    })
    expect(away.headers.get('location')).toBe('/members')
  })

  it('never sends a member off the site, for every usual open-redirect payload', async () => {
    const site = 'http://localhost'
    for (const to of OFF_SITE) {
      // Each right login counts against the login limit: start each afresh.
      await database.db.delete(rateLimits)
      const query = `?redirect=${encodeURIComponent(to)}`
      const ok = await post(`/login${query}`, { email, password: TEST_PASSWORD })
      expect(ok.status, JSON.stringify(to)).toBe(303)
      const location = ok.headers.get('location') ?? ''
      expect(location, JSON.stringify(to)).toBe('/members')
      expect(new URL(location, site).origin).toBe(site)
      // Sent back to the form, the payload is not carried along either.
      const refused = await post(`/login${query}`, {})
      expect(refused.headers.get('location'), JSON.stringify(to)).toBe('/login?failed=invalid')
    }
  })

  it('sends a wrong password back to the login page with the reason, without a session', async () => {
    const res = await post('/login?redirect=%2Flikes', { email, password: 'wrong password' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login?failed=invalid&redirect=%2Flikes')
    expect(sessionCookie(res)).toBeUndefined()
  })

  it('sends an empty or odd form back as invalid, never a 500', async () => {
    const forms: Record<string, string>[] = [
      {},
      { email: 'not an email', password: 'x' },
      { email: '', password: '' },
    ]
    for (const fields of forms) {
      const res = await post('/login', fields)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login?failed=invalid')
    }
    const garbage = await server.request('http://localhost/login', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', origin: 'http://localhost' },
      body: '--x\r\nbroken',
    })
    expect(garbage.status).toBe(303)
    expect(sessionCookie(garbage)).toBeUndefined()
  })

  it('refuses a form another site sent (login CSRF): no session', async () => {
    const res = await post(
      '/login',
      { email, password: TEST_PASSWORD },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/login?failed=error')
    expect(sessionCookie(res)).toBeUndefined()
  })

  it('sends a sign-up form sent before the app ran back to its page, storing nothing', async () => {
    const fields = { email: 'new@example.com', password: TEST_PASSWORD }
    const home = await post('/', fields)
    expect(home.status).toBe(303)
    expect(home.headers.get('location')).toBe('/')
    const signup = await post('/signup?network=x', fields)
    expect(signup.status).toBe(303)
    expect(signup.headers.get('location')).toBe('/signup?network=x')
    expect(sessionCookie(signup)).toBeUndefined()
  })
})
