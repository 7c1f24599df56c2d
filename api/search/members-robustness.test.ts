// Malformed input to the member endpoints (likes, profile, chat start,
// webcams and their clicks) must get a 4xx in the JSON error shape, never a
// 500: send() asserts status < 500 on every request, and each case here also
// checks the status and the error body.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { camsFromEnv } from '../cams/routes.ts'
import { ApiError } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, type SendOptions, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

const STRANGE_STRINGS = [
  '',
  ' ',
  'x'.repeat(100_000),
  '🦄💔'.repeat(100),
  '\u202Eevil\u202C',
  'a\u0000b',
  "' OR 1=1 --",
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '__proto__',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '1e3',
  '99999999999999999999999',
]
const STRANGE_VALUES: unknown[] = [
  ...STRANGE_STRINGS,
  null,
  0,
  -1,
  1.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  [],
  [1],
  {},
  { $gt: 0 },
]
const STRANGE_BODIES: unknown[] = [
  null,
  [],
  'null',
  '"text"',
  '{"profile": 1',
  '{"__proto__": {"profile": 1}, "client_id": "x"}',
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  'x'.repeat(1_000_000),
]

describeEngines('member endpoints with malformed input on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let her: MemberRow
  let cookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db, cams: camsFromEnv({}) })
    me = await addMember(database.db, { gender: 'male' })
    her = await addMember(database.db)
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  /** A 4xx in the API's error shape (send() has already ruled out a 5xx). */
  const expectClientError = async (res: Response, what: string, statuses = [400]) => {
    expect(statuses, what).toContain(res.status)
    expect(ApiError.safeParse(await res.json()).success, what).toBe(true)
  }
  const label = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 60)

  it('likes.php answers every malformed body with 400', async () => {
    const bodies = [
      ...STRANGE_BODIES,
      ...STRANGE_VALUES.flatMap((v) => [
        { profile: v, client_id: randomUUID() },
        { profile: her.id, client_id: v },
      ]),
    ]
    for (const method of ['POST', 'DELETE', 'PUT'] as const) {
      for (const body of bodies) {
        const res = await send(app, '/api/likes.php', { method, body, cookie })
        // PUT ignores client_id, so { profile: her.id, client_id: junk } is a
        // well-formed PUT of a like that does not exist. Bodies over the JSON
        // limit (api/app.ts) get 413.
        await expectClientError(res, `${method} ${label(body)}`, [400, 404, 413])
      }
    }
  })

  it('likes.php refuses bodies that are not JSON with 415', async () => {
    const body = JSON.stringify({ profile: her.id, client_id: randomUUID() })
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      null,
    ]) {
      const res = await send(app, '/api/likes.php', { method: 'POST', body, contentType, cookie })
      await expectClientError(res, String(contentType), [415])
    }
  })

  // Ids and accounts are lookup keys: a value that parses (e.g. " 7 ") finds a
  // member or not (200/404), a webcam account redirects or is unknown (302/404);
  // anything that does not parse is a 400 naming the parameter. Never a 5xx.
  it('profile.php, chat.php and xcams answer unparseable parameters with 400 naming them, lookups with 200/302/404', async () => {
    const cases: [string, string, SendOptions][] = [
      ['/api/profile.php', 'id', {}],
      ['/api/profile.php', 'id', { cookie }],
      ['/api/chat.php', 'profile', { cookie }],
      ['/api/xcams/search.php', 'gender', { cookie }],
      ['/api/xcams/search.php', 'min_age', { cookie }],
      ['/api/xcams/search.php', 'max_age', { cookie }],
      ['/api/xcams/redirect.php', 'account', {}],
      ['/api/resellpartner.php', 'flow', {}],
    ]
    for (const [path, key, options] of cases) {
      for (const value of STRANGE_STRINGS) {
        const query = new URLSearchParams({ [key]: value })
        if (path === '/api/resellpartner.php') query.set('redirect', '1')
        const res = await send(app, `${path}?${query}`, options)
        const what = `${path}?${key}=${value.slice(0, 30)}`
        if (res.status === 200 || res.status === 302 || res.status === 404) continue
        expect(res.status, what).toBe(400)
        expect(ApiError.parse(await res.json()).field, what).toBe(key)
      }
    }
    for (const path of [
      '/api/profile.php?id=1&id=2',
      '/api/profile.php?id[]=1',
      '/api/chat.php?profile=1&profile=x',
      '/api/xcams/search.php?min_age=20&min_age=x',
      '/api/xcams/redirect.php?account[]=a',
      '/api/resellpartner.php?flow=profile-search&flow=x&redirect=1',
      '/api/profile.php?%',
      '/api/chat.php?&&&=',
    ]) {
      const res = await send(app, path, { cookie })
      if (![200, 302].includes(res.status)) await expectClientError(res, path, [400, 404])
    }
  })

  it('answers malformed session cookies with 403 on required endpoints, as a guest on profile.php', async () => {
    const cookies = ['sid', 'sid=', 'sid=%ZZ', `sid=${'A'.repeat(10_000)}`, 'sid=a; sid=b', ';;;']
    for (const c of cookies) {
      for (const [path, options] of [
        ['/api/likes.php', {}],
        ['/api/likes.php', { method: 'POST', body: { profile: her.id, client_id: randomUUID() } }],
        [`/api/chat.php?profile=${her.id}`, {}],
        ['/api/xcams/search.php', {}],
      ] as [string, SendOptions][]) {
        const res = await send(app, path, { ...options, cookie: c })
        await expectClientError(res, `${path} with ${c.slice(0, 20)}`, [403])
      }
      const res = await send(app, `/api/profile.php?id=${her.id}`, { cookie: c })
      expect(res.status).toBe(200)
    }
  })

  it('refuses methods the endpoints do not have with a 404, not a 500', async () => {
    for (const [path, method] of [
      ['/api/profile.php?id=1', 'POST'],
      ['/api/chat.php?profile=1', 'POST'],
      ['/api/xcams/search.php', 'DELETE'],
    ] as const) {
      const res = await send(app, path, { method, body: {}, cookie })
      expect(res.status, `${method} ${path}`).toBe(404)
    }
  })
})
