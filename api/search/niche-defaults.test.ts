// What each niche's site shows by default (api/contract/rules/niches.ts,
// docs/sites-and-templates.md "What each niche shows"): the default gender of
// a member's and a guest's search, the guest home's showcase and the landers'
// members. Niche 7 (gay) shows men, to guests and men alike; niche 2 women;
// the general site and niche 3 the other gender (a guest: women); 4-6 women,
// men to a woman. An explicit search still wins.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { images, members } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { LanderMembersResponse, SearchResponse, ShowcaseResponse } from '../contract/index.ts'
import { nicheGender } from '../contract/rules/index.ts'
import { applySettingsFromEnv } from '../settings/settings.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { sessionCookie } from '../test/fuzz.ts'
import { send } from '../test/http.ts'
import { addMembers } from '../test/seed.ts'

/** Host → niche of the sites under test; `localhost` is the default site (niche 1). */
const SITES = { 'women.localhost': 2, 'bdsm.localhost': 3, 'milf.localhost': 6, 'gay.localhost': 7 }
const base = (host: string) => `http://${host}`

describe('the niche rule', () => {
  it.each([
    [1, null, 'female'],
    [1, 'male', 'female'],
    [1, 'female', 'male'],
    [2, null, 'female'],
    [2, 'male', 'female'],
    [2, 'female', 'female'],
    [3, null, 'female'],
    [3, 'female', 'male'],
    [4, null, 'female'],
    [5, 'male', 'female'],
    [6, 'female', 'male'],
    [7, null, 'male'],
    [7, 'male', 'male'],
    [7, 'female', 'male'],
  ] as const)('niche %i shows a %s viewer %s', (niche, viewer, shown) => {
    expect(nicheGender(niche, viewer)).toBe(shown)
  })
})

describeEngines('niche defaults through the API on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let man = ''
  let woman = ''

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    await applySettingsFromEnv(
      t.db,
      JSON.stringify({
        sites: Object.fromEntries(Object.entries(SITES).map(([h, niche]) => [h, { niche }])),
      }),
    )
    const rows = await addMembers(t.db, [
      ...Array.from({ length: 6 }, () => ({ gender: 'female' as const, country: 'NL' })),
      ...Array.from({ length: 6 }, () => ({ gender: 'male' as const, country: 'NL' })),
    ])
    for (const r of rows) {
      const [img] = await t.db
        .insert(images)
        .values({ memberId: r.id, filename: `${r.id}.jpg`, thumbFilename: `${r.id}-t.jpg` })
        .returning()
      await t.db.update(members).set({ mainImageId: img!.id }).where(eq(members.id, r.id))
    }
    man = await sessionCookie(t.db, rows[6]!.id)
    woman = await sessionCookie(t.db, rows[0]!.id)
  })
  afterAll(() => t.close())

  const genders = (profiles: { gender: string }[]) => [...new Set(profiles.map((p) => p.gender))]

  async function showcase(host: string) {
    const res = await send(app, '/api/showcase.php', { base: base(host) })
    return ShowcaseResponse.parse(await res.json()).profiles
  }
  async function landers(host: string) {
    const res = await send(app, '/api/lander_members.php', { base: base(host) })
    expect(res.status).toBe(200)
    return LanderMembersResponse.parse(await res.json()).members
  }
  async function searchAs(host: string, cookie: string, query = '') {
    const res = await send(app, `/api/search.php${query}`, { base: base(host), cookie })
    expect(res.status).toBe(200)
    return SearchResponse.parse(await res.json())
  }

  it('the gay site (niche 7) shows guests men: home showcase and landers', async () => {
    const shown = await showcase('gay.localhost')
    expect(shown.length).toBeGreaterThan(0)
    expect(genders(shown)).toEqual(['male'])
    expect(genders(await landers('gay.localhost'))).toEqual(['male'])
  })

  it('the gay site searches men for a man (men seeking men) and a woman', async () => {
    const forMan = await searchAs('gay.localhost', man)
    expect(forMan.filters.gender).toBe('male')
    expect(genders(forMan.profiles)).toEqual(['male'])
    expect((await searchAs('gay.localhost', woman)).filters.gender).toBe('male')
  })

  it('the women-for-women site (niche 2) shows women to everyone', async () => {
    expect(genders(await showcase('women.localhost'))).toEqual(['female'])
    expect(genders(await landers('women.localhost'))).toEqual(['female'])
    expect((await searchAs('women.localhost', woman)).filters.gender).toBe('female')
  })

  it('the general site and niche 3 show the other gender, a guest women', async () => {
    expect(genders(await showcase('localhost'))).toEqual(['female'])
    expect(genders(await showcase('bdsm.localhost'))).toEqual(['female'])
    expect((await searchAs('localhost', man)).filters.gender).toBe('female')
    expect((await searchAs('bdsm.localhost', man)).filters.gender).toBe('female')
    expect((await searchAs('bdsm.localhost', woman)).filters.gender).toBe('male')
  })

  it('the milf site (niche 6) shows women, and men to a woman', async () => {
    expect(genders(await showcase('milf.localhost'))).toEqual(['female'])
    expect((await searchAs('milf.localhost', man)).filters.gender).toBe('female')
    expect((await searchAs('milf.localhost', woman)).filters.gender).toBe('male')
  })

  it('an explicit search still wins over the niche', async () => {
    const res = await searchAs('gay.localhost', man, '?gender=female&manual_search=1&do_not_save=1')
    expect(res.filters.gender).toBe('female')
  })
})
