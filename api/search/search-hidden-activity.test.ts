// A member who hides when they were online (hide_online, docs/live.md) is
// never placed by their activity, in any order the search offers
// (docs/search.md): the default order ranks them by their sign-up time, the
// online-first order puts them last by id. Their page-hidden beacon, or
// anything else they do, moves them nowhere; once they show it again their
// activity counts as anyone's.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { SearchResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR

describeEngines('a member who hides when they were online, in search, on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let cookie: string
  /** Hides it; signed up 2 days ago (and active then), between the two below. */
  let hiderNew: MemberRow
  let hiderNewCookie: string
  /** Hides it; signed up 60 days ago, last active 20 days ago: last of all. */
  let hiderOld: MemberRow
  let hiderOldCookie: string
  let shownCookie: string

  const ago = (ms: number) => new Date(Date.now() - ms)
  const found = async (query = '') => {
    const res = await send(app, `/api/search.php?gender=female&country=NL${query}`, { cookie })
    expect(res.status).toBe(200)
    return SearchResponse.parse(await res.json())
  }
  const names = async (query = '') => (await found(query)).profiles.map((p) => p.name)
  const beacon = async (memberCookie: string) => {
    const res = await send(app, '/api/page-hidden.php', { method: 'POST', cookie: memberCookie })
    expect(res.status).toBe(204)
  }
  const hide = async (memberCookie: string, hidden: boolean) => {
    const res = await send(app, '/api/privacy.php', {
      method: 'PUT',
      cookie: memberCookie,
      body: { hide_online: hidden },
    })
    expect(res.status).toBe(200)
  }

  /** The default order as it stands with nobody's activity changed by a hider. */
  const BY_ACTIVITY = ['Shown hour ago', 'Hider new', 'Shown 3 days ago', 'Hider old']

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    const viewer = await addMember(database.db, { gender: 'male', country: 'NL' })
    cookie = await login(app, viewer.email, TEST_PASSWORD)
    const woman = (name: string, signedUp: number, active: number) =>
      addMember(database.db, {
        name,
        signupDate: ago(signedUp),
        lastActiveAt: ago(active),
      })
    const shown = await woman('Shown hour ago', 30 * DAY, HOUR)
    hiderNew = await woman('Hider new', 2 * DAY, 2 * DAY)
    await woman('Shown 3 days ago', 40 * DAY, 3 * DAY)
    hiderOld = await woman('Hider old', 60 * DAY, 20 * DAY)
    shownCookie = await login(app, shown.email, TEST_PASSWORD)
    hiderNewCookie = await login(app, hiderNew.email, TEST_PASSWORD)
    hiderOldCookie = await login(app, hiderOld.email, TEST_PASSWORD)
    await hide(hiderNewCookie, true)
    await hide(hiderOldCookie, true)
  })
  afterAll(() => database?.close())

  it('moves them in no order by their beacon: by sign-up time by default, last by id online first', async () => {
    expect(await names()).toEqual(BY_ACTIVITY)
    const online = await names('&sort=online')
    expect(online.slice(-2)).toEqual(['Hider old', 'Hider new'])
    // Both hiders leave a page now: the most recent activity of all.
    await beacon(hiderNewCookie)
    await beacon(hiderOldCookie)
    expect(await names()).toEqual(BY_ACTIVITY)
    expect(await names('&sort=active')).toEqual(BY_ACTIVITY)
    expect(await names('&sort=online')).toEqual(online)
    // Their activity shows nowhere else either.
    const tiles = (await found()).profiles
    expect(tiles.filter((p) => p.name.startsWith('Hider')).map((p) => p.last_active)).toEqual([
      null,
      null,
    ])
  })

  it('orders similar results (spec §4) the same way', async () => {
    // Everyone is 30 (addMember's default), nobody 33 to 40; the similar
    // results widen to 28 to 45: everyone.
    await beacon(hiderNewCookie)
    const { profiles, similar } = await found('&min_age=33&max_age=40')
    expect(profiles).toEqual([])
    expect(similar.map((p) => p.name)).toEqual(BY_ACTIVITY)
  })

  it('moves a member who shows it again by their activity, and back when they hide it', async () => {
    await beacon(hiderOldCookie)
    expect((await names())[0]).toBe('Shown hour ago')
    await hide(hiderOldCookie, false)
    expect(await names()).toEqual(['Hider old', ...BY_ACTIVITY.slice(0, 3)])
    await hide(hiderOldCookie, true)
    expect(await names()).toEqual(BY_ACTIVITY)
    // A member who shows it moves up with their beacon as before.
    await beacon(shownCookie)
    expect((await names())[0]).toBe('Shown hour ago')
  })

  it('keeps their sign-up time as their place however their activity is written', async () => {
    // Any writer of last_active_at (here the database directly) leaves it.
    await database.db
      .update(members)
      .set({ lastActiveAt: new Date() })
      .where(eq(members.id, hiderNew.id))
    expect(await names()).toEqual(BY_ACTIVITY)
  })
})
