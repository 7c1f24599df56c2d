// The login form sent before the app hydrated (api/site/form-login.ts): an
// ordinary form post to /login, answered by POST /api/login.php in-process
// and redirected (303), never a password in an address, never a 500.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { samePath } from '../contract/rules/index.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

it('accepts only paths of this site as where to go after login', () => {
  expect(samePath('/likes')).toBe('/likes')
  expect(samePath('/members/12?x=1')).toBe('/members/12?x=1')
  expect(samePath('//evil.example/')).toBeNull()
  expect(samePath('/\\evil.example')).toBeNull()
  expect(samePath('https://evil.example/')).toBeNull()
  expect(samePath(undefined)).toBeNull()
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
