// Request hardening: cross-site logout, body size, session housekeeping.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('hardening on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let email: string
  let memberId: number

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const member = await addMember(t.db, { email: 'hardening@example.com' })
    email = member.email
    memberId = member.id
  })
  afterAll(() => t.close())

  it('refuses a logout started by another site, and keeps the session', async () => {
    const cookie = await login(app, email, TEST_PASSWORD)
    const res = await send(app, '/api/logout.php', {
      cookie,
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(res.status).toBe(403)
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(200)
    const own = await send(app, '/api/logout.php', {
      cookie,
      headers: { 'sec-fetch-site': 'same-origin' },
    })
    expect(await own.json()).toEqual({ status: 'done' })
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(403)
  })

  it('answers 413 naming the body for a JSON body over the limit, and logs nobody in', async () => {
    const res = await send(app, '/api/login.php', {
      method: 'POST',
      body: { email, password: 'x'.repeat(100_000) },
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ error: 'body_too_large', field: 'body' })
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('removes the member’s expired sessions when a new one starts', async () => {
    await login(app, email, TEST_PASSWORD)
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.memberId, memberId))
    await login(app, email, TEST_PASSWORD)
    const rows = await t.db.select().from(sessions).where(eq(sessions.memberId, memberId))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now())
  })
})
