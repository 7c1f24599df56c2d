// One answer, one snapshot: GET /api/likes.php answers pages, every liked id
// and counts, and under concurrent likes each answer must still agree with
// itself. It is one statement (likesQuery in api/likes/likes.ts), whose
// subqueries share its snapshot. readSnapshot (db/client.ts), which held the
// earlier five reads together (and still runs them as the oracle of
// likes-statement.test.ts), is checked below on PostgreSQL.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readSnapshot } from '../../db/client.ts'
import { likes } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { LIKES_PAGE_SIZE, LikesResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'

const TARGETS = 60
const WRITES = 160
const READS = 80

describeEngines('one snapshot per answer on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let me: MemberRow
  let targets: MemberRow[]
  let cookie: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    // 160 likes in a few seconds on purpose: past the like limits, which have
    // their own tests (like-limits.test.ts).
    app = createApi({ db: t.db, memberLimits: false })
    const rows = await addMembers(t.db, [
      { gender: 'male' },
      ...Array.from({ length: TARGETS }, () => ({})),
    ])
    me = rows[0]!
    targets = rows.slice(1)
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  it(
    'answers counts that agree with its own ids and page while likes are made',
    async () => {
      // Writers like and unlike in several concurrent streams while readers poll.
      let writing = true
      const writer = async (stream: number) => {
        for (let i = stream; i < WRITES; i += 4) {
          const target = targets[(i * 7) % TARGETS]!.id
          const method = i % 3 === 2 ? 'DELETE' : 'POST'
          await send(app, '/api/likes.php', { method, cookie, body: { profile: target } })
        }
      }
      const answers: LikesResponse[] = []
      const reader = async () => {
        while (writing && answers.length < READS) {
          const res = await send(app, '/api/likes.php', { cookie })
          answers.push(LikesResponse.parse(await res.json()))
        }
      }
      const writers = Promise.all([0, 1, 2, 3].map(writer)).finally(() => {
        writing = false
      })
      await Promise.all([writers, reader(), reader(), reader()])

      for (const a of answers) {
        expect(a.counts.given, 'given count = liked ids').toBe(a.liked_ids.length)
        expect(a.profiles.length, 'page 1 = the first ids').toBe(
          Math.min(a.counts.given, LIKES_PAGE_SIZE),
        )
        expect(a.profiles.map((p) => p.id)).toEqual(a.liked_ids.slice(0, LIKES_PAGE_SIZE))
      }
      expect(answers.length).toBeGreaterThan(0)
      // On PostgreSQL the reads really overlapped the writes: they saw the list
      // at several sizes. (PGlite runs one transaction at a time, so how many
      // reads land between writes there is up to its queue.)
      if (engine === 'postgres') {
        expect(answers.length).toBeGreaterThan(10)
        expect(new Set(answers.map((a) => a.counts.given)).size).toBeGreaterThan(2)
      }
    },
    scaled(90_000),
  )

  // PGlite has one connection and runs one transaction at a time, so no
  // commit can land between two reads of a snapshot there; PostgreSQL is where
  // it can, and this shows the snapshot holds while another connection commits.
  it.runIf(engine === 'postgres')(
    'reads one snapshot although another connection commits between its queries',
    async () => {
      const target = targets[0]!.id
      await t.db.delete(likes).where(eq(likes.likerId, me.id))
      const seen = await readSnapshot(t.db, async (tx) => {
        const before = await tx.select().from(likes).where(eq(likes.likerId, me.id))
        // Committed on another pooled connection, between the two reads.
        await t.db.insert(likes).values({ likerId: me.id, likedId: target })
        const after = await tx.select().from(likes).where(eq(likes.likerId, me.id))
        return { before: before.length, after: after.length }
      })
      expect(seen).toEqual({ before: 0, after: 0 })
      // Outside the snapshot the like is there.
      expect(await t.db.select().from(likes).where(eq(likes.likerId, me.id))).toHaveLength(1)
    },
  )
})
