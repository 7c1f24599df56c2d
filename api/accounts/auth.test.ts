// Login and logout (spec §7 "Other", §9 cookie): credentials, the session
// cookie's attributes, how sessions are stored, CSRF refusal and logout.
import { createHash } from 'node:crypto'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members, sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, LogoutResponse, User } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send, sessionToken, setCookie } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('auth on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male', name: 'Piet', age: 41 })
  })
  afterAll(() => database?.close())

  const sessionCount = async (memberId = me.id) =>
    (
      await database.db.select({ n: count() }).from(sessions).where(eq(sessions.memberId, memberId))
    )[0]?.n ?? 0

  const postLogin = (body: unknown, options: Parameters<typeof send>[2] = {}) =>
    send(app, '/api/login.php', { method: 'POST', body, ...options })

  describe('POST /api/login.php', () => {
    it('answers good credentials with the spec User and a session cookie', async () => {
      const res = await postLogin({ email: me.email, password: TEST_PASSWORD })
      expect(res.status).toBe(200)
      const user = User.parse(await res.json())
      expect(user.email).toBe(me.email)
      expect(user.profile).toMatchObject({
        id: me.id,
        name: 'Piet',
        age: 41,
        gender: 'male',
        country: 'NL',
        date_of_birth: me.dateOfBirth,
      })
      expect(res.headers.get('cache-control')).toBe('no-store')

      const cookie = setCookie(res)!
      expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/)
      const attributes = cookie.split(/;\s*/).slice(1)
      expect(attributes).toEqual(
        expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=2592000']),
      )
      // Plain http on localhost: a Secure cookie would be dropped by the browser.
      expect(attributes).not.toContain('Secure')
      // The page's readable note that a session cookie was set (app/data/session.ts).
      const hint = setCookie(res, 'signed_in')!
      expect(hint).toMatch(/^signed_in=1;/)
      expect(hint.split(/;\s*/).slice(1)).toEqual(
        expect.arrayContaining(['SameSite=Lax', 'Path=/', 'Max-Age=2592000']),
      )
      expect(hint).not.toMatch(/HttpOnly/i)
    })

    it('sets a Secure cookie for a site served over https', async () => {
      const res = await postLogin(
        { email: me.email, password: TEST_PASSWORD },
        { base: 'https://example.com' },
      )
      expect(res.status).toBe(200)
      expect(setCookie(res)!.split(/;\s*/)).toEqual(
        expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']),
      )
    })

    it('accepts the email in any case and with surrounding spaces', async () => {
      const res = await postLogin({
        email: `  ${me.email.toUpperCase()} `,
        password: TEST_PASSWORD,
      })
      expect(res.status).toBe(200)
    })

    it('answers a wrong password and an unknown email identically with 401', async () => {
      const wrong = await postLogin({ email: me.email, password: `${TEST_PASSWORD}!` })
      const unknown = await postLogin({ email: 'nobody@test.example', password: TEST_PASSWORD })
      expect(wrong.status).toBe(401)
      expect(unknown.status).toBe(401)
      const body = await wrong.json()
      expect(ApiError.parse(body).error).toBe('invalid_credentials')
      expect(await unknown.json()).toEqual(body)
      expect(setCookie(wrong)).toBeUndefined()
      expect(setCookie(unknown)).toBeUndefined()
    })

    it('refuses a deleted member with the same 401', async () => {
      const gone = await addMember(database.db, { deletedAt: new Date() })
      const res = await postLogin({ email: gone.email, password: TEST_PASSWORD })
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ error: 'invalid_credentials' })
    })

    it.each([
      ['no email', { password: 'x' }, 'email'],
      ['an empty email', { email: '', password: 'x' }, 'email'],
      ['a blank email', { email: '   ', password: 'x' }, 'email'],
      [
        'an email of 255 characters',
        { email: `${'a'.repeat(243)}@example.com`, password: 'x' },
        'email',
      ],
      ['a numeric email', { email: 42, password: 'x' }, 'email'],
      ['an email list', { email: ['a@b.c'], password: 'x' }, 'email'],
      ['no password', { email: 'a@b.c' }, 'password'],
      ['an empty password', { email: 'a@b.c', password: '' }, 'password'],
      ['a password object', { email: 'a@b.c', password: { $ne: '' } }, 'password'],
      ['a password of 1025 characters', { email: 'a@b.c', password: 'p'.repeat(1025) }, 'password'],
    ])('answers %s with 400 naming the field', async (_, body, field) => {
      const res = await postLogin(body)
      expect(res.status).toBe(400)
      expect(ApiError.parse(await res.json())).toMatchObject({ error: 'invalid_input', field })
    })

    it('answers a body that is not JSON with 400 naming the field, a form post with 415', async () => {
      const malformed = await postLogin('email=a@b.c&password=x')
      expect(malformed.status).toBe(400)
      expect(ApiError.parse(await malformed.json())).toMatchObject({
        error: 'invalid_input',
        field: 'body',
      })

      // A form post is not a body the API reads at all (api/http/body.ts).
      const form = await postLogin('email=a@b.c&password=x', {
        contentType: 'application/x-www-form-urlencoded',
      })
      expect(form.status).toBe(415)
      expect(ApiError.parse(await form.json()).error).toBe('unsupported_media_type')

      const empty = await postLogin(undefined)
      expect(empty.status).toBe(400)
      expect(ApiError.parse(await empty.json()).field).toBe('email')
    })

    it('refuses a login posted from another origin (403, no session)', async () => {
      const before = await sessionCount()
      const body = { email: me.email, password: TEST_PASSWORD }
      for (const options of [
        { origin: 'https://evil.example' },
        { origin: 'http://localhost.evil.example' },
        { origin: null, headers: { 'sec-fetch-site': 'cross-site' } },
      ]) {
        const res = await postLogin(body, options)
        expect(res.status).toBe(403)
        expect(await res.json()).toMatchObject({ error: 'cross_origin_refused' })
        expect(setCookie(res)).toBeUndefined()
      }
      expect(await sessionCount()).toBe(before)
    })

    it('passes a request without Origin (no ambient cookies to abuse)', async () => {
      const res = await postLogin({ email: me.email, password: TEST_PASSWORD }, { origin: null })
      expect(res.status).toBe(200)
    })

    it('stores only a hash of the token, and makes a new token per login', async () => {
      const first = sessionToken(await postLogin({ email: me.email, password: TEST_PASSWORD }))!
      const second = sessionToken(await postLogin({ email: me.email, password: TEST_PASSWORD }))!
      expect(first).not.toBe(second)

      const stored = (
        await database.db
          .select({ tokenHash: sessions.tokenHash })
          .from(sessions)
          .where(eq(sessions.memberId, me.id))
      ).map((r) => r.tokenHash)
      for (const token of [first, second]) {
        expect(stored).not.toContain(token)
        expect(stored).toContain(createHash('sha256').update(token).digest('hex'))
      }
      // Both sessions are live: one device's login does not end another's.
      for (const token of [first, second]) {
        expect((await send(app, '/api/user.php', { cookie: `sid=${token}` })).status).toBe(200)
      }
    })
  })

  describe('GET /api/logout.php', () => {
    it('answers done and ends the session on the server', async () => {
      const cookie = await login(app, me.email, TEST_PASSWORD)
      expect((await send(app, '/api/user.php', { cookie })).status).toBe(200)
      const before = await sessionCount()

      const res = await send(app, '/api/logout.php', { cookie })
      expect(res.status).toBe(200)
      expect(LogoutResponse.parse(await res.json())).toEqual({ status: 'done' })
      expect(setCookie(res)).toMatch(/^sid=;.*Max-Age=0/)
      expect(setCookie(res, 'signed_in')).toMatch(/^signed_in=;.*Max-Age=0/)
      expect(await sessionCount()).toBe(before - 1)

      // The old cookie, replayed, is worthless now.
      const after = await send(app, '/api/user.php', { cookie })
      expect(after.status).toBe(403)
      expect(await after.json()).toMatchObject({ error: 'not_logged_in' })
    })

    it('answers done without a session too', async () => {
      const res = await send(app, '/api/logout.php')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'done' })
    })

    it("ends only this device's session", async () => {
      const phone = await login(app, me.email, TEST_PASSWORD)
      const laptop = await login(app, me.email, TEST_PASSWORD)
      await send(app, '/api/logout.php', { cookie: phone })
      expect((await send(app, '/api/user.php', { cookie: phone })).status).toBe(403)
      expect((await send(app, '/api/user.php', { cookie: laptop })).status).toBe(200)
    })
  })

  it('keeps no password or hash in any answer', async () => {
    const res = await postLogin({ email: me.email, password: TEST_PASSWORD })
    const text = await res.text()
    const [row] = await database.db.select().from(members).where(eq(members.id, me.id))
    expect(text).not.toContain(TEST_PASSWORD)
    expect(text).not.toContain(row!.passwordHash)
    expect(text).not.toMatch(/password/i)
  })
})
