// /api/likes.php (spec §3 likes response, §4 order and new flags, §7 calls,
// §8 403) and the idempotency every member action shares: a replayed client
// id is applied once, two identical requests at once apply once, and a
// member's list only ever holds their own likes.
import { randomUUID } from 'node:crypto'
import { and, eq, Placeholder, type SQLWrapper, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { likes, memberActions } from '../../db/schema/index.ts'
import { deleteAccount } from '../accounts/accounts.ts'
import { type Api, createApi } from '../app.ts'
import {
  ApiError,
  LIKES_PAGE_SIZE,
  LikeResponse,
  LikeSeenResponse,
  LikesResponse,
} from '../contract/index.ts'
import { runOnce } from '../http/idempotency.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, type SendOptions, send } from '../test/http.ts'
import { addMember, addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { likesQuery } from './likes.ts'

describeEngines('likes on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let meCookie: string
  let others: MemberRow[]
  let gone: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male' })
    others = await addMembers(
      database.db,
      Array.from({ length: 8 }, () => ({})),
    )
    gone = await addMember(database.db, { deletedAt: new Date() })
    meCookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const other = (i: number) => others[i]!
  const cookieOf = (m: MemberRow) => login(app, m.email, TEST_PASSWORD)

  const call = (method: SendOptions['method'], body: unknown, cookie = meCookie) =>
    send(app, '/api/likes.php', { method, body, cookie })

  const like = async (profile: number, clientId = randomUUID(), cookie = meCookie) => {
    const res = await call('POST', { profile, client_id: clientId }, cookie)
    expect(res.status).toBe(200)
    return LikeResponse.parse(await res.json())
  }
  const unlike = async (profile: number, clientId = randomUUID(), cookie = meCookie) => {
    const res = await call('DELETE', { profile, client_id: clientId }, cookie)
    expect(res.status).toBe(200)
    return LikeResponse.parse(await res.json())
  }
  const listOf = async (cookie = meCookie) => {
    const res = await send(app, '/api/likes.php', { cookie })
    expect(res.status).toBe(200)
    return LikesResponse.parse(await res.json())
  }
  const likeRows = (liker: number, liked: number) =>
    database.db
      .select()
      .from(likes)
      .where(and(eq(likes.likerId, liker), eq(likes.likedId, liked)))
  const actionRows = (memberId: number, clientId: string) =>
    database.db
      .select()
      .from(memberActions)
      .where(and(eq(memberActions.actorId, memberId), eq(memberActions.clientId, clientId)))
  const expectError = async (res: Response, status: number, error: string, field?: string) => {
    expect(res.status).toBe(status)
    const body = ApiError.parse(await res.json())
    expect(body.error).toBe(error)
    if (field !== undefined) expect(body.field).toBe(field)
  }

  it('answers 403 to every method without a session (spec §8)', async () => {
    const body = { profile: other(0).id, client_id: randomUUID() }
    for (const method of ['GET', 'POST', 'DELETE', 'PUT'] as const) {
      const res = await send(app, '/api/likes.php', {
        method,
        body: method === 'GET' ? undefined : body,
      })
      await expectError(res, 403, 'not_logged_in')
    }
    expect(await likeRows(me.id, other(0).id)).toEqual([])
  })

  it('likes a member: in my profiles, in their liked_by as new', async () => {
    const target = other(0)
    expect(await like(target.id)).toEqual({ profile: target.id, liked: true })
    expect((await listOf()).profiles.map((p) => p.id)).toContain(target.id)
    const theirs = await listOf(await cookieOf(target))
    expect(theirs.liked_by).toEqual([
      expect.objectContaining({
        id: me.id,
        like_new: true,
        profile: expect.objectContaining({ id: me.id, name: me.name }),
      }),
    ])
    expect(theirs.profiles).toEqual([])
  })

  it('applies a replayed client id once and answers it with the first answer', async () => {
    const target = other(1)
    const clientId = randomUUID()
    const first = await like(target.id, clientId)
    expect(await like(target.id, clientId)).toEqual(first)
    expect(await likeRows(me.id, target.id)).toHaveLength(1)
    // The like is undone with another id; a late replay of the first id must
    // not bring it back.
    await unlike(target.id)
    expect(await like(target.id, clientId)).toEqual(first)
    expect(await likeRows(me.id, target.id)).toEqual([])
    expect(await actionRows(me.id, clientId)).toHaveLength(1)
  })

  it('applies two identical requests sent at once exactly once, both answered alike', async () => {
    const target = other(2)
    const clientId = randomUUID()
    const body = { profile: target.id, client_id: clientId }
    const [a, b] = await Promise.all([call('POST', body), call('POST', body)])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(await a.json()).toEqual(await b.json())
    expect(await likeRows(me.id, target.id)).toHaveLength(1)
    expect(await actionRows(me.id, clientId)).toHaveLength(1)
    // Two different ids liking the same member at once: both succeed, one like.
    const [c, d] = await Promise.all([
      call('POST', { profile: target.id, client_id: randomUUID() }),
      call('POST', { profile: target.id, client_id: randomUUID() }),
    ])
    expect([c.status, d.status]).toEqual([200, 200])
    expect(await likeRows(me.id, target.id)).toHaveLength(1)
  })

  it('treats liking twice with different ids as a no-op success', async () => {
    const target = other(3)
    await like(target.id)
    const [row] = await likeRows(me.id, target.id)
    expect(await like(target.id)).toEqual({ profile: target.id, liked: true })
    expect(await likeRows(me.id, target.id)).toEqual([row])
  })

  it('unlikes idempotently, and a replayed unlike id changes nothing later', async () => {
    const target = other(4)
    await like(target.id)
    const clientId = randomUUID()
    expect(await unlike(target.id, clientId)).toEqual({ profile: target.id, liked: false })
    expect(await likeRows(me.id, target.id)).toEqual([])
    expect((await listOf()).profiles.map((p) => p.id)).not.toContain(target.id)
    // Liked again with a new id; the old unlike id replayed must not undo it.
    await like(target.id)
    expect(await unlike(target.id, clientId)).toEqual({ profile: target.id, liked: false })
    expect(await likeRows(me.id, target.id)).toHaveLength(1)
    // Unliking a member not liked is a success that changes nothing.
    expect(await unlike(other(5).id)).toEqual({ profile: other(5).id, liked: false })
  })

  // 422 as Stripe and the IETF Idempotency-Key draft answer a key reused with
  // another payload (409 there means "the first request is still running").
  it('refuses a client id reused for another action or target (422)', async () => {
    const clientId = randomUUID()
    await like(other(5).id, clientId)
    await expectError(
      await call('DELETE', { profile: other(5).id, client_id: clientId }),
      422,
      'client_id_reused',
      'client_id',
    )
    await expectError(
      await call('POST', { profile: other(6).id, client_id: clientId }),
      422,
      'client_id_reused',
      'client_id',
    )
    expect(await likeRows(me.id, other(5).id)).toHaveLength(1)
    expect(await likeRows(me.id, other(6).id)).toEqual([])
    // The same id is another member's own: ids are per member.
    const res = await call(
      'POST',
      { profile: other(6).id, client_id: clientId },
      await cookieOf(other(7)),
    )
    expect(res.status).toBe(200)
  })

  it('refuses liking yourself (400 profile) and unknown or deleted members (404)', async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      await expectError(
        await call(method, { profile: me.id, client_id: randomUUID() }),
        400,
        'invalid_input',
        'profile',
      )
      await expectError(
        await call(method, { profile: 987_654_321, client_id: randomUUID() }),
        404,
        'not_found',
      )
      await expectError(
        await call(method, { profile: gone.id, client_id: randomUUID() }),
        404,
        'not_found',
      )
    }
    expect(await likeRows(me.id, gone.id)).toEqual([])
    // A failed action leaves no record: the same id works once the input is right.
    const clientId = randomUUID()
    await expectError(
      await call('POST', { profile: gone.id, client_id: clientId }),
      404,
      'not_found',
    )
    expect(await actionRows(me.id, clientId)).toEqual([])
  })

  it('answers bad bodies with 400 naming the field', async () => {
    const id = randomUUID()
    const cases: [unknown, string][] = [
      [{ profile: other(0).id, client_id: 'not-a-uuid' }, 'client_id'],
      [{ profile: other(0).id, client_id: 42 }, 'client_id'],
      [{ client_id: id }, 'profile'],
      [{ profile: 'abc', client_id: id }, 'profile'],
      [{ profile: -3, client_id: id }, 'profile'],
      [{ profile: 1.5, client_id: id }, 'profile'],
      [{ profile: '1e400', client_id: id }, 'profile'],
      ['{"profile": 1', 'body'],
      ['[]', 'json'],
    ]
    for (const method of ['POST', 'DELETE'] as const) {
      for (const [body, field] of cases) {
        await expectError(await call(method, body), 400, 'invalid_input', field)
      }
    }
    await expectError(await call('PUT', { profile: 'x' }), 400, 'invalid_input', 'profile')
    await expectError(await call('PUT', {}), 400, 'invalid_input', 'profile')
  })

  it('refuses a like sent from another origin (CSRF)', async () => {
    const res = await send(app, '/api/likes.php', {
      method: 'POST',
      body: { profile: other(7).id, client_id: randomUUID() },
      cookie: meCookie,
      origin: 'https://evil.example',
    })
    await expectError(res, 403, 'cross_origin_refused')
    expect(await likeRows(me.id, other(7).id)).toEqual([])
  })

  describe('lists', () => {
    let viewer: MemberRow
    let viewerCookie: string
    let fans: MemberRow[]
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000)

    beforeAll(async () => {
      viewer = await addMember(database.db, { gender: 'male' })
      fans = await addMembers(
        database.db,
        Array.from({ length: 6 }, () => ({})),
      )
      viewerCookie = await login(app, viewer.email, TEST_PASSWORD)
      const [f0, f1, f2, f3, f4, f5] = fans as [MemberRow, MemberRow, MemberRow, ...MemberRow[]]
      await database.db.insert(likes).values([
        // received: two new (f1 newer), two opened (f2 newer), one from a deleted member
        { likerId: f0.id, likedId: viewer.id, createdAt: at(30), isNew: true },
        { likerId: f1.id, likedId: viewer.id, createdAt: at(20), isNew: true },
        { likerId: f2.id, likedId: viewer.id, createdAt: at(5), isNew: false },
        { likerId: f3!.id, likedId: viewer.id, createdAt: at(40), isNew: false },
        { likerId: gone.id, likedId: viewer.id, createdAt: at(1), isNew: true },
        // given: newest first, the deleted one left out
        { likerId: viewer.id, likedId: f4!.id, createdAt: at(50) },
        { likerId: viewer.id, likedId: f5!.id, createdAt: at(10) },
        { likerId: viewer.id, likedId: f0.id, createdAt: at(25) },
        { likerId: viewer.id, likedId: gone.id, createdAt: at(2) },
      ])
    })
    const fan = (i: number) => fans[i]!.id

    it('orders received likes new first, then newest (spec §4), given newest first', async () => {
      const list = await listOf(viewerCookie)
      expect(list.liked_by.map((l) => [l.id, l.like_new])).toEqual([
        [fan(1), true],
        [fan(0), true],
        [fan(2), false],
        [fan(3), false],
      ])
      expect(list.profiles.map((p) => p.id)).toEqual([fan(5), fan(0), fan(4)])
      for (const l of list.liked_by) expect(l.profile.id).toBe(l.id)
    })

    it('never lists deleted members', async () => {
      const list = await listOf(viewerCookie)
      expect(list.liked_by.map((l) => l.id)).not.toContain(gone.id)
      expect(list.profiles.map((p) => p.id)).not.toContain(gone.id)
    })

    it('forgets every like of an account when it is deleted, both ways and in the counts', async () => {
      const leaving = await addMember(database.db, {})
      const leavingCookie = await cookieOf(leaving)
      const like = (cookie: string, profile: number) =>
        call('POST', { profile, client_id: randomUUID() }, cookie)
      expect((await like(viewerCookie, leaving.id)).status).toBe(200)
      expect((await like(leavingCookie, viewer.id)).status).toBe(200)
      const before = await listOf(viewerCookie)
      expect(before.liked_ids).toContain(leaving.id)
      await deleteAccount(database.db, leaving.id)
      const after = await listOf(viewerCookie)
      expect(after.liked_ids).not.toContain(leaving.id)
      expect(after.liked_by.map((l) => l.id)).not.toContain(leaving.id)
      expect(after.counts.given).toBe(before.counts.given - 1)
      expect(after.counts.received).toBe(before.counts.received - 1)
    })

    it('marks an opened like as seen (PUT), which moves it behind the new ones', async () => {
      const res = await call('PUT', { profile: fan(1) }, viewerCookie)
      expect(res.status).toBe(200)
      expect(LikeSeenResponse.parse(await res.json())).toEqual({ profile: fan(1), like_new: false })
      const list = await listOf(viewerCookie)
      expect(list.liked_by.map((l) => [l.id, l.like_new])).toEqual([
        [fan(0), true],
        [fan(2), false],
        [fan(1), false],
        [fan(3), false],
      ])
      // Opening it again is fine.
      expect((await call('PUT', { profile: fan(1) }, viewerCookie)).status).toBe(200)
    })

    it('answers 404 to PUT for a like that was not given, or by a deleted member', async () => {
      await expectError(await call('PUT', { profile: fan(4) }, viewerCookie), 404, 'not_found')
      await expectError(await call('PUT', { profile: viewer.id }, viewerCookie), 404, 'not_found')
      await expectError(await call('PUT', { profile: gone.id }, viewerCookie), 404, 'not_found')
      await expectError(await call('PUT', { profile: 987_654_321 }, viewerCookie), 404, 'not_found')
    })

    it("never shows or touches another member's likes (IDOR)", async () => {
      // `me` has no id to ask for: whatever they do, the list is their own.
      const mine = await listOf()
      const myGiven = await database.db.select().from(likes).where(eq(likes.likerId, me.id))
      const myReceived = await database.db.select().from(likes).where(eq(likes.likedId, me.id))
      expect(mine.profiles.map((p) => p.id).sort()).toEqual(myGiven.map((l) => l.likedId).sort())
      expect(mine.liked_by.map((l) => l.id).sort()).toEqual(myReceived.map((l) => l.likerId).sort())
      for (const id of fans.map((f) => f.id)) {
        expect(mine.liked_by.map((l) => l.id)).not.toContain(id)
      }
      expect(mine.profiles.map((p) => p.id)).not.toContain(viewer.id)
      // `me` cannot clear the new flag of a like fan 0 gave the viewer.
      await expectError(await call('PUT', { profile: fan(0) }), 404, 'not_found')
      const [row] = await likeRows(fan(0), viewer.id)
      expect(row?.isNew).toBe(true)
    })
  })

  describe('runOnce', () => {
    const Answer = z.object({ n: z.number() })

    it('runs the effect once for two identical calls at once', async () => {
      let runs = 0
      const key = { memberId: me.id, clientId: randomUUID(), kind: 'test:count' }
      const effect = async () => {
        runs++
        // Long enough that the second call arrives while the first is open.
        await new Promise((r) => setTimeout(r, 100))
        return { n: runs }
      }
      const results = await Promise.all([
        runOnce(database.db, key, Answer, effect),
        runOnce(database.db, key, Answer, effect),
        runOnce(database.db, key, Answer, effect),
      ])
      expect(runs).toBe(1)
      expect(results).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }])
      expect(await runOnce(database.db, key, Answer, effect)).toEqual({ n: 1 })
      expect(runs).toBe(1)
    })

    it('keeps no record of an effect that threw, so the id can be retried', async () => {
      const key = { memberId: me.id, clientId: randomUUID(), kind: 'test:fail' }
      await expect(
        runOnce(database.db, key, Answer, async () => {
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      expect(await actionRows(me.id, key.clientId)).toEqual([])
      expect(await runOnce(database.db, key, Answer, async () => ({ n: 7 }))).toEqual({ n: 7 })
    })

    it('rolls the effect back with the record when it throws', async () => {
      const key = { memberId: me.id, clientId: randomUUID(), kind: 'test:rollback' }
      await expect(
        runOnce(database.db, key, Answer, async (tx) => {
          await tx.insert(likes).values({ likerId: me.id, likedId: other(7).id })
          throw new Error('after the write')
        }),
      ).rejects.toThrow('after the write')
      expect(await likeRows(me.id, other(7).id)).toEqual([])
    })
  })
})

// Fast at scale: a member with 5,000 likes each way. Not a timed
// test (benchmarks never gate on time): it checks the list queries use the
// likes indexes, and prints how long the whole answer took.
describeEngines('likes of a member with 5,000 likes on %s', (engine) => {
  const LIKES = 5000
  let database: TestDatabase
  let app: Api
  let star: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    star = await addMember(database.db, { gender: 'male' })
    const db = database.db
    await db.execute(sql`
      INSERT INTO members (email, password_hash, name, gender, date_of_birth, country)
      SELECT 'bulk-' || g || '@test.example', 'x', 'Bulk ' || g, 'female', '1990-01-01', 'NL'
      FROM generate_series(1, ${LIKES}) AS g`)
    // Given and received, one second apart; every third received like unopened.
    await db.execute(sql`
      INSERT INTO likes (liker_id, liked_id, created_at)
      SELECT ${star.id}, id, now() - id * interval '1 second' FROM members WHERE id <> ${star.id}`)
    await db.execute(sql`
      INSERT INTO likes (liker_id, liked_id, created_at, is_new)
      SELECT id, ${star.id}, now() - id * interval '1 second', id % 3 = 0
      FROM members WHERE id <> ${star.id}`)
    // Everybody else's likes, so the star's are a small share of the table.
    await db.execute(sql`
      INSERT INTO likes (liker_id, liked_id)
      SELECT a.id, b.id FROM members a JOIN members b ON b.id BETWEEN a.id + 1 AND a.id + 20
      WHERE a.id <> ${star.id} AND b.id <> ${star.id}`)
    await db.execute(sql`ANALYZE`)
    cookie = await login(app, star.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const Plan = z.object({ rows: z.array(z.object({ 'QUERY PLAN': z.string() })) })
  const planOf = async (query: SQLWrapper) =>
    Plan.parse(await database.db.execute(sql`EXPLAIN ${query}`))
      .rows.map((r) => r['QUERY PLAN'])
      .join('\n')

  it('reads each page, the liked ids and the counts through the likes indexes', async () => {
    // The one statement of each shape: what polling asks (page 1 of both
    // lists with every liked id) and a later page of each list.
    for (const shape of [{}, { type: 'given', page: 2 }, { type: 'received', page: 2 }] as const) {
      const plan = await planOf(likesQuery(database.db, star.id, shape))
      if (shape.type !== 'received')
        expect(plan, JSON.stringify(shape)).toContain('likes_given_idx')
      if (shape.type !== 'given')
        expect(plan, JSON.stringify(shape)).toContain('likes_received_idx')
      // Every read of likes (pages, ids, counts) goes through an index on the
      // member's likes, never a scan of the whole table (which index wins
      // depends on table size; bench/ times it).
      expect(plan, JSON.stringify(shape)).not.toContain('Seq Scan on likes')
    }
  })

  it('reads them through the same indexes in the generic plan of the prepared polling statement', async () => {
    // What PostgreSQL runs once the named statement likes_of has switched to
    // a plan for any member: forced here, on one connection (a transaction).
    const { sql: text, params } = new PgDialect().sqlToQuery(
      likesQuery(database.db, sql.placeholder('member'), {}).getSQL(),
    )
    const values = params.map((p) => (p instanceof Placeholder ? star.id : Number(p)))
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`)
      await tx.execute(sql.raw(`PREPARE likes_generic AS ${text}`))
      const explained = await tx.execute(
        sql.raw(`EXPLAIN EXECUTE likes_generic(${values.join(', ')})`),
      )
      await tx.execute(sql`DEALLOCATE likes_generic`)
      return Plan.parse(explained)
        .rows.map((r) => r['QUERY PLAN'])
        .join('\n')
    })
    expect(plan).toContain('$1') // generic: the member is a parameter in the plan
    expect(plan).toContain('likes_given_idx')
    expect(plan).toContain('likes_received_idx')
    expect(plan).not.toContain('Seq Scan on likes')
  })

  it('answers page 1 with every liked id and the counts, and later pages in order', async () => {
    const t0 = performance.now()
    const res = await send(app, '/api/likes.php', { cookie })
    const first = LikesResponse.parse(await res.json())
    const ms = performance.now() - t0
    console.log(`likes.php with ${LIKES} likes each way on ${engine}: ${ms.toFixed(1)} ms`)
    expect(first.profiles).toHaveLength(LIKES_PAGE_SIZE)
    expect(first.liked_by).toHaveLength(LIKES_PAGE_SIZE)
    expect(first.liked_ids).toHaveLength(LIKES)
    expect(first.counts).toEqual({
      given: LIKES,
      received: LIKES,
      received_new: Math.floor((LIKES + 1) / 3),
    })
    // Newest first: the seed made lower ids newer.
    expect(first.liked_ids).toEqual([...first.liked_ids].sort((a, b) => a - b))
    expect(first.profiles.map((p) => p.id)).toEqual(first.liked_ids.slice(0, LIKES_PAGE_SIZE))
    expect(first.liked_by.every((l) => l.like_new)).toBe(true) // new first (spec §4)

    const page = async (type: 'given' | 'received', n: number) =>
      LikesResponse.parse(
        await (await send(app, `/api/likes.php?type=${type}&page=${n}`, { cookie })).json(),
      )
    const given2 = await page('given', 2)
    expect(given2.liked_by).toEqual([])
    expect(given2.profiles.map((p) => p.id)).toEqual(
      first.liked_ids.slice(LIKES_PAGE_SIZE, 2 * LIKES_PAGE_SIZE),
    )
    // Past the new ones, the opened likes follow.
    const lastReceived = await page('received', Math.ceil(LIKES / LIKES_PAGE_SIZE))
    expect(lastReceived.profiles).toEqual([])
    expect(lastReceived.liked_by.length).toBeGreaterThan(0)
    expect(lastReceived.liked_by.every((l) => !l.like_new)).toBe(true)
    expect((await page('received', 1000)).liked_by).toEqual([])
  })
})
