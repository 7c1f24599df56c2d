// The session gate (spec §8: no live session = 403), GET /api/user.php, the
// page-hidden beacon (spec §7) and the API's 404.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members, sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, User } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('user and session on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, {
      gender: 'female',
      name: 'Sanne',
      age: 28,
      countryregion: 'NL-UT',
      city: 'Utrecht',
      language: 'nl',
      paidUser: true,
      mailprovider: 2,
    })
  })
  afterAll(() => database?.close())

  const getUser = (cookie?: string) => send(app, '/api/user.php', { cookie })

  const expectNotLoggedIn = async (res: Response) => {
    expect(res.status).toBe(403)
    expect(ApiError.parse(await res.json())).toMatchObject({ error: 'not_logged_in' })
  }

  describe('GET /api/user.php', () => {
    it('answers the spec User of the session member', async () => {
      const res = await getUser(await login(app, me.email, TEST_PASSWORD))
      expect(res.status).toBe(200)
      const user = User.parse(await res.json())
      expect(user).toMatchObject({
        email: me.email,
        paid_user: true,
        mailprovider: 2,
        fictional_icon: false,
        main_image: null,
        profile: {
          id: me.id,
          name: 'Sanne',
          age: 28,
          gender: 'female',
          country: 'NL',
          countryregion: 'NL-UT',
          city: 'Utrecht',
          date_of_birth: me.dateOfBirth,
          language: 'nl',
          images: [],
        },
      })
      expect(new Date(user.signup_date).getTime()).toBe(me.signupDate.getTime())
    })

    it.each([
      ['no cookie', undefined],
      ['an empty cookie', 'sid='],
      ['a garbage cookie', 'sid=garbage'],
      ['a token of the right shape but unknown', `sid=${'A'.repeat(43)}`],
      ['an oversized cookie', `sid=${'x'.repeat(5000)}`],
      ['another cookie name', 'session=abc'],
    ])('answers 403 to %s', async (_, cookie) => {
      await expectNotLoggedIn(await getUser(cookie))
    })

    it('answers 403 once the session has expired', async () => {
      const cookie = await login(app, me.email, TEST_PASSWORD)
      expect((await getUser(cookie)).status).toBe(200)
      await database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.memberId, me.id))
      await expectNotLoggedIn(await getUser(cookie))
    })

    it("answers 403 to a deleted member's live session", async () => {
      const gone = await addMember(database.db)
      const cookie = await login(app, gone.email, TEST_PASSWORD)
      expect((await getUser(cookie)).status).toBe(200)
      await database.db
        .update(members)
        .set({ deletedAt: new Date() })
        .where(eq(members.id, gone.id))
      await expectNotLoggedIn(await getUser(cookie))
      await expectNotLoggedIn(await send(app, '/api/chats.php', { cookie }))
      await expectNotLoggedIn(await send(app, '/api/search.php', { cookie }))
    })
  })

  describe('POST /api/page-hidden.php', () => {
    it('answers 204 and marks the member active', async () => {
      const cookie = await login(app, me.email, TEST_PASSWORD)
      const long_ago = new Date('2020-01-01T00:00:00Z')
      await database.db.update(members).set({ lastActiveAt: long_ago }).where(eq(members.id, me.id))

      const res = await send(app, '/api/page-hidden.php', { method: 'POST', body: {}, cookie })
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')
      const [row] = await database.db.select().from(members).where(eq(members.id, me.id))
      expect(Date.now() - row!.lastActiveAt.getTime()).toBeLessThan(60_000)
    })

    it('answers 403 without a session', async () => {
      await expectNotLoggedIn(await send(app, '/api/page-hidden.php', { method: 'POST', body: {} }))
    })

    it('refuses the beacon from another origin', async () => {
      const cookie = await login(app, me.email, TEST_PASSWORD)
      const res = await send(app, '/api/page-hidden.php', {
        method: 'POST',
        body: {},
        cookie,
        origin: 'https://evil.example',
      })
      expect(res.status).toBe(403)
      expect(await res.json()).toMatchObject({ error: 'cross_origin_refused' })
    })
  })

  describe('unknown paths', () => {
    it.each([
      ['GET', '/api/nothing.php'],
      ['GET', '/api/'],
      ['GET', '/api/user.php/extra'],
      ['POST', '/api/nothing.php'],
      // DELETE /api/user.php exists (account deletion).
      ['DELETE', '/api/settings.php'],
    ] as const)('%s %s answers 404 JSON', async (method, path) => {
      const res = await send(app, path, { method })
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(ApiError.parse(await res.json())).toMatchObject({ error: 'not_found' })
    })
  })
})
