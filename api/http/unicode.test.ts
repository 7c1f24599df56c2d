// Text that is not well-formed Unicode (a lone UTF-16 surrogate, which JSON
// can carry as "\ud800" and UTF-8 cannot) is refused with a 400 naming the
// field, by one check over every validated input (api/http/validate.ts);
// stored in a jsonb column it was a 500 (PostgreSQL 22P02).
import { count } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members } from '../../db/schema/index.ts'
import { ApiError } from '../contract/index.ts'
import { type AccountsApi, accountsApi, ip, signUp, signupBody } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { malformedTextPath } from './validate.ts'

const LONE_HIGH = '\uD800'
const LONE_LOW = 'x\uDC00y'

it('malformedTextPath finds a lone surrogate in values and keys, not in pairs', () => {
  expect(malformedTextPath({ a: 'ok 😀', b: ['fine', { c: `bad ${LONE_HIGH}` }] })).toBe('b.1.c')
  expect(malformedTextPath({ a: LONE_LOW })).toBe('a')
  expect(malformedTextPath({ notes: { [`k${LONE_HIGH}`]: 'v' } })).toBe('notes')
  expect(malformedTextPath({ a: '😀', b: '\uD83D\uDE00' })).toBeNull()
  expect(malformedTextPath(LONE_HIGH)).toBe('')
})

it('malformedTextPath finds a NUL character, which PostgreSQL text and jsonb cannot store', () => {
  expect(malformedTextPath({ endpoint: '\u0000' })).toBe('endpoint')
  expect(malformedTextPath({ a: ['ok', 'x\u0000y'] })).toBe('a.1')
  expect(malformedTextPath({ 'k\u0000': 'v' })).toBe('')
})

describeEngines('lone surrogates on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let cookie: string
  let client = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
    api = accountsApi(t.db)
    const member = await addMember(t.db, { email: 'unicode@example.com' })
    cookie = await login(api.app, member.email, TEST_PASSWORD)
  })
  afterAll(async () => {
    await api.mailer.idle()
    await t.close()
  })

  const refused = async (res: Response, field: string) => {
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json())).toMatchObject({ error: 'invalid_input', field })
  }

  const signupCases: [string, Record<string, unknown>][] = [
    ['form_path', { form_path: `/signup${LONE_HIGH}` }],
    ['referrer', { referrer: `https://ref.example/${LONE_LOW}` }],
    ['token', { token: LONE_HIGH }],
    ['n', { n: LONE_LOW }],
    ['csrf', { csrf: LONE_HIGH }],
    ['trafficsource.network', { trafficsource: { network: LONE_HIGH } }],
    ['trafficsource.sub2', { trafficsource: { network: 'aff', sub2: LONE_LOW } }],
    ['name', { name: `Ann${LONE_HIGH}` }],
    ['password', { password: `a long enough secret ${LONE_HIGH}` }],
    ['profile.notes.looking_for', { profile: { notes: { looking_for: LONE_LOW } } }],
    ['profile.personal', { profile: { personal: LONE_HIGH } }],
  ]
  for (const [field, over] of signupCases) {
    it(`sign-up refuses a lone surrogate in ${field} with 400 naming it`, async () => {
      const before = await t.db.select({ n: count() }).from(members)
      const { res } = await signUp(api.app, signupBody(over), { headers: ip(++client) })
      await refused(res, field)
      expect(await t.db.select({ n: count() }).from(members)).toEqual(before)
    })
  }

  const updateCases: [string, Record<string, unknown>][] = [
    ['profile.notes.looking_for', { profile: { notes: { looking_for: `hi ${LONE_HIGH}` } } }],
    ['profile.notes', { profile: { notes: { [`looking_for${LONE_LOW}`]: 'hi' } } }],
    ['profile.name', { profile: { name: `Ann${LONE_LOW}` } }],
    ['city', { country: 'NL', city: `Utrecht${LONE_HIGH}` }],
  ]
  for (const [field, body] of updateCases) {
    it(`PUT user.php refuses a lone surrogate in ${field} with 400 naming it`, async () => {
      const res = await send(api.app, '/api/user.php', { method: 'PUT', cookie, body })
      await refused(res, field)
    })
  }

  it('keeps well-formed text outside the BMP as written', async () => {
    const res = await send(api.app, '/api/user.php', {
      method: 'PUT',
      cookie,
      body: { profile: { notes: { looking_for: 'coffee ☕ and 🦄' } } },
    })
    expect(res.status).toBe(200)
    expect((await res.json()).account.notes).toEqual({ looking_for: 'coffee ☕ and 🦄' })
  })
})
