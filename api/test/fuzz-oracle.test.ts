// The fuzzer's own rules (api/test/fuzz.ts), checked on their own: what it
// generates for an id field, that a 2xx for something that is not an id is a
// rule broken, and the one write a refused request may make (the unlock
// mail of a login refused with 429), so that its report holds no false alarm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { endpoints } from '../contract/endpoints.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { describeEngines, freshDatabase, type TestDatabase } from './databases.ts'
import {
  casesFor,
  FUZZED,
  fuzz,
  installChangeCounter,
  junkIdFields,
  refusalProblem,
  sessionCookie,
  takeChanges,
} from './fuzz.ts'
import { send } from './http.ts'
import { addMember, type MemberRow } from './seed.ts'

describe('id fields in the fuzzer', () => {
  const ids = [7, 12]
  const bodyCase = (body: unknown) => ({ query: [], body, signedIn: true })
  const queryCase = (query: [string, string][]) => ({ query, body: undefined, signedIn: true })

  it('generates id-shaped junk for an id field: booleans, one-element arrays, hex and exponent strings, other scripts’ digits, unsafe integers', () => {
    const sent = casesFor(endpoints.block, ids, 2000, 11).map(
      (c) => (c.body as { profile?: unknown } | undefined)?.profile,
    )
    const kinds = {
      boolean: sent.some((v) => typeof v === 'boolean'),
      'one-element array': sent.some((v) => Array.isArray(v) && v.length === 1),
      hex: sent.some((v) => typeof v === 'string' && /^0x[0-9a-f]+$/.test(v)),
      exponent: sent.some((v) => typeof v === 'string' && /^[0-9]+[eE][+-]?[0-9]+$/.test(v)),
      'non-ASCII digits': sent.some(
        (v) => typeof v === 'string' && /^\p{Nd}+$/u.test(v) && !/[0-9]/.test(v),
      ),
      'unsafe integer': sent.some((v) => typeof v === 'number' && v > Number.MAX_SAFE_INTEGER),
      'a real id': sent.some((v) => v === 7 || v === '12'),
    }
    expect(Object.entries(kinds).filter(([, seen]) => !seen)).toEqual([])
    // In a query string a one-element array is one parameter, a real id: the junk is a repeated one.
    const repeated = casesFor(endpoints.profile, ids, 2000, 11).some(
      (c) => c.query.filter(([k]) => k === 'id').length > 1,
    )
    expect(repeated).toBe(true)
  })

  it('names the id fields of a request that hold something that is not an id, as sent', () => {
    for (const bad of [true, [3], ['3'], '0x5', '1e1', '٣', -1, 0, 1.5, 2 ** 53, '', null, ' 3']) {
      expect(
        junkIdFields(endpoints.block, bodyCase({ profile: bad })),
        JSON.stringify(bad),
      ).toEqual(['profile'])
    }
    for (const good of [3, '3', Number.MAX_SAFE_INTEGER]) {
      expect(junkIdFields(endpoints.block, bodyCase({ profile: good }))).toEqual([])
    }
    // An optional id left out is no junk; a report's `message` id is checked like `profile`.
    expect(junkIdFields(endpoints.report, bodyCase({ profile: 3, reason: 'spam' }))).toEqual([])
    expect(
      junkIdFields(endpoints.report, bodyCase({ profile: 3, message: 'x', reason: 'spam' })),
    ).toEqual(['message'])
    for (const bad of [['0x5'], ['1e1'], ['٣'], ['-1'], ['0'], [''], ['3', '3']]) {
      const query = bad.map((v) => ['id', v] as [string, string])
      expect(junkIdFields(endpoints.profile, queryCase(query)), bad.join('&')).toEqual(['id'])
    }
    expect(junkIdFields(endpoints.profile, queryCase([['id', '3']]))).toEqual([])
  })
})

describeEngines('the fuzzer’s oracle on %s', (engine) => {
  let database: TestDatabase
  let jobs: JobRunner
  let app: Api
  let member: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    jobs = createJobRunner({ db: database.db, handlers: {} })
    app = createApi({ db: database.db, jobs })
    member = await addMember(database.db)
    await installChangeCounter(database.db)
  })
  afterAll(() => database?.close())

  it('counts a 2xx for something that is not an id in an id field as a rule broken', async () => {
    // A server that takes any profile, as one that coerced `true` to member 1 did.
    const lenient = {
      request: async () => Response.json({ profile: 1, blocked: true }),
    } as unknown as Api
    const index = FUZZED.findIndex(([name]) => name === 'block')
    const stats = await fuzz(lenient, database.db, {
      perEndpoint: 200,
      seed: 11,
      ids: [member.id],
      cookie: () => sessionCookie(database.db, member.id),
      jobs,
      shard: { index, count: FUZZED.length },
    })
    const problems = new Set(stats.failures.map((f) => f.problem))
    expect([...problems]).toEqual(['2xx with profile not an id'])
  })

  it('lets a login refused with 429 store the unlock mail, and nothing else', async () => {
    const login = () =>
      send(app, '/api/login.php', {
        method: 'POST',
        body: { email: member.email, password: 'not the password' },
      })
    // The first ten wrong passwords are refused (401) and write nothing.
    for (let i = 0; i < 10; i++) {
      expect((await login()).status).toBe(401)
      await jobs.idle()
      expect(await takeChanges(database.db)).toEqual([])
    }
    // The eleventh locks the account: the owner is mailed an unlock link, and the mail is sent.
    expect((await login()).status).toBe(429)
    await jobs.idle()
    const unlockMail = await takeChanges(database.db)
    expect(unlockMail.map((c) => `${c.op} ${c.tbl}`)).toEqual(
      expect.arrayContaining([
        'INSERT account_tokens',
        'INSERT mails',
        'INSERT jobs',
        'UPDATE mails',
      ]),
    )
    expect(refusalProblem('login', 429, unlockMail)).toBeNull()
    // The same writes on any other refusal, or with one row more, or twice, break the rule.
    const extra = { tbl: 'likes', op: 'INSERT' as const, old: null, new: { liker_id: member.id } }
    const mailAgain = unlockMail.filter((c) => c.tbl === 'mails' && c.op === 'INSERT')
    for (const [endpoint, status, changes] of [
      ['login', 401, unlockMail],
      ['login', 400, unlockMail],
      ['signup', 429, unlockMail],
      ['login', 429, [...unlockMail, extra]],
      ['login', 429, [...unlockMail, ...mailAgain]],
      ['login', 429, unlockMail.filter((c) => c.tbl !== 'account_tokens')],
    ] as const) {
      expect(refusalProblem(endpoint, status, [...changes]), `${endpoint} ${status}`).toMatch(
        /^refused with \d+ but changed the database/,
      )
    }
    // A changed mail (another address) is not the delivery of that mail.
    const readdressed = unlockMail.map((c) =>
      c.tbl === 'mails' && c.op === 'UPDATE'
        ? { ...c, new: { ...c.new, to: 'x@evil.example' } }
        : c,
    )
    expect(refusalProblem('login', 429, readdressed)).not.toBeNull()
    // The next refusals of the window mail nothing.
    expect((await login()).status).toBe(429)
    await jobs.idle()
    expect(await takeChanges(database.db)).toEqual([])
  })
})
