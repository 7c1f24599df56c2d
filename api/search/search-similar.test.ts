// Spec §4 "similar search widens age by 5 years each way": when page 1 of a
// search finds fewer than a page (12), the answer carries `similar`, the same
// filters with min_age - 5 (not below 18) and max_age + 5 (not above 100),
// none of them already a result. Expectations come from a plain TypeScript
// oracle over the members table.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { SearchResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import {
  addMember,
  addMembers,
  ageToday,
  birthDate,
  type MemberRow,
  type NewMember,
  TEST_PASSWORD,
} from '../test/seed.ts'

type Filters = SearchResponse['filters']

/** Women in NL-UT around 30-35, on and past the widened edges, and some who never match. */
function cast(): NewMember[] {
  const ut = { countryregion: 'NL-UT' }
  return [
    ...[30, 31, 33, 35].map((age) => ({ ...ut, age })),
    { ...ut, name: 'Turns 36 tomorrow', dateOfBirth: birthDate(36, 1) },
    { ...ut, name: 'Turns 30 tomorrow', dateOfBirth: birthDate(30, 1) },
    { ...ut, name: 'Turns 25 today', dateOfBirth: birthDate(25, 0) },
    { ...ut, name: 'Turns 25 tomorrow', dateOfBirth: birthDate(25, 1) },
    { ...ut, name: 'Turns 41 tomorrow', dateOfBirth: birthDate(41, 1) },
    { ...ut, name: 'Turns 41 today', dateOfBirth: birthDate(41, 0) },
    ...[26, 28, 38, 39].map((age) => ({ ...ut, age })),
    { ...ut, age: 28, name: 'Deleted', deletedAt: new Date() },
    { ...ut, age: 28, gender: 'male' },
    { age: 28, countryregion: 'NL-NH' },
    { country: 'BE', countryregion: 'BE-VAN', age: 28 },
    // Young and old ends, in NL-ZH.
    ...[18, 19, 22, 24].map((age) => ({ countryregion: 'NL-ZH', age })),
    ...[93, 97, 100].map((age) => ({ countryregion: 'NL-ZH', age })),
    // Many women of 50 in NL-GR: a search there fills a page.
    ...Array.from({ length: 14 }, () => ({ countryregion: 'NL-GR', age: 50 })),
    ...Array.from({ length: 14 }, () => ({ countryregion: 'NL-GR', age: 56 })),
  ]
}

describeEngines('similar search results on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male', age: 35, countryregion: 'NL-UT' })
    await addMembers(database.db, cast())
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const search = async (query: string) => {
    const res = await send(app, `/api/search.php?${query}`, { cookie })
    expect(res.status, query).toBe(200)
    return SearchResponse.parse(await res.json())
  }

  /** Ids matching `f`, in search order (most recently active first). */
  const oracle = async (f: Filters) =>
    (await database.db.select().from(members))
      .filter(
        (r) =>
          r.deletedAt === null &&
          r.id !== me.id &&
          (f.gender === null || r.gender === f.gender) &&
          (f.country === null || r.country === f.country) &&
          (f.countryregion === null || r.countryregion === f.countryregion) &&
          ageToday(r.dateOfBirth) >= f.min_age &&
          ageToday(r.dateOfBirth) <= f.max_age,
      )
      .sort((a, b) => b.publicActiveAt.getTime() - a.publicActiveAt.getTime() || b.id - a.id)
      .map((r) => r.id)

  /** The similar results `f` must bring: in the widened range, not in the original. */
  const expectedSimilar = async (f: Filters) => {
    const original = new Set(await oracle(f))
    const widened = await oracle({
      ...f,
      min_age: Math.max(18, f.min_age - 5),
      max_age: Math.min(100, f.max_age + 5),
    })
    return widened.filter((id) => !original.has(id)).slice(0, 12)
  }

  const base: Filters = {
    gender: 'female',
    country: 'NL',
    countryregion: 'NL-UT',
    min_age: 30,
    max_age: 35,
    verified: false,
  }
  const query = (f: Filters) =>
    `gender=${f.gender}&country=${f.country}&countryregion=${f.countryregion}&min_age=${f.min_age}&max_age=${f.max_age}`

  it('adds members 5 years younger and older when page 1 is short', async () => {
    const r = await search(query(base))
    expect(r.profiles.map((p) => p.id)).toEqual(await oracle(base))
    expect(r.profiles.length).toBeLessThan(12)
    const names = r.similar.map((p) => p.name)
    expect(names).toContain('Turns 25 today')
    expect(names).toContain('Turns 30 tomorrow')
    expect(names).toContain('Turns 41 tomorrow')
    expect(names).not.toContain('Turns 25 tomorrow')
    expect(names).not.toContain('Turns 41 today')
    expect(names).not.toContain('Turns 36 tomorrow') // a result already
    expect(names).not.toContain('Deleted')
    expect(r.similar.map((p) => p.id)).toEqual(await expectedSimilar(base))
    expect(r.similar.map((p) => p.id)).not.toContain(me.id)
    const results = new Set(r.profiles.map((p) => p.id))
    for (const p of r.similar) {
      expect(results.has(p.id)).toBe(false)
      expect(p).toMatchObject({ gender: 'female', country: 'NL', countryregion: 'NL-UT' })
      expect(p.age).toBeGreaterThanOrEqual(25)
      expect(p.age).toBeLessThanOrEqual(40)
    }
    // The filters the server reports are the member's own, not the widened ones.
    expect(r.filters).toEqual(base)
  })

  it('widens no further than 18 and 100', async () => {
    const young = { ...base, countryregion: 'NL-ZH', min_age: 18, max_age: 20 }
    const r = await search(query(young))
    expect(r.similar.map((p) => p.age).sort()).toEqual([22, 24])
    expect(r.similar.map((p) => p.id)).toEqual(await expectedSimilar(young))
    const old = { ...base, countryregion: 'NL-ZH', min_age: 98, max_age: 100 }
    const o = await search(query(old))
    expect(o.profiles.map((p) => p.age)).toEqual([100])
    expect(o.similar.map((p) => p.age).sort()).toEqual([93, 97])
  })

  it('brings nothing when the range cannot widen', async () => {
    const all = { ...base, countryregion: 'NL-ZH', min_age: 18, max_age: 100 }
    const r = await search(query(all))
    expect(r.profiles.length).toBeLessThan(12)
    expect(r.similar).toEqual([])
  })

  it('brings nothing when page 1 is full, nor on later pages', async () => {
    const full = { ...base, countryregion: 'NL-GR', min_age: 46, max_age: 52 }
    const r = await search(query(full))
    expect(r.paging.num_results).toBe(14)
    expect(r.similar).toEqual([])
    expect((await search(`${query(full)}&page=2`)).similar).toEqual([])
    // A short page 2 of a short search brings nothing either.
    expect((await search(`${query(base)}&page=2`)).similar).toEqual([])
  })

  it('shows at most one page of similar results', async () => {
    // 46-49 finds nobody; widened to 41-54 it finds the 14 women of 50.
    const none = { ...base, countryregion: 'NL-GR', min_age: 46, max_age: 49 }
    const r = await search(query(none))
    expect(r.profiles).toEqual([])
    expect(r.similar).toHaveLength(12)
    expect(r.similar.map((p) => p.id)).toEqual(await expectedSimilar(none))
  })

  it('does not save the widened range as the manual search', async () => {
    await search(`${query(base)}&manual_search=1`)
    const restored = await search('')
    expect(restored.filters).toEqual(base)
  })
})
