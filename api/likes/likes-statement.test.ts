// GET /api/likes.php as one statement (likesQuery): it answers exactly what
// the earlier path answered (BEGIN, four reads, the pictures, COMMIT), kept
// here as the oracle, byte for byte, for every shape a client asks (polling,
// later pages, each list alone); other members' pending pictures are never
// in it; and one answer is one statement on the database.
import { and, eq, isNull, type Logger, sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Db, readSnapshot } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'
import { images, likes, members } from '../../db/schema/index.ts'
import { LIKES_PAGE_SIZE, type LikesResponse } from '../contract/index.ts'
import { imagesOf } from '../images/index.ts'
import { type ProfileSource, profileColumns, toProfile } from '../profiles/profiles.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, addMembers, birthDate, type MemberRow, pictureRow } from '../test/seed.ts'
import { type LikesShape, likesOf } from './likes.ts'

/** The earlier likesOf: one REPEATABLE READ snapshot, four reads, then the pictures. */
function oldLikesOf(db: Db, memberId: number, { type, page = 1 }: LikesShape = {}) {
  return readSnapshot(db, async (tx): Promise<LikesResponse> => {
    const offset = (page - 1) * LIKES_PAGE_SIZE
    const given = tx
      .select({ member: profileColumns })
      .from(likes)
      .innerJoin(members, eq(members.id, likes.likedId))
      .where(and(eq(likes.likerId, memberId), isNull(members.deletedAt)))
      .orderBy(sql`${likes.createdAt} DESC`, sql`${likes.likedId} DESC`)
      .limit(LIKES_PAGE_SIZE)
      .offset(offset)
    const received = tx
      .select({ member: profileColumns, isNew: likes.isNew, createdAt: likes.createdAt })
      .from(likes)
      .innerJoin(members, eq(members.id, likes.likerId))
      .where(and(eq(likes.likedId, memberId), isNull(members.deletedAt)))
      .orderBy(sql`${likes.isNew} DESC`, sql`${likes.createdAt} DESC`, sql`${likes.likerId} DESC`)
      .limit(LIKES_PAGE_SIZE)
      .offset(offset)
    const likedIds = tx
      .select({ id: likes.likedId })
      .from(likes)
      .where(eq(likes.likerId, memberId))
      .orderBy(sql`${likes.createdAt} DESC`, sql`${likes.likedId} DESC`)
    const counts = tx
      .select({
        given: sql<number>`(SELECT count(*) FROM ${likes} WHERE ${likes.likerId} = ${memberId})::int`,
        received: sql<number>`(SELECT count(*) FROM ${likes} WHERE ${likes.likedId} = ${memberId})::int`,
        receivedNew: sql<number>`(SELECT count(*) FROM ${likes}
          WHERE ${likes.likedId} = ${memberId} AND ${likes.isNew})::int`,
      })
      .from(sql`(SELECT 1) AS one`)
    const [g, r, ids, [c]] = await Promise.all([
      type !== 'received' ? given : [],
      type !== 'given' ? received : [],
      type === undefined ? likedIds : [],
      counts,
    ])
    // Approved pictures of these members, oldest first, as the earlier reads took them.
    const wanted = [...new Set([...g.map((x) => x.member.id), ...r.map((x) => x.member.id)])]
    const imgs = await imagesOf(tx, wanted)
    const profileOf = (m: ProfileSource) => toProfile(m, imgs.get(m.id) ?? [])
    return {
      profiles: g.map((x) => profileOf(x.member)),
      liked_ids: ids.map((x) => x.id),
      counts: {
        given: c?.given ?? 0,
        received: c?.received ?? 0,
        received_new: c?.receivedNew ?? 0,
      },
      paging: { page, pp: LIKES_PAGE_SIZE },
      liked_by: r.map((x) => ({
        id: x.member.id,
        like_new: x.isNew,
        created_at: x.createdAt.toISOString(),
        profile: profileOf(x.member),
      })),
    }
  })
}

/** Every shape GET /api/likes.php takes that has something to show here, and one past the end. */
const SHAPES: LikesShape[] = [
  {},
  { page: 2 },
  { page: 3 },
  { type: 'given', page: 1 },
  { type: 'given', page: 2 },
  { type: 'given', page: 3 },
  { type: 'received', page: 1 },
  { type: 'received', page: 2 },
  { type: 'received', page: 3 },
  { type: 'received', page: 50 },
]

describeEngines('the likes answer in one statement on %s', (engine) => {
  let t: TestDatabase
  let me: MemberRow
  let lonely: MemberRow
  let others: MemberRow[]
  /** A member I liked who liked me too, with approved and pending pictures. */
  let both: MemberRow
  const pending: number[] = []

  beforeAll(async () => {
    t = await freshDatabase(engine)
    me = await addMember(t.db, { gender: 'male' })
    lonely = await addMember(t.db, { gender: 'male' })
    others = await addMembers(
      t.db,
      Array.from({ length: 80 }, (_, i) => ({
        dateOfBirth: birthDate(20 + (i % 40), i % 3),
        city: i % 4 === 0 ? null : `City ${i}`,
        countryregion: i % 5 === 0 ? 'NL-NH' : null,
        personal: i % 6 === 0 ? null : `About ${i} "quoted" \u00e9\u00e8 \u{1f600}`,
        fictional: i % 9 === 0,
        gender: i % 7 === 0 ? ('male' as const) : ('female' as const),
      })),
    )
    both = others[0]!
    // Deleted while likes are still there (deleteAccount removes them; this
    // checks the lists leave such a member out the same way, and the counts
    // and ids keep them the same way).
    const ghost = others[79]!
    await t.db.update(members).set({ deletedAt: new Date() }).where(eq(members.id, ghost.id))

    // Given: 70 (more than one page), several in the same instant (the id breaks ties).
    const base = Date.parse('2026-11-20T10:00:00.123Z')
    await t.db.insert(likes).values(
      others.slice(0, 70).map((o, i) => ({
        likerId: me.id,
        likedId: o.id,
        createdAt: new Date(base - Math.floor(i / 3) * 60_000),
      })),
    )
    await t.db.insert(likes).values({ likerId: me.id, likedId: ghost.id })
    // Received: 60, new and opened mixed, some in the same instant, a
    // microsecond part (the answer shows milliseconds).
    await t.db.insert(likes).values(
      others.slice(10, 70).map((o, i) => ({
        likerId: o.id,
        likedId: me.id,
        isNew: i % 3 !== 1,
        createdAt: new Date(base - Math.floor(i / 4) * 30_000),
      })),
    )
    await t.db.execute(
      sql`UPDATE likes SET created_at = created_at + interval '123 microseconds' WHERE liked_id = ${me.id} AND liker_id % 2 = 0`,
    )
    await t.db.insert(likes).values([
      { likerId: ghost.id, likedId: me.id },
      { likerId: both.id, likedId: me.id, isNew: true },
    ])

    // Pictures: several approved, pending ones (before and after approved
    // ones), a main picture that is not the first, and members with none.
    const picture = (memberId: number, n: number, status = 'approved') =>
      pictureRow('m', memberId, n, status)
    const own = await t.db
      .insert(images)
      .values([
        picture(both.id, 1, 'pending'),
        picture(both.id, 2),
        picture(both.id, 3),
        picture(both.id, 4, 'pending'),
      ])
      .returning({ id: images.id })
    // Their main picture is the second approved one, not the first.
    await t.db.update(members).set({ mainImageId: own[2]!.id }).where(eq(members.id, both.id))
    const rest = await t.db
      .insert(images)
      .values([
        ...others
          .slice(1, 60)
          .flatMap((o, i) =>
            i % 4 === 3
              ? []
              : [picture(o.id, 1, i % 5 === 0 ? 'pending' : 'approved'), picture(o.id, 2)],
          ),
        picture(ghost.id, 1),
      ])
      .returning({ id: images.id, status: images.status })
    pending.push(own[0]!.id, own[3]!.id)
    for (const r of rest) if (r.status === 'pending') pending.push(r.id)
  })
  afterAll(() => t?.close())

  it('answers every shape byte for byte as the earlier five-read path did', async () => {
    for (const who of [me, lonely, both, others[30]!]) {
      for (const shape of SHAPES) {
        const label = `member ${who.id} ${JSON.stringify(shape)}`
        const expected = await oldLikesOf(t.db, who.id, shape)
        const actual = await likesOf(t.db, who.id, shape)
        // toEqual would ignore key order; the answer is JSON, so compare its text.
        expect(JSON.stringify(actual), label).toBe(JSON.stringify(expected))
      }
    }
    // The seed reaches what it means to: full pages, pictures, a tie, the deleted member.
    const first = await likesOf(t.db, me.id)
    expect(first.profiles).toHaveLength(LIKES_PAGE_SIZE)
    expect(first.liked_by).toHaveLength(LIKES_PAGE_SIZE)
    expect(first.liked_ids).toHaveLength(71)
    expect(first.counts).toEqual({ given: 71, received: 62, received_new: 42 })
    expect(first.profiles.some((p) => p.images.length === 2)).toBe(true)
  })

  it('shows other members only their approved pictures, oldest first, never a pending one', async () => {
    const answer = await likesOf(t.db, me.id)
    const shown = [...answer.profiles, ...answer.liked_by.map((l) => l.profile)]
    const inBoth = shown.filter((p) => p.id === both.id)
    expect(inBoth).toHaveLength(2) // liked and liked back: on both lists
    const approved = await t.db
      .select({ id: images.id, thumb_filename: images.thumbFilename })
      .from(images)
      .where(and(eq(images.memberId, both.id), eq(images.status, 'approved')))
      .orderBy(images.id)
    expect(approved).toHaveLength(2)
    for (const p of inBoth) {
      expect(p.images).toEqual(approved)
      expect(p.main_image).toEqual({ thumb_filename: approved[1]!.thumb_filename })
    }
    const ids = shown.flatMap((p) => p.images.map((i) => i.id))
    expect(ids.length).toBeGreaterThan(20)
    expect(pending.length).toBeGreaterThan(2)
    expect(ids.filter((id) => pending.includes(id))).toEqual([])
    expect(JSON.stringify(answer)).not.toContain('pending')
  })

  it('asks the database one statement per answer, whatever its shape', async () => {
    const statements: string[] = []
    const logger: Logger = { logQuery: (query) => statements.push(query) }
    // The same client as the suite's, with a logger: every statement drizzle sends.
    const client = (t.db as unknown as { $client: never }).$client
    const logged = (engine === 'pglite'
      ? drizzlePglite(client, { schema, logger })
      : drizzlePg(client, { schema, logger })) as unknown as Db
    for (const shape of [{}, {}, { type: 'given', page: 2 }, { type: 'received' }] as const) {
      statements.length = 0
      await likesOf(logged, me.id, shape)
      expect(statements, JSON.stringify(shape)).toHaveLength(1)
    }
    statements.length = 0
    await oldLikesOf(logged, me.id)
    // The oracle's reads alone (without BEGIN and COMMIT, which drizzle's
    // PGlite transaction sends past the logger): the count can tell them apart.
    expect(statements.length).toBeGreaterThanOrEqual(5)
  })
})
