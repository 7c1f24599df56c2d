// Per-member like limits on both databases (api/http/member-limits.ts): likes
// and unlikes count together; past the limit a new one answers 429
// rate_limited with Retry-After and changes nothing (no like, no record of
// its id, so the same id can be sent again later); an account younger than a
// day meets a tighter limit; a replayed action id is never counted nor
// refused. The API runs on a clock the tests move (AppDeps.now), set to the
// start of a whole hour, so no window ends in the middle of a test.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { likes, memberActions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, LikeResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'

/** The limits, pinned by value (LIMITS in api/http/ratelimit.ts). */
const PER_MINUTE = 60
const NEW_PER_MINUTE = 30
const NEW_PER_HOUR = 200

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describeEngines('like limits on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let targets: MemberRow[]
  const hourStart = Math.ceil(Date.now() / HOUR) * HOUR
  /** The API's clock: 5 s into a whole hour (so into a whole minute too). */
  let now = hourStart + 5_000

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db, now: () => new Date(now) })
    targets = await addMembers(
      database.db,
      Array.from({ length: 4 }, () => ({})),
    )
  })
  afterAll(() => database?.close())

  /** A member who signed up `age` ms before the clock, logged in. */
  async function liker(age: number) {
    now = hourStart + 5_000
    const member = await addMember(database.db, {
      gender: 'male',
      signupDate: new Date(now - age),
    })
    const cookie = await login(app, member.email, TEST_PASSWORD)
    const call = (liked: boolean, profile: number, clientId: string = randomUUID()) =>
      send(app, '/api/likes.php', {
        method: liked ? 'POST' : 'DELETE',
        cookie,
        body: { profile, client_id: clientId },
      })
    const likeRows = (profile: number) =>
      database.db
        .select()
        .from(likes)
        .where(and(eq(likes.likerId, member.id), eq(likes.likedId, profile)))
    return { member, call, likeRows }
  }

  /** `n` changes, each answered 200: like and unlike the targets in turn. */
  async function toggle(call: (liked: boolean, profile: number) => Promise<Response>, n: number) {
    for (let i = 0; i < n; i++) {
      const target = targets[i % 2]!.id
      const res = await call(i % 4 < 2, target)
      expect(res.status, `change ${i + 1}`).toBe(200)
    }
  }

  async function expectRefused(res: Response, retryAfterS: number) {
    expect(res.status).toBe(429)
    expect(res.headers.get('Retry-After')).toBe(String(retryAfterS))
    expect(ApiError.parse(await res.json()).error).toBe('rate_limited')
  }

  it('refuses the 31st like or unlike in a minute of a new account with 429 and Retry-After, changing nothing', async () => {
    const { member, call, likeRows } = await liker(HOUR)
    await toggle(call, NEW_PER_MINUTE)

    const id = randomUUID()
    const target = targets[3]!.id
    await expectRefused(await call(true, target, id), 55)
    expect(await likeRows(target)).toEqual([])
    const record = await database.db
      .select()
      .from(memberActions)
      .where(and(eq(memberActions.actorId, member.id), eq(memberActions.clientId, id)))
    expect(record).toEqual([])
    // Unlikes count the same.
    await expectRefused(await call(false, targets[0]!.id), 55)

    // The next minute the same action id goes through (the 429 kept no record of it).
    now += 55_000
    const res = await call(true, target, id)
    expect(res.status).toBe(200)
    expect(LikeResponse.parse(await res.json())).toEqual({ profile: target, liked: true })
    expect(await likeRows(target)).toHaveLength(1)
  })

  it('lets an account older than a day like more than the new-account limit, up to its own', async () => {
    const { call, likeRows } = await liker(2 * DAY)
    await toggle(call, PER_MINUTE)
    expect(PER_MINUTE).toBeGreaterThan(NEW_PER_MINUTE)
    const target = targets[3]!.id
    await expectRefused(await call(true, target), 55)
    expect(await likeRows(target)).toEqual([])
  })

  it('answers a replayed action id with its first answer even past the limit', async () => {
    const { call, likeRows } = await liker(HOUR)
    const first = randomUUID()
    const target = targets[2]!.id
    const answer = await (await call(true, target, first)).json()
    await toggle(call, NEW_PER_MINUTE - 1)
    await expectRefused(await call(true, targets[3]!.id), 55)

    const res = await call(true, target, first)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(answer)
    // A reused id naming another action is still refused for what it is.
    expect((await call(false, target, first)).status).toBe(422)
    expect(await likeRows(target)).toHaveLength(1)
  })

  it(
    'refuses the 201st change in an hour of a new account until the hour ends',
    async () => {
      const { call } = await liker(HOUR)
      const minutes = Math.floor(NEW_PER_HOUR / NEW_PER_MINUTE) // 6 full minutes, then 20 more
      for (let minute = 0; minute < minutes; minute++) {
        now = hourStart + minute * MINUTE + 5_000
        await toggle(call, NEW_PER_MINUTE)
      }
      now = hourStart + minutes * MINUTE + 5_000
      await toggle(call, NEW_PER_HOUR - minutes * NEW_PER_MINUTE)
      await expectRefused(
        await call(true, targets[3]!.id),
        (HOUR - minutes * MINUTE - 5_000) / 1000,
      )
    },
    scaled(60_000),
  )
})
