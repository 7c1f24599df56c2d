// GET /api/search.php?sort=online (docs/live.md "Online now"): members
// online now first, then by when they were last seen (the later of their
// newest session use and last_active_at), members who hide it last and in
// an order their activity plays no part in (id, newest first). The default
// order (`active`) stays by last_active_at, members who hide it by their
// sign-up time (search-hidden-activity.test.ts).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members, sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, SearchResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

const MIN = 60_000
const DAY = 24 * 60 * MIN

describeEngines('search sorted online first on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let cookie: string
  /** Last active 10 days ago by the beacon, but signed in (a session used) just now. */
  let signedIn: MemberRow
  let recent: MemberRow
  let hourAgo: MemberRow
  /** Hides when she was online; active a minute ago, created first (lowest id). */
  let hiddenActive: MemberRow
  let hiddenActiveCookie: string
  /** Hides it too; active 20 days ago, created after her. */
  let hiddenIdle: MemberRow
  let hiddenIdleCookie: string

  const activeAt = (m: MemberRow, ago: number) =>
    database.db
      .update(members)
      .set({ lastActiveAt: new Date(Date.now() - ago) })
      .where(eq(members.id, m.id))
  const sessionUsedAt = (m: MemberRow, ago: number) =>
    database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - ago) })
      .where(eq(sessions.memberId, m.id))
  const hide = async (memberCookie: string, hidden: boolean) => {
    const res = await send(app, '/api/privacy.php', {
      method: 'PUT',
      cookie: memberCookie,
      body: { hide_online: hidden },
    })
    expect(res.status).toBe(200)
  }
  const found = async (query: string) => {
    const res = await send(app, `/api/search.php?gender=female&country=NL${query}`, { cookie })
    expect(res.status).toBe(200)
    return SearchResponse.parse(await res.json()).profiles
  }
  const names = async (query: string) => (await found(query)).map((p) => p.name)

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    const viewer = await addMember(database.db, { gender: 'male', country: 'NL' })
    cookie = await login(app, viewer.email, TEST_PASSWORD)
    hiddenActive = (await addMember(database.db, { name: 'Hidden active' }))!
    hiddenIdle = (await addMember(database.db, { name: 'Hidden idle' }))!
    signedIn = (await addMember(database.db, { name: 'Signed in' }))!
    recent = (await addMember(database.db, { name: 'Recent' }))!
    hourAgo = (await addMember(database.db, { name: 'Hour ago' }))!
    hiddenActiveCookie = await login(app, hiddenActive.email, TEST_PASSWORD)
    hiddenIdleCookie = await login(app, hiddenIdle.email, TEST_PASSWORD)
    await login(app, signedIn.email, TEST_PASSWORD)
    await hide(hiddenActiveCookie, true)
    await hide(hiddenIdleCookie, true)
    // Every session but signedIn's is 30 days old: only last_active_at counts for them.
    for (const m of [hiddenActive, hiddenIdle]) await sessionUsedAt(m, 30 * DAY)
    await activeAt(hiddenActive, MIN)
    await activeAt(hiddenIdle, 20 * DAY)
    await activeAt(signedIn, 10 * DAY)
    await activeAt(recent, 2 * MIN)
    await activeAt(hourAgo, 60 * MIN)
  })
  afterAll(() => database?.close())

  it('puts members online now first, then by last seen, members who hide it last by id', async () => {
    expect(await names('&sort=online')).toEqual([
      'Signed in',
      'Recent',
      'Hour ago',
      'Hidden idle',
      'Hidden active',
    ])
    const tiles = await found('&sort=online')
    expect(tiles.map((p) => p.last_active)).toEqual(['now', 'now', 'today', null, null])
  })

  it('keeps the default order by last activity, with or without sort=active', async () => {
    // The two who hide it by when they signed up (just now, Hidden idle after
    // Hidden active), not by their activity.
    const byActivity = ['Hidden idle', 'Hidden active', 'Recent', 'Hour ago', 'Signed in']
    expect(await names('')).toEqual(byActivity)
    expect(await names('&sort=active')).toEqual(byActivity)
  })

  it('never orders a member who hides it by their activity, however recent', async () => {
    // Hidden active is now the most recently seen of all, by session and beacon.
    await sessionUsedAt(hiddenActive, 0)
    await activeAt(hiddenActive, 0)
    const order = await names('&sort=online')
    expect(order.slice(-2)).toEqual(['Hidden idle', 'Hidden active'])
    // Once she shows it again, her activity counts.
    await hide(hiddenActiveCookie, false)
    expect((await names('&sort=online'))[0]).toBe('Hidden active')
    await hide(hiddenActiveCookie, true)
    expect((await names('&sort=online')).slice(-2)).toEqual(['Hidden idle', 'Hidden active'])
  })

  it('moves a member up when a request renews their session', async () => {
    // Her session was last used 6 minutes ago (past the 5-minute renewal), her beacon an hour ago.
    await sessionUsedAt(hourAgo, 6 * MIN)
    await activeAt(hourAgo, 60 * MIN)
    await sessionUsedAt(signedIn, 3 * MIN)
    await sessionUsedAt(recent, 4 * MIN)
    await activeAt(recent, 4 * MIN)
    expect((await names('&sort=online')).slice(0, 3)).toEqual(['Signed in', 'Recent', 'Hour ago'])
    const hourAgoCookie = await login(app, hourAgo.email, TEST_PASSWORD)
    await sessionUsedAt(hourAgo, 6 * MIN)
    const res = await send(app, '/api/likes.php', { cookie: hourAgoCookie })
    expect(res.status).toBe(200)
    expect((await names('&sort=online'))[0]).toBe('Hour ago')
  })

  it.each(['newest', 'ONLINE', '1', ''])('answers sort=%s with 400 naming sort', async (sort) => {
    const res = await send(app, `/api/search.php?gender=female&country=NL&sort=${sort}`, {
      cookie,
    })
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json())).toMatchObject({
      error: 'invalid_input',
      field: 'sort',
    })
  })
})
