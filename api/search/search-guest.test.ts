// Spec §6: search for logged-out visitors, only where the operator allows it.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { siteSettings } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { SearchResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMembers } from '../test/seed.ts'

describeEngines('guest search on %s', (engine) => {
  let t: TestDatabase
  let app: Api

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    await addMembers(t.db, [
      { gender: 'female', country: 'NL' },
      { gender: 'female', country: 'NL' },
      { gender: 'male', country: 'NL' },
      { gender: 'female', country: 'FR' },
    ])
  })
  afterAll(() => t.close())

  const setting = (key: string, value: string) =>
    t.db
      .insert(siteSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value } })

  it('is refused (403) while logged-out search is off, as by default', async () => {
    expect((await send(app, '/api/search.php')).status).toBe(403)
    expect((await send(app, '/api/search.php?trafficsource=aff1')).status).toBe(403)
  })

  it('answers bad input with 400 before anything else', async () => {
    const res = await send(app, '/api/search.php?page=0')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: 'page' })
  })

  it('opens with a traffic source when logged_out_search_trafficsource allows it', async () => {
    await setting('logged_out_search_trafficsource', 'all')
    expect((await send(app, '/api/search.php')).status).toBe(403)
    const res = await send(app, '/api/search.php?trafficsource=aff1')
    expect(res.status).toBe(200)
    await setting('logged_out_search_trafficsource', 'none')
  })

  it('shows women in the operator’s country by default once logged_out_search is on', async () => {
    await setting('logged_out_search', 'all')
    const body = SearchResponse.parse(await (await send(app, '/api/search.php')).json())
    expect(body.filters).toMatchObject({ gender: 'female', country: 'NL' })
    expect(body.paging.num_results).toBe(2)
    expect(body.profiles.every((p) => p.gender === 'female' && p.country === 'NL')).toBe(true)
  })

  it('searches the country a guest asks for, and saves nothing', async () => {
    const res = await send(app, '/api/search.php?country=FR&manual_search=1')
    const body = SearchResponse.parse(await res.json())
    expect(body.profiles.map((p) => p.country)).toEqual(['FR'])
    expect((await send(app, '/api/search.php?country=XX')).status).toBe(400)
  })
})
