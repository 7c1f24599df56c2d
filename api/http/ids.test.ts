// Every id the API takes is read by one schema (api/contract/common.ts `Id`):
// a positive safe integer, as a JSON number or in ASCII digits. Anything else
// is a malformed request: 400 naming the field, and nothing stored. Before,
// ids were coerced: `{"profile": true}` blocked member 1, and `[3]`, "0x5",
// "1e1" were read as 3, 5 and 10 (docs/security.md).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { ApiError, ID_RULE } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { fingerprint, installChangeCounter } from '../test/fuzz.ts'
import { login, send } from '../test/http.ts'
import {
  addConversation,
  addMember,
  addMembers,
  type MemberRow,
  TEST_PASSWORD,
} from '../test/seed.ts'

/** Shapes of an id in a JSON body that are not one (each was once read as a number, or refused with a riddle). */
const BAD_BODY_IDS: unknown[] = [
  true,
  false,
  [3],
  ['3'],
  '0x5',
  '1e1',
  '٣',
  '３',
  ' 3',
  '+3',
  '-1',
  '3.0',
  -1,
  0,
  1.5,
  2 ** 53,
  '9007199254740993',
  '',
  null,
  {},
]

/** The same in a query string: only ASCII digits name an id there. */
const BAD_QUERY_IDS: string[][] = [
  ['true'],
  ['0x5'],
  ['1e1'],
  ['٣'],
  ['３'],
  [' 3'],
  ['+3'],
  ['-1'],
  ['0'],
  ['1.5'],
  [String(2 ** 53)],
  [''],
  // Repeated: two values are not an id.
  ['3', '3'],
]

describeEngines('ids in requests on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let others: MemberRow[]
  let cookie: string
  let conversation: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db, memberLimits: false })
    // Members 1 to 12 and conversations 1 to 11 exist (a fresh database counts
    // from 1), so an id misread as 1, 3, 5 or 10 names a real one of each.
    others = await addMembers(
      database.db,
      Array.from({ length: 11 }, () => ({})),
    )
    me = await addMember(database.db, { gender: 'male' })
    const mine: number[] = []
    for (const other of others) mine.push(await addConversation(database.db, me.id, other.id))
    conversation = mine[4]!
    cookie = await login(app, me.email, TEST_PASSWORD)
    await installChangeCounter(database.db)
  })
  afterAll(() => database?.close())

  const expectRefused = async (res: Response, field: string, what: string) => {
    expect(res.status, what).toBe(400)
    const error = ApiError.parse(await res.json())
    expect(error, what).toMatchObject({
      error: 'invalid_input',
      field,
      message: `${field}: ${ID_RULE}`,
    })
  }

  const BODY_ROUTES = [
    { method: 'POST', path: '/api/blocks.php', field: 'profile' },
    { method: 'DELETE', path: '/api/blocks.php', field: 'profile' },
    { method: 'POST', path: '/api/likes.php', field: 'profile' },
    { method: 'PUT', path: '/api/likes.php', field: 'profile' },
    { method: 'POST', path: '/api/typing.php', field: 'conversation' },
    { method: 'PUT', path: '/api/chat.php', field: 'conversation' },
  ] as const

  it('refuses an id in a JSON body that is not a positive whole number: 400 naming the field, nothing stored', async () => {
    for (const route of BODY_ROUTES) {
      for (const bad of BAD_BODY_IDS) {
        const what = `${route.method} ${route.path} ${JSON.stringify({ [route.field]: bad })}`
        const before = await fingerprint(database.db)
        const res = await send(app, route.path, {
          method: route.method,
          cookie,
          body: { [route.field]: bad },
        })
        await expectRefused(res, route.field, what)
        expect(await fingerprint(database.db), `${what} changed nothing`).toBe(before)
      }
    }
    // A real id still works, as a JSON number or in ASCII digits.
    const target = others[4]!.id
    for (const profile of [target, String(target)]) {
      for (const [method, path] of [
        ['POST', '/api/blocks.php'],
        ['DELETE', '/api/blocks.php'],
        ['POST', '/api/likes.php'],
        ['DELETE', '/api/likes.php'],
      ] as const) {
        const res = await send(app, path, { method, cookie, body: { profile } })
        expect(res.status, `${method} ${path} ${JSON.stringify({ profile })}`).toBe(200)
      }
    }
    for (const id of [conversation, String(conversation)]) {
      const res = await send(app, '/api/typing.php', {
        method: 'POST',
        cookie,
        body: { conversation: id },
      })
      expect(res.status, `typing ${JSON.stringify(id)}`).toBe(200)
    }
  })

  it('refuses an id in a query string that is not ASCII digits of a positive whole number: 400 naming the parameter, nothing stored', async () => {
    // chat.php makes the conversation on first use: a misread id would store one.
    const QUERY_ROUTES = [
      { path: '/api/chat.php', field: 'profile' },
      { path: '/api/profile.php', field: 'id' },
      { path: '/api/messages.php', field: 'conversation' },
    ]
    for (const route of QUERY_ROUTES) {
      for (const values of BAD_QUERY_IDS) {
        const query = new URLSearchParams(values.map((v) => [route.field, v])).toString()
        const what = `GET ${route.path}?${query}`
        const before = await fingerprint(database.db)
        const res = await send(app, `${route.path}?${query}`, { cookie })
        await expectRefused(res, route.field, what)
        expect(await fingerprint(database.db), `${what} changed nothing`).toBe(before)
      }
    }
    // A cursor of the messages page is a message id, read the same way.
    const res = await send(app, `/api/messages.php?conversation=${conversation}&after=0x5`, {
      cookie,
    })
    await expectRefused(res, 'after', 'after=0x5')
    // A real id in ASCII digits still works (leading zeros are digits of the same id).
    const target = others[4]!.id
    for (const path of [
      `/api/chat.php?profile=${target}`,
      `/api/profile.php?id=${target}`,
      `/api/profile.php?id=000${target}`,
      `/api/messages.php?conversation=${conversation}`,
      `/api/messages.php?conversation=${conversation}&after=1`,
    ]) {
      expect((await send(app, path, { cookie })).status, path).toBe(200)
    }
  })
})
