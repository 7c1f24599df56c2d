// Visits to a profile (docs/live.md): opening a member's profile records one
// visit per visitor and day, never twice in a burst, never by the member
// themselves, a fictional member, one browsing invisibly, nor across a block;
// GET /api/visitors.php lists them newest first with is_new, PUT marks them
// seen; the visited member's stream hears of a new visit.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { profileVisits } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { VisitorsResponse } from '../contract/index.ts'
import { createEventBus, type EventBus } from '../events/bus.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { eventStream } from '../test/event-stream.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('profile visitors on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let events: EventBus
  let host: MemberRow
  let cookieHost: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    events = createEventBus(database.listen)
    app = createApi({ db: database.db, events })
    host = await addMember(database.db, { name: 'Hanna' })
    cookieHost = await login(app, host.email, TEST_PASSWORD)
  })
  afterAll(async () => {
    await events?.close()
    await database?.close()
  })

  const visit = async (cookie: string | undefined, profile = host.id) => {
    const res = await send(app, `/api/profile.php?id=${profile}`, { cookie })
    expect(res.status).toBe(200)
  }
  const visitsBy = async (visitor: number, visited = host.id) =>
    database.db
      .select()
      .from(profileVisits)
      .where(and(eq(profileVisits.visitorId, visitor), eq(profileVisits.visitedId, visited)))
  const list = async (cookie = cookieHost) => {
    const res = await send(app, '/api/visitors.php', { cookie })
    expect(res.status).toBe(200)
    return VisitorsResponse.parse(await res.json())
  }
  const visitor = async (spec: Parameters<typeof addMember>[1] = {}) => {
    const m = await addMember(database.db, spec)
    return { member: m, cookie: await login(app, m.email, TEST_PASSWORD) }
  }

  it('records one visit per visitor and day, however often the profile is opened', async () => {
    const v = await visitor({ name: 'Vera' })
    await visit(v.cookie)
    await visit(v.cookie)
    await visit(v.cookie)
    expect(await visitsBy(v.member.id)).toHaveLength(1)
  })

  it('never twice in a burst, even across midnight', async () => {
    const v = await visitor()
    await visit(v.cookie)
    // The first visit moved to yesterday, a minute before now: the day differs, the burst holds.
    await database.db.execute(
      `UPDATE profile_visits SET day = day - 1, visited_at = now() - interval '1 minute' WHERE visitor_id = ${v.member.id}`,
    )
    await visit(v.cookie)
    expect(await visitsBy(v.member.id)).toHaveLength(1)
    // Past the burst (30 minutes), another day's visit counts.
    await database.db.execute(
      `UPDATE profile_visits SET visited_at = now() - interval '31 minutes' WHERE visitor_id = ${v.member.id}`,
    )
    await visit(v.cookie)
    expect(await visitsBy(v.member.id)).toHaveLength(2)
  })

  it('records nothing for a guest, the member themselves, a fictional member or one browsing invisibly', async () => {
    await visit(undefined)
    await visit(cookieHost)
    expect(await visitsBy(host.id)).toHaveLength(0)
    const fictional = await visitor({ fictional: true })
    await visit(fictional.cookie)
    expect(await visitsBy(fictional.member.id)).toHaveLength(0)
    const shy = await visitor()
    const set = await send(app, '/api/privacy.php', {
      method: 'PUT',
      cookie: shy.cookie,
      body: { browse_invisibly: true },
    })
    expect(set.status).toBe(200)
    await visit(shy.cookie)
    expect(await visitsBy(shy.member.id)).toHaveLength(0)
  })

  it('records nothing across a block, either way, and lists no blocked visitor', async () => {
    const blocker = await visitor()
    await send(app, '/api/blocks.php', {
      method: 'POST',
      cookie: blocker.cookie,
      body: { profile: host.id },
    })
    // The blocked host's profile is still reachable by id; no visit either way.
    await visit(blocker.cookie)
    expect(await visitsBy(blocker.member.id)).toHaveLength(0)
    const earlier = await visitor()
    await visit(earlier.cookie)
    expect(await visitsBy(earlier.member.id)).toHaveLength(1)
    await send(app, '/api/blocks.php', {
      method: 'POST',
      cookie: cookieHost,
      body: { profile: earlier.member.id },
    })
    expect((await list()).visitors.map((v) => v.profile.id)).not.toContain(earlier.member.id)
  })

  it('lists visitors newest first, new until the list is marked seen', async () => {
    const older = await visitor({ name: 'Olga' })
    const newer = await visitor({ name: 'Nina' })
    await visit(older.cookie)
    await visit(newer.cookie)
    const first = await list()
    expect(first.visitors.slice(0, 2).map((v) => v.profile.id)).toEqual([
      newer.member.id,
      older.member.id,
    ])
    expect(first.visitors.every((v) => v.is_new)).toBe(true)
    expect(first.new_count).toBe(first.visitors.length)
    const times = first.visitors.map((v) => v.visited_at)
    expect([...times].sort().reverse()).toEqual(times)
    const seen = await send(app, '/api/visitors.php', { method: 'PUT', cookie: cookieHost })
    expect(seen.status).toBe(200)
    expect(await seen.json()).toEqual({ new_count: 0 })
    const after = await list()
    expect(after.visitors.some((v) => v.is_new)).toBe(false)
    expect(after.new_count).toBe(0)
    // Another member's visitors are theirs: the host visited nobody.
    expect((await list(older.cookie)).visitors).toEqual([])
  })

  it("pokes the visited member's stream on a new visit", async () => {
    const res = await send(app, '/api/events.php', { cookie: cookieHost })
    const stream = eventStream(res.body)
    await stream.untilText('event: ready')
    const v = await visitor()
    await visit(v.cookie)
    await stream.untilText('"type":"visitors"')
    await stream.cancel()
  })

  it('answers 403 without a session', async () => {
    expect((await send(app, '/api/visitors.php')).status).toBe(403)
    expect((await send(app, '/api/visitors.php', { method: 'PUT' })).status).toBe(403)
  })
})
