// Search at the result cap (docs/search.md): num_results is exact below
// SEARCH_RESULT_CAP and SEARCH_RESULT_CAP above it, and pages end at the cap.
// Expectations come from plain queries over the table, not from the service.
import { and, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { SEARCH_PAGE_SIZE, SEARCH_RESULT_CAP, SearchQuery } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, birthDate, type MemberRow } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'
import { search } from './search.ts'

/** More women in NL than the cap, so the cap shows. */
const CROWD = SEARCH_RESULT_CAP + 25
const LAST_PAGE = Math.ceil(SEARCH_RESULT_CAP / SEARCH_PAGE_SIZE)

describeEngines('search result cap on %s', (engine) => {
  let database: TestDatabase
  let me: MemberRow
  /** Ids of every matching member in the promised order (activity, then id, newest first). */
  let ordered: number[]

  beforeAll(async () => {
    database = await freshDatabase(engine)
    me = await addMember(database.db, { gender: 'male', age: 40 })
    // Set-based, as the benchmark seeds: ten thousand rows in one statement.
    // Ages 20-59 (one year per 40 members); every 7th shares its neighbour's
    // last_active_at, so the id tie-break is exercised.
    await database.db.execute(sql`
      INSERT INTO members (email, password_hash, name, gender, date_of_birth, country,
                           language, last_active_at)
      SELECT 'crowd' || g || '@test.example', 'x', 'Crowd ' || g, 'female',
             (${birthDate(20, -10)}::date - make_interval(years => g % 40))::date, 'NL', 'en',
             timestamptz '2030-01-01' - make_interval(mins => g - (g % 7 = 0)::int)
      FROM generate_series(1, ${CROWD}) AS g`)
    const rows = await database.db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.gender, 'female'), isNull(members.deletedAt)))
      .orderBy(desc(members.publicActiveAt), desc(members.id))
    ordered = rows.map((r) => r.id)
    expect(ordered).toHaveLength(CROWD)
  }, scaled(60_000))
  afterAll(() => database?.close())

  const run = async (query: Record<string, string>) =>
    (await search(database.db, me, SearchQuery.parse(query))).response

  it('counts up to the cap when more members match', async () => {
    const r = await run({ page: '1' })
    expect(r.paging.num_results).toBe(SEARCH_RESULT_CAP)
    expect(r.profiles.map((p) => p.id)).toEqual(ordered.slice(0, SEARCH_PAGE_SIZE))
  })

  it('counts exactly below the cap', async () => {
    // Ages 30-39: a quarter of the crowd.
    const r = await run({ min_age: '30', max_age: '39', pp: '48' })
    const [exact] = await database.db
      .select({ n: count() })
      .from(members)
      .where(
        and(
          eq(members.gender, 'female'),
          eq(members.country, 'NL'),
          lte(members.dateOfBirth, birthDate(30)),
          gt(members.dateOfBirth, birthDate(40)),
        ),
      )
    expect(exact?.n).toBeLessThan(SEARCH_RESULT_CAP)
    expect(r.paging.num_results).toBe(exact?.n)
    expect(r.profiles.every((p) => p.age >= 30 && p.age <= 39)).toBe(true)
  })

  it('pages in order up to the cap and no further', async () => {
    const deep = await run({ page: '400' })
    const from = 399 * SEARCH_PAGE_SIZE
    expect(deep.profiles.map((p) => p.id)).toEqual(ordered.slice(from, from + SEARCH_PAGE_SIZE))

    // The last page stops at the cap: 10,000 = 833 full pages + 4.
    const last = await run({ page: String(LAST_PAGE) })
    const lastFrom = (LAST_PAGE - 1) * SEARCH_PAGE_SIZE
    expect(last.profiles.map((p) => p.id)).toEqual(ordered.slice(lastFrom, SEARCH_RESULT_CAP))
    expect(last.paging.num_results).toBe(SEARCH_RESULT_CAP)

    const beyond = await run({ page: String(LAST_PAGE + 1) })
    expect(beyond.profiles).toEqual([])
    expect(beyond.paging).toMatchObject({ num_results: SEARCH_RESULT_CAP, page: LAST_PAGE + 1 })
  })

  it('pages with a larger page size end at the cap too', async () => {
    const pages = Math.ceil(SEARCH_RESULT_CAP / 48)
    const last = await run({ pp: '48', page: String(pages) })
    expect(last.profiles.map((p) => p.id)).toEqual(
      ordered.slice((pages - 1) * 48, SEARCH_RESULT_CAP),
    )
    expect((await run({ pp: '48', page: String(pages + 1) })).profiles).toEqual([])
  })
})
