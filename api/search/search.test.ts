// GET /api/search.php (spec §6, §7): validation, default filters, each
// filter, paging, saved searches. Expectations come from an oracle that
// filters the members table in plain TypeScript, not from the API's own code.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, type Profile, SearchResponse } from '../contract/index.ts'
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

const NL_REGIONS = ['NL-NH', 'NL-ZH', 'NL-UT']
const BE_REGIONS = ['BE-VAN', 'BE-BRU']

/** The cast: 22 live women in NL (two on an age boundary), some in BE, men, others. */
function cast(): NewMember[] {
  const nlWomen = Array.from({ length: 20 }, (_, i) => ({
    age: 18 + Math.round((i * 62) / 19),
    countryregion: NL_REGIONS[i % NL_REGIONS.length]!,
  }))
  return [
    ...nlWomen,
    { name: 'Turns 30 today', dateOfBirth: birthDate(30, 0), countryregion: 'NL-NH' },
    { name: 'Turns 30 tomorrow', dateOfBirth: birthDate(30, 1), countryregion: 'NL-NH' },
    { name: 'Deleted', age: 30, countryregion: 'NL-NH', deletedAt: new Date() },
    ...Array.from({ length: 6 }, (_, i) => ({
      country: 'BE',
      countryregion: BE_REGIONS[i % 2]!,
      age: 25 + i * 5,
    })),
    ...Array.from({ length: 3 }, (_, i) => ({
      gender: 'male',
      age: 30 + i,
      countryregion: 'NL-NH',
    })),
    ...Array.from({ length: 3 }, () => ({ country: 'DE', countryregion: 'DE-BY' })),
    { gender: 'male', country: 'BE', countryregion: 'BE-VAN', age: 44 },
  ]
}

describeEngines('search on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male', age: 35, countryregion: 'NL-NH' })
    await addMembers(database.db, cast())
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const search = async (query: string, as = cookie) => {
    const res = await send(app, `/api/search.php${query ? `?${query}` : ''}`, { cookie: as })
    expect(res.status, query).toBe(200)
    return SearchResponse.parse(await res.json())
  }

  /** Ids of the members a search with `f` must find, in the promised order. */
  const oracle = async (meId: number, f: Filters) => {
    const rows = await database.db.select().from(members)
    return rows
      .filter(
        (r) =>
          r.deletedAt === null &&
          r.id !== meId &&
          (f.gender === null || r.gender === f.gender) &&
          (f.country === null || r.country === f.country) &&
          (f.countryregion === null || r.countryregion === f.countryregion) &&
          ageToday(r.dateOfBirth) >= f.min_age &&
          ageToday(r.dateOfBirth) <= f.max_age,
      )
      .sort((a, b) => b.publicActiveAt.getTime() - a.publicActiveAt.getTime() || b.id - a.id)
      .map((r) => r.id)
  }

  /** Every profile is the member's row as seen by others, and matches the filters. */
  const expectMatching = async (profiles: Profile[], f: Filters) => {
    const rows = new Map((await database.db.select().from(members)).map((r) => [r.id, r]))
    for (const p of profiles) {
      const row = rows.get(p.id)!
      expect(p.id).not.toBe(me.id)
      expect(row.deletedAt).toBeNull()
      expect(p).toMatchObject({
        name: row.name,
        gender: row.gender,
        country: row.country,
        countryregion: row.countryregion,
        age: ageToday(row.dateOfBirth),
      })
      if (f.gender) expect(p.gender).toBe(f.gender)
      if (f.country) expect(p.country).toBe(f.country)
      if (f.countryregion) expect(p.countryregion).toBe(f.countryregion)
      expect(p.age).toBeGreaterThanOrEqual(f.min_age)
      expect(p.age).toBeLessThanOrEqual(f.max_age)
    }
  }

  const defaults: Filters = {
    gender: 'female',
    country: 'NL',
    countryregion: null,
    min_age: 18,
    max_age: 100,
    verified: false,
  }

  it('answers 403 without a session', async () => {
    const res = await send(app, '/api/search.php')
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'not_logged_in' })
  })

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['pp=1000', 'pp'],
    ['pp=0', 'pp'],
    ['min_age=17', 'min_age'],
    ['max_age=101', 'max_age'],
    ['min_age=40&max_age=30', 'min_age'],
    ['gender=x', 'gender'],
    ['country=FRA', 'country'],
    ['country=FR', 'country'],
    ['country=DE', 'country'],
    ['countryregion=BE-VAN', 'countryregion'],
    ['country=NL&countryregion=BE-VAN', 'countryregion'],
    ['countryregion=XX-YY', 'countryregion'],
    ['manual_search=yes', 'manual_search'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const res = await send(app, `/api/search.php?${query}`, { cookie })
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json())).toMatchObject({ error: 'invalid_input', field })
  })

  it('shows a first page of women in her own country by default', async () => {
    const r = await search('')
    expect(r.filters).toEqual(defaults)
    expect(r.profiles.length).toBeGreaterThan(0)
    expect(r.profiles.length).toBeLessThanOrEqual(12)
    expect(r.profiles.map((p) => p.id)).toEqual((await oracle(me.id, defaults)).slice(0, 12))
    await expectMatching(r.profiles, defaults)
    expect(r.paging).toEqual({ num_results: 22, page: 1, pp: 12 })
    expect(r.filter_options).toMatchObject({
      gender: ['female', 'male'],
      min_age: 18,
      max_age: 100,
      country: [
        { id: 'NL', name: 'Netherlands' },
        { id: 'BE', name: 'Belgium' },
      ],
    })
    expect(r.filter_options.countryregion.map((o) => o.id)).toContain('NL-NH')
  })

  it('never shows the member themself, even when they match the filters', async () => {
    const r = await search('gender=male&pp=48')
    expect(r.profiles.map((p) => p.id)).not.toContain(me.id)
    expect(r.profiles.map((p) => p.id)).toEqual(
      await oracle(me.id, { ...defaults, gender: 'male' }),
    )
    await expectMatching(r.profiles, { ...defaults, gender: 'male' })
  })

  it.each<[string, Partial<Filters>]>([
    ['country=BE', { country: 'BE' }],
    ['country=be', { country: 'BE' }],
    ['country=BE&gender=male', { country: 'BE', gender: 'male' }],
    ['country=BE&countryregion=BE-VAN', { country: 'BE', countryregion: 'BE-VAN' }],
    ['countryregion=NL-ZH', { countryregion: 'NL-ZH' }],
    ['min_age=30&max_age=40', { min_age: 30, max_age: 40 }],
    ['min_age=30', { min_age: 30 }],
    ['max_age=29', { max_age: 29 }],
    ['min_age=18&max_age=18', { min_age: 18, max_age: 18 }],
    ['min_age=100', { min_age: 100 }],
  ])('respects %s', async (query, filters) => {
    const f = { ...defaults, ...filters }
    const r = await search(`${query}&pp=48`)
    expect(r.filters).toEqual(f)
    expect(r.profiles.map((p) => p.id)).toEqual(await oracle(me.id, f))
    expect(r.paging.num_results).toBe(r.profiles.length)
    await expectMatching(r.profiles, f)
  })

  it('puts a birthday today inside the age range and a birthday tomorrow outside', async () => {
    const names = async (query: string) => (await search(query)).profiles.map((p) => p.name)
    expect(await names('min_age=30&max_age=30&pp=48')).toContain('Turns 30 today')
    expect(await names('min_age=30&max_age=30&pp=48')).not.toContain('Turns 30 tomorrow')
    expect(await names('min_age=29&max_age=29&pp=48')).toContain('Turns 30 tomorrow')
    expect(await names('min_age=29&max_age=29&pp=48')).not.toContain('Turns 30 today')
  })

  it('pages through the results without overlap or gaps', async () => {
    const all = await oracle(me.id, defaults)
    const [one, two, three] = [
      await search('page=1'),
      await search('page=2'),
      await search('page=3'),
    ]
    expect(one.profiles.map((p) => p.id)).toEqual(all.slice(0, 12))
    expect(two.profiles.map((p) => p.id)).toEqual(all.slice(12, 24))
    expect(two.profiles.map((p) => p.id)).not.toEqual(one.profiles.map((p) => p.id))
    expect(three.profiles).toEqual([])
    for (const r of [one, two, three]) expect(r.paging.num_results).toBe(all.length)
    expect(three.paging).toMatchObject({ page: 3, pp: 12 })

    const far = await search('page=999')
    expect(far.profiles).toEqual([])
    expect(far.paging.num_results).toBe(all.length)

    // A smaller page size pages the same order.
    const small = await Promise.all([1, 2, 3].map((page) => search(`pp=5&page=${page}`)))
    expect(small.flatMap((r) => r.profiles.map((p) => p.id))).toEqual(all.slice(0, 15))
  })

  it('never shows a deleted member', async () => {
    const before = await search('pp=48')
    const victim = before.profiles[3]!
    await database.db
      .update(members)
      .set({ deletedAt: new Date() })
      .where(eq(members.id, victim.id))

    const after = await search('pp=48')
    expect(after.profiles.map((p) => p.id)).not.toContain(victim.id)
    expect(after.paging.num_results).toBe(before.paging.num_results - 1)
    const deleted = (await database.db.select().from(members)).filter((r) => r.deletedAt)
    expect(deleted.length).toBeGreaterThanOrEqual(2)
    for (const query of [
      '',
      'gender=male',
      'country=BE',
      'countryregion=NL-NH',
      'min_age=30&max_age=30',
    ]) {
      for (let page = 1; page <= 3; page++) {
        const ids = (await search(`${query}&page=${page}`)).profiles.map((p) => p.id)
        for (const d of deleted) expect(ids, `${query} page ${page}`).not.toContain(d.id)
      }
    }
  })

  describe('saved search (spec §7 manual_search, do_not_save)', () => {
    let saver: MemberRow
    let saverCookie: string

    beforeAll(async () => {
      saver = await addMember(database.db, { gender: 'male', age: 50 })
      saverCookie = await login(app, saver.email, TEST_PASSWORD)
    })

    const savedSearch = async () =>
      (await database.db.select().from(members).where(eq(members.id, saver.id)))[0]!.savedSearch

    it('does not save a search that is not manual', async () => {
      await search('country=BE&min_age=25', saverCookie)
      expect(await savedSearch()).toBeNull()
      expect((await search('', saverCookie)).filters).toEqual(defaults)
    })

    it('saves a manual search and applies it when no filters are sent', async () => {
      const chosen: Filters = { ...defaults, country: 'BE', min_age: 25, max_age: 60 }
      const first = await search('country=BE&min_age=25&max_age=60&manual_search=1', saverCookie)
      expect(first.filters).toEqual(chosen)
      expect(await savedSearch()).toEqual(chosen)

      const later = await search('', saverCookie)
      expect(later.filters).toEqual(chosen)
      expect(later.profiles.map((p) => p.id)).toEqual(await oracle(saver.id, chosen))
      // Paging keeps the saved filters too.
      expect((await search('page=2', saverCookie)).filters).toEqual(chosen)
      // The saved search is the saver's own: others keep their defaults.
      expect((await search('')).filters).toEqual(defaults)
    })

    it('does not save with do_not_save=1', async () => {
      const before = await savedSearch()
      const r = await search('gender=male&manual_search=1&do_not_save=1', saverCookie)
      expect(r.filters).toEqual({ ...defaults, gender: 'male' })
      expect(await savedSearch()).toEqual(before)
      expect((await search('', saverCookie)).filters).toEqual(before)
    })

    it('falls back to the defaults when the saved country is no longer an option', async () => {
      // The member moved from NL to DE: a saved BE search no longer applies.
      await database.db
        .update(members)
        .set({ country: 'DE', countryregion: 'DE-BY' })
        .where(eq(members.id, saver.id))
      const r = await search('', saverCookie)
      expect(r.filters).toEqual({ ...defaults, country: 'DE' })
    })
  })
})
