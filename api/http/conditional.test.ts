// The polled reads of spec §9 (user, chats, likes, and the visitors polled
// with the likes) carry an ETag and answer 304 without a body to a matching
// If-None-Match, so an idle member's poll costs headers only; a change (a
// like, a visit) answers 200 with a new ETag, and what changes by itself as
// time passes (a profile's last_active) does not change it.
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD, testPasswordHash } from '../test/seed.ts'

describeEngines('conditional polls (%s)', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let other: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    const passwordHash = await testPasswordHash()
    me = (await addMember(database.db, { passwordHash }))!
    other = (await addMember(database.db, { passwordHash }))!
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database.close())

  afterEach(() => {
    vi.useRealTimers()
  })

  it.each(['/api/user.php', '/api/chats.php', '/api/likes.php', '/api/visitors.php'])(
    '%s: 304 with no body while nothing changed',
    async (path) => {
      const first = await send(app, path, { cookie })
      expect(first.status).toBe(200)
      const etag = first.headers.get('etag')
      // Weak: it names the JSON whichever encoding carries it (api/http/answer-bytes.ts).
      expect(etag).toMatch(/^W\/"[^"]+"$/)
      const again = await send(app, path, { cookie, headers: { 'if-none-match': etag! } })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      // Member data stays out of HTTP caches, 304 or not.
      expect(again.headers.get('cache-control')).toBe('no-store')
    },
  )

  it('answers 200 with a new ETag once the data changed (a like given)', async () => {
    const first = await send(app, '/api/likes.php', { cookie })
    const etag = first.headers.get('etag')!
    const liked = await send(app, '/api/likes.php', {
      method: 'POST',
      cookie,
      body: { profile: other.id, client_id: crypto.randomUUID() },
    })
    expect(liked.status).toBeLessThan(300)
    const after = await send(app, '/api/likes.php', { cookie, headers: { 'if-none-match': etag } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
  })

  it('a like list whose member went from online "now" to "today" as time passed still answers 304', async () => {
    // `other`, liked above, was active at their creation: online now.
    const first = await send(app, '/api/likes.php', { cookie })
    const before = (await first.json()) as { profiles: { id: number; last_active: string }[] }
    expect(before.profiles.find((p) => p.id === other.id)?.last_active).toBe('now')
    const etag = first.headers.get('etag')!
    // Ten minutes later (ONLINE_NOW_MS is 5 minutes), nothing else happened.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 10 * 60_000)
    const later = await send(app, '/api/likes.php', { cookie })
    const after = (await later.json()) as { profiles: { id: number; last_active: string }[] }
    expect(after.profiles.find((p) => p.id === other.id)?.last_active).toBe('today')
    expect(later.headers.get('etag')).toBe(etag)
    const again = await send(app, '/api/likes.php', { cookie, headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })

  it('the visitors answer 200 with a new ETag after a visit, then 304 again', async () => {
    const first = await send(app, '/api/visitors.php', { cookie })
    const etag = first.headers.get('etag')!
    const visited = await send(app, `/api/profile.php?id=${me.id}`, {
      cookie: await login(app, other.email, TEST_PASSWORD),
    })
    expect(visited.status).toBe(200)
    const after = await send(app, '/api/visitors.php', {
      cookie,
      headers: { 'if-none-match': etag },
    })
    expect(after.status).toBe(200)
    const { visitors } = (await after.json()) as { visitors: { profile: { id: number } }[] }
    expect(visitors.map((v) => v.profile.id)).toEqual([other.id])
    const newTag = after.headers.get('etag')!
    expect(newTag).not.toBe(etag)
    const again = await send(app, '/api/visitors.php', {
      cookie,
      headers: { 'if-none-match': newTag },
    })
    expect(again.status).toBe(304)
  })

  it("another member's answer never matches mine", async () => {
    const mine = (await send(app, '/api/user.php', { cookie })).headers.get('etag')!
    const theirs = await send(app, '/api/user.php', {
      cookie: await login(app, other.email, TEST_PASSWORD),
      headers: { 'if-none-match': mine },
    })
    expect(theirs.status).toBe(200)
  })
})
