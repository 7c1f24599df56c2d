// Malformed input of every kind must get a 4xx answer in the JSON error
// shape, never a 500: the send() helper asserts status < 500 on each request.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { type EndpointDef, endpoints } from '../contract/endpoints.ts'
import { ApiError } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, type SendOptions, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

const HUGE = 'x'.repeat(1_000_000)
const STRANGE_STRINGS = [
  '',
  ' ',
  HUGE,
  '🦄💔'.repeat(100),
  'ﷺ\u202Eevil\u202C',
  'a\u0000b',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '__proto__',
]
const STRANGE_VALUES: unknown[] = [
  ...STRANGE_STRINGS,
  null,
  0,
  -1,
  1e308,
  true,
  [],
  ['a@b.c'],
  {},
  { $gt: '' },
]

const LOGIN_BODIES: unknown[] = [
  ...STRANGE_VALUES.flatMap((v) => [
    { email: v, password: TEST_PASSWORD },
    { email: 'a@b.c', password: v },
  ]),
  null,
  [],
  'null',
  '[]',
  '"string"',
  '{"email": "a@b.c", "password": "x"',
  '{"__proto__": {"email": "a@b.c"}, "password": "x"}',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  HUGE,
]

const SEARCH_KEYS = [
  'page',
  'pp',
  'min_age',
  'max_age',
  'gender',
  'country',
  'countryregion',
  'manual_search',
  'do_not_save',
  'source',
  'trafficsource',
]
/**
 * `source` and `trafficsource` are labels the client passes through (spec §7):
 * the search never interprets them beyond "a traffic source is present", so
 * any text is accepted as is (docs/search.md, "Search parameters").
 */
const FREE_TEXT_SEARCH_KEYS = ['source', 'trafficsource']
const SEARCH_VALUES = [
  ...STRANGE_STRINGS.filter((s) => s.length < 1000),
  'x'.repeat(10_000),
  'NaN',
  'Infinity',
  '-0',
  '1e3',
  '0x10',
  '99999999999999999999999',
]

const COOKIES = [
  'sid',
  'sid=',
  'sid=%',
  'sid=%ZZ',
  'sid="unterminated',
  `sid=${'A'.repeat(100_000)}`,
  'sid=a; sid=b',
  ';;;',
  '=',
  'sid=%F0%9F%A6%84',
  'sid=\u00e9',
]

const ORIGINS = [
  'null',
  'http://[',
  '',
  'http://',
  '://',
  'localhost',
  `http://${'a'.repeat(10_000)}`,
]

describeEngines('malformed input on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male' })
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  /** A 4xx in the API's error shape (send() has already ruled out a 5xx). */
  const expectClientError = async (res: Response, what: string) => {
    expect(res.status, what).toBeGreaterThanOrEqual(400)
    expect(ApiError.safeParse(await res.json()).success, what).toBe(true)
  }

  it('login answers 400 to malformed bodies', async () => {
    for (const body of LOGIN_BODIES) {
      const what = JSON.stringify(body)?.slice(0, 80) ?? String(body)
      const res = await send(app, '/api/login.php', { method: 'POST', body })
      // 401 where the odd value is still a well-formed string (no such
      // member); 413 for a body over the JSON limit (api/app.ts).
      expect([400, 401, 413], what).toContain(res.status)
      await expectClientError(res, what)
    }
  })

  it('login survives odd content types', async () => {
    for (const contentType of [
      'text/plain',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      null,
    ]) {
      const res = await send(app, '/api/login.php', {
        method: 'POST',
        body: 'email=a%40b.c&password=x',
        contentType,
      })
      await expectClientError(res, String(contentType))
    }
  })

  it('search refuses every malformed parameter with 400 naming it; only the free-text labels pass', async () => {
    for (const key of SEARCH_KEYS) {
      for (const value of SEARCH_VALUES) {
        const query = new URLSearchParams({ [key]: value })
        const res = await send(app, `/api/search.php?${query}`, { cookie })
        const body = await res.json()
        if (
          FREE_TEXT_SEARCH_KEYS.includes(key) &&
          value.length <= 64 &&
          !value.includes('\u0000')
        ) {
          // Documented normalisation (docs/search.md): opaque labels of at most 64
          // characters, never interpreted; a NUL is refused everywhere
          // (PostgreSQL text cannot store it).
          expect(res.status, query.toString()).toBe(200)
          continue
        }
        expect(res.status, query.toString()).toBe(400)
        expect(ApiError.parse(body).field, query.toString()).toBe(key)
      }
    }
    // Repeated and array-style parameters.
    for (const query of [
      'page=1&page=2',
      'gender[]=male',
      'gender=male&gender=female',
      '&&&=',
      '%',
    ]) {
      const res = await send(app, `/api/search.php?${query}`, { cookie })
      if (res.status !== 200) await expectClientError(res, query)
    }
  })

  it('every endpoint answers malformed cookies with 403, never more', async () => {
    const endpoints: [string, SendOptions][] = [
      ['/api/user.php', {}],
      ['/api/chats.php', {}],
      ['/api/search.php', {}],
      ['/api/page-hidden.php', { method: 'POST', body: {} }],
      ['/api/logout.php', {}],
    ]
    for (const [path, options] of endpoints) {
      for (const c of COOKIES) {
        const res = await send(app, path, { ...options, cookie: c })
        const what = `${path} with ${c.slice(0, 40)}`
        if (path === '/api/logout.php') expect(res.status, what).toBe(200)
        else await expectClientError(res, what)
      }
    }
  })

  it('refuses odd Origin headers on state-changing requests, and nothing breaks', async () => {
    for (const origin of ORIGINS) {
      for (const [path, body] of [
        ['/api/login.php', { email: me.email, password: TEST_PASSWORD }],
        ['/api/page-hidden.php', {}],
      ] as const) {
        const res = await send(app, path, { method: 'POST', body, cookie, origin })
        expect(res.status, `${path} from ${origin.slice(0, 40)}`).toBe(403)
      }
      // Safe methods are not checked: a GET cannot change anything.
      expect((await send(app, '/api/user.php', { cookie, origin })).status).toBe(200)
    }
  })

  it('answers odd methods and paths with 404 (no such endpoint); normalised paths reach the endpoint', async () => {
    for (const [method, path, status] of [
      ['PUT', '/api/login.php', 404],
      ['DELETE', '/api/chats.php', 404],
      ['OPTIONS', '/api/login.php', 404],
      ['GET', '/api/login.php', 404],
      ['POST', '/api/logout.php', 404],
      ['GET', `/api/${'a'.repeat(10_000)}`, 404],
      ['GET', '/api/%ZZ', 404],
      // The URL parser resolves dot segments and a stray % is a literal: these
      // are the user endpoint, answered as such (HEAD as the GET without a body).
      ['HEAD', '/api/user.php', 200],
      ['GET', '/api/../api/user.php', 200],
      ['GET', '/api/user.php?%', 200],
    ] as const) {
      const res = await send(app, path, { method, cookie })
      expect(res.status, `${method} ${path.slice(0, 40)}`).toBe(status)
    }
  })

  it('runs no GET with effects for a HEAD: every such endpoint answers 405, and a HEAD of logout keeps the session', async () => {
    const withEffects = (Object.entries(endpoints) as [string, EndpointDef][]).filter(
      ([, e]) => e.method === 'GET' && e.effects,
    )
    expect(withEffects.map(([name]) => name)).toEqual(
      expect.arrayContaining(['logout', 'activate', 'accountExport', 'camRedirect']),
    )
    for (const [name, e] of withEffects) {
      const res = await send(app, e.path, { method: 'HEAD', cookie })
      expect(res.status, name).toBe(405)
      expect(res.headers.get('allow'), name).toBe('GET')
    }
    expect((await send(app, '/api/user.php', { cookie })).status, 'still signed in').toBe(200)
  })
})
