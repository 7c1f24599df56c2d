// Malformed search parameters (docs/search.md): every shape is
// either a 400 naming the parameter or a documented normalisation. The table
// covers arrays for scalars, huge, negative and fractional numbers, other
// notations, unicode and empty values, per parameter.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMembers, TEST_PASSWORD } from '../test/seed.ts'

/** [query, the field a 400 names] */
const REFUSED: [string, string][] = [
  ['page=0', 'page'],
  ['page=-1', 'page'],
  ['page=1.5', 'page'],
  ['page=1e3', 'page'],
  ['page=0x10', 'page'],
  ['page=99999999999999999999', 'page'],
  ['page=', 'page'],
  ['page=%EF%BC%91', 'page'],
  ['page=1&page=2', 'page'],
  ['pp=0', 'pp'],
  ['pp=49', 'pp'],
  ['pp=abc', 'pp'],
  ['pp=1&pp=2', 'pp'],
  ['min_age=17', 'min_age'],
  ['min_age=-30', 'min_age'],
  ['min_age=30.5', 'min_age'],
  ['min_age=3e1', 'min_age'],
  ['min_age=0x1E', 'min_age'],
  ['min_age=%2030', 'min_age'],
  ['min_age=', 'min_age'],
  ['min_age=%D9%A3%D9%A0', 'min_age'],
  ['min_age=30&min_age=40', 'min_age'],
  ['max_age=101', 'max_age'],
  ['max_age=1e400', 'max_age'],
  ['max_age=Infinity', 'max_age'],
  ['min_age=50&max_age=40', 'min_age'],
  ['gender=robot', 'gender'],
  ['gender=', 'gender'],
  ['gender=female&gender=male', 'gender'],
  ['gender=F%C3%A9male', 'gender'],
  ['country=NLD', 'country'],
  ['country=N', 'country'],
  ['country=', 'country'],
  ['country=%C3%91L', 'country'],
  ['country=NL&country=BE', 'country'],
  ['countryregion=x'.padEnd(40, 'x'), 'countryregion'],
  ['countryregion=NL-%F0%9F%98%80', 'countryregion'],
  ['countryregion=NL-NH&countryregion=NL-ZH', 'countryregion'],
  ['manual_search=yes', 'manual_search'],
  ['manual_search=1&manual_search=0', 'manual_search'],
  ['do_not_save=2', 'do_not_save'],
  ['auto_load=', 'auto_load'],
  ['hideNudity=on', 'hideNudity'],
  ['searchAllCountries=TRUE', 'searchAllCountries'],
  ['source=a&source=b', 'source'],
  [`source=${'s'.repeat(65)}`, 'source'],
  [`trafficsource=${'t'.repeat(65)}`, 'trafficsource'],
]

/** Accepted on purpose (docs/search.md): [query, why]. */
const NORMALISED: [string, string][] = [
  ['country=nl', 'a country code in lower case is upper-cased'],
  ['page=0001', 'leading zeros are decimal digits'],
  ['source=%F0%9F%98%80%20any%20label', 'source is a label passed through, any text up to 64'],
  ['unknown_param=1', 'parameters the spec does not name are ignored'],
]

describeEngines('malformed search parameters on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let cookie: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const [me] = await addMembers(t.db, [{ gender: 'male' }, {}])
    cookie = await login(app, me!.email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  it.each(REFUSED)('refuses %s with 400 naming %s', async (query, field) => {
    const res = await send(app, `/api/search.php?${query}`, { cookie })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'invalid_input', field })
  })

  it.each(NORMALISED)('accepts %s: %s', async (query) => {
    const res = await send(app, `/api/search.php?${query}`, { cookie })
    expect(res.status).toBe(200)
  })
})
