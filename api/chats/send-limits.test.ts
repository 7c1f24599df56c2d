// Per-member send limits on both databases (api/http/member-limits.ts): past
// the limit a new send answers 429 rate_limited with Retry-After and changes
// nothing (no message, no debit); an account younger than a day meets a
// tighter limit; a replay of a client id already sent is never counted nor
// refused. The API runs on a clock the tests move (AppDeps.now), set to the
// start of a whole hour, so no window ends in the middle of a test.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { ApiError, SendMessageResponse } from '../contract/index.ts'
import { balanceOf, ledgerSum } from '../credits/ledger.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { paidSender } from '../test/sender.ts'
import { addMember, type MemberRow } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'

/** The limits, pinned by value (LIMITS in api/http/ratelimit.ts). */
const PER_MINUTE = 20
const NEW_PER_MINUTE = 10
const NEW_PER_HOUR = 100
const COST = 10 // credits a message costs by default

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describeEngines('send limits on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let bob: MemberRow
  /** The API's clock: 5 s into a whole hour (so into a whole minute too). */
  const hourStart = Math.ceil(Date.now() / HOUR) * HOUR
  let now = hourStart + 5_000

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({
      db: database.db,
      now: () => new Date(now),
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    bob = await addMember(database.db, { name: 'Bob', gender: 'male' })
  })
  afterAll(() => database?.close())

  /** A sender who signed up `age` ms before the clock, with credits and a chat with Bob. */
  async function sender(age: number) {
    now = hourStart + 5_000
    return paidSender(app, database.db, bob, {
      credits: 1_000 * COST,
      signupDate: new Date(now - age),
    })
  }

  /** Sends `n` messages, each answered 201; their bodies and first answers. */
  async function sendMany(post: (text: string, id?: string) => Promise<Response>, n: number) {
    const sent: { text: string; id: string; answer: unknown }[] = []
    for (let i = 0; i < n; i++) {
      const text = `line ${i}`
      const id = randomUUID()
      const res = await post(text, id)
      expect(res.status, `message ${i + 1}`).toBe(201)
      sent.push({ text, id, answer: await res.json() })
    }
    return sent
  }

  async function expectRefused(res: Response, retryAfterS: number) {
    expect(res.status).toBe(429)
    expect(res.headers.get('Retry-After')).toBe(String(retryAfterS))
    expect(ApiError.parse(await res.json()).error).toBe('rate_limited')
  }

  it('refuses the 11th message in a minute of a new account with 429 and Retry-After, storing and debiting nothing', async () => {
    const { member, post, stored } = await sender(HOUR)
    await sendMany(post, NEW_PER_MINUTE)
    const balance = await balanceOf(database.db, member.id)
    expect(balance).toBe(1_000 * COST - NEW_PER_MINUTE * COST)

    await expectRefused(await post('one too many'), 55)
    expect(await stored()).toBe(NEW_PER_MINUTE)
    expect(await balanceOf(database.db, member.id)).toBe(balance)
    expect(await ledgerSum(database.db, member.id)).toBe(balance)

    // The next minute sends again.
    now += 55_000
    const res = await post('a minute later')
    expect(res.status).toBe(201)
    expect(SendMessageResponse.parse(await res.json()).credits).toBe(balance - COST)
  })

  it('lets an account older than a day send more than the new-account limit, up to its own', async () => {
    const { member, post, stored } = await sender(2 * DAY)
    await sendMany(post, PER_MINUTE)
    expect(PER_MINUTE).toBeGreaterThan(NEW_PER_MINUTE)
    const balance = await balanceOf(database.db, member.id)
    await expectRefused(await post('one too many'), 55)
    expect(await stored()).toBe(PER_MINUTE)
    expect(await balanceOf(database.db, member.id)).toBe(balance)
  })

  it('answers the replay of a sent client id with its first answer even past the limit, and counts it not', async () => {
    const { member, post, stored } = await sender(HOUR)
    const sent = await sendMany(post, NEW_PER_MINUTE - 1)
    // Replays before the limit is met use none of it.
    for (const first of sent.slice(0, 3))
      expect((await post(first.text, first.id)).status).toBe(200)
    expect((await post('the last one allowed')).status).toBe(201)
    await expectRefused(await post('over'), 55)

    const balance = await balanceOf(database.db, member.id)
    for (const first of sent) {
      const res = await post(first.text, first.id)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(first.answer)
    }
    // A reused id naming another message is still refused for what it is.
    expect((await post('not the same text', sent[0]!.id)).status).toBe(422)
    expect(await stored()).toBe(NEW_PER_MINUTE)
    expect(await balanceOf(database.db, member.id)).toBe(balance)
  })

  it(
    'refuses the 101st message in an hour of a new account until the hour ends',
    async () => {
      const { member, post, stored } = await sender(HOUR)
      for (let minute = 0; minute < NEW_PER_HOUR / NEW_PER_MINUTE; minute++) {
        now = hourStart + minute * MINUTE + 5_000
        await sendMany(post, NEW_PER_MINUTE)
      }
      now = hourStart + 10 * MINUTE + 5_000
      const balance = await balanceOf(database.db, member.id)
      await expectRefused(await post('one too many'), (HOUR - 10 * MINUTE - 5_000) / 1000)
      expect(await stored()).toBe(NEW_PER_HOUR)
      expect(await balanceOf(database.db, member.id)).toBe(balance)
    },
    scaled(60_000),
  )
})
