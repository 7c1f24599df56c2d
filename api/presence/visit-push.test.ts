// The push about a visit (docs/live.md "Visitors"): sent only to a member
// who asked for it (visit_push, off by default) and has a device, at most
// one per visitor and day (one per recorded visit), never from a fictional
// or invisible visitor nor across a block; it says who visited, in the
// member's language, and opens the visitors list.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { jobs, profileVisits, pushMembers, pushSubscriptions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { badgeOf } from '../badge.ts'
import { createJobRunner } from '../jobs/queue.ts'
import { pushEventJobHandlers } from '../push/events.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('visit push on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let host: MemberRow
  let cookieHost: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    host = await addMember(database.db, { name: 'Hanna', language: 'nl' })
    cookieHost = await login(app, host.email, TEST_PASSWORD)
    await database.db.insert(pushSubscriptions).values({
      memberId: host.id,
      endpoint: `https://push.example/${randomUUID()}`,
      p256dh: 'BKey',
      auth: 'auth',
    })
  })
  afterAll(() => database?.close())

  const setPrivacy = async (cookie: string, body: Record<string, boolean>) => {
    const res = await send(app, '/api/privacy.php', { method: 'PUT', cookie, body })
    expect(res.status).toBe(200)
  }
  const visitor = async (spec: Parameters<typeof addMember>[1] = {}) => {
    const m = await addMember(database.db, spec)
    return { member: m, cookie: await login(app, m.email, TEST_PASSWORD) }
  }
  const visit = async (cookie: string, profile = host.id) => {
    const res = await send(app, `/api/profile.php?id=${profile}`, { cookie })
    expect(res.status).toBe(200)
  }
  /** The visit-push events enqueued from `visitor` (before they become pushes). */
  const visitEvents = async (visitorId: number) =>
    (await database.db.select().from(jobs).where(eq(jobs.kind, 'push-event'))).filter((j) => {
      const p = j.payload as { memberId: number; event: { kind: string; from: { id: number } } }
      return p.event.kind === 'visit' && p.event.from.id === visitorId
    })
  /** Runs the push-event jobs; the pushes they made, as their payloads. */
  const pushesTo = async (memberId: number) => {
    await createJobRunner({
      db: database.db,
      handlers: pushEventJobHandlers(database.db, badgeOf),
    }).runDue()
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'push'))
    return rows
      .map((r) => r.payload as { memberId: number; payload: string; ttl: number })
      .filter((p) => p.memberId === memberId)
      .map((p) => ({ ...JSON.parse(p.payload), ttl: p.ttl }))
  }

  it('sends nothing to a member who did not ask for it (the default)', async () => {
    const v = await visitor({ name: 'Vera' })
    await visit(v.cookie)
    expect(
      await database.db
        .select()
        .from(profileVisits)
        .where(eq(profileVisits.visitorId, v.member.id)),
    ).toHaveLength(1)
    expect(await visitEvents(v.member.id)).toHaveLength(0)
  })

  it('pushes a visit once a day to a member who asked, in their language, to the visitors list', async () => {
    await setPrivacy(cookieHost, { visit_push: true })
    const v = await visitor({ name: 'Wim', gender: 'male' })
    await visit(v.cookie)
    await visit(v.cookie)
    // A reload a while later the same day is the same visit: no second push.
    await database.db.execute(
      sql`UPDATE profile_visits SET visited_at = now() - interval '2 hours' WHERE visitor_id = ${v.member.id}`,
    )
    await visit(v.cookie)
    expect(await visitEvents(v.member.id)).toHaveLength(1)
    const pushes = (await pushesTo(host.id)).filter((p) => p.kind === 'visit')
    expect(pushes).toHaveLength(1)
    expect(pushes[0]).toMatchObject({
      kind: 'visit',
      title: 'Nieuw profielbezoek',
      body: 'Wim heeft je profiel bekeken.',
      url: '/likes/visitors',
      tag: 'visitors',
      ttl: 3600,
    })
  })

  it('sends nothing for a fictional or invisible visitor, nor across a block', async () => {
    const fictional = await visitor({ fictional: true })
    await visit(fictional.cookie)
    const invisible = await visitor()
    await setPrivacy(invisible.cookie, { browse_invisibly: true })
    await visit(invisible.cookie)
    const blocked = await visitor()
    const res = await send(app, '/api/blocks.php', {
      method: 'POST',
      cookie: cookieHost,
      body: { profile: blocked.member.id },
    })
    expect(res.ok).toBe(true)
    await send(app, `/api/profile.php?id=${host.id}`, { cookie: blocked.cookie })
    for (const v of [fictional, invisible, blocked])
      expect(await visitEvents(v.member.id)).toHaveLength(0)
  })

  it('sends nothing to a member without a device, nor while their page is visible', async () => {
    const bare = await addMember(database.db, { name: 'Bare' })
    const bareCookie = await login(app, bare.email, TEST_PASSWORD)
    await setPrivacy(bareCookie, { visit_push: true })
    const v = await visitor()
    await visit(v.cookie, bare.id)
    expect(await visitEvents(v.member.id)).toHaveLength(0)
    // The host looks at the site: the visitors list updates live, no push.
    await database.db
      .insert(pushMembers)
      .values({ memberId: host.id, visibleUntil: new Date(Date.now() + 60_000) })
      .onConflictDoUpdate({
        target: pushMembers.memberId,
        set: { visibleUntil: new Date(Date.now() + 60_000) },
      })
    await visit(v.cookie)
    expect(await visitEvents(v.member.id)).toHaveLength(1)
    const before = (await pushesTo(host.id)).length
    expect(before).toBe(1) // only Wim's, from the test above
    const rows = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'push-event'), eq(jobs.status, 'queued')))
    expect(rows).toHaveLength(0)
  })
})
