// Several sends in one statement (api/chats/send-batch.ts). First the
// gatherer's rules with runners that only record what they are given; then,
// on both databases through the API, that sends gathered into one statement
// answer as a lone send does: each stored and debited once with its own
// ledger row, a replay answered its first answer without a second debit,
// and each refusal (no credits, a block, a conversation not the member's,
// the pace) the sender's own while the others of the batch go.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Api, createApi } from '../app.ts'
import type { SendGathering } from '../config.ts'
import { setBlock } from '../blocks/index.ts'
import { SendMessageResponse } from '../contract/index.ts'
import { balanceOf, ledgerSum } from '../credits/ledger.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login } from '../test/http.ts'
import { sendStatements } from '../http/metrics.ts'
import { countTrips } from '../test/round-trips.ts'
import { paidSender, type Sender } from '../test/sender.ts'
import { startChat } from '../test/chat-pair.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { type SendRunners, sendGatherer } from './send-batch.ts'

/** Credits a message costs by default (spec constant). */
const COST = 10
/** Sends a member of more than a day may make in a minute (api/http/ratelimit.ts LIMITS). */
const PER_MINUTE = 20
const HOUR = 3_600_000

/**
 * The gathering of these tests: one statement at work, 32 sends at most,
 * nothing stalls within the file, no wait for company; `change` overrides.
 */
const gathering = (change: Partial<SendGathering> = {}): SendGathering => ({
  inFlight: 1,
  most: 32,
  stallMs: HOUR,
  waitMs: 0,
  ...change,
})

describe('the send gatherer', () => {
  type P = { id: string; session: string; conversation: number }
  /** Runners that hold each statement until `finish` and record what ran. */
  function recording(fail = false) {
    const ran: string[][] = []
    const open: (() => void)[] = []
    const hold = () => new Promise<void>((resolve) => open.push(resolve))
    const runners: SendRunners<P, string> = {
      alone: async (p) => {
        ran.push([p.id])
        await hold()
        return `alone ${p.id}`
      },
      together: async (ps) => {
        ran.push(ps.map((p) => p.id))
        await hold()
        if (fail) throw new Error('the batch failed')
        return ps.map((p) => ({ result: `together ${p.id}` }))
      },
      keys: (p) => [`s:${p.session}`, `c:${p.conversation}`],
      afterAgain: (r) => r,
    }
    /** Lets every statement at work answer, then waits for the gatherer to start the next. */
    const finish = async () => {
      for (const f of open.splice(0)) f()
      await new Promise((r) => setImmediate(r))
    }
    return { ran, runners, finish }
  }
  const p = (id: string, session = id, conversation = Number(id.slice(1))): P => ({
    id,
    session,
    conversation,
  })

  it('sends alone while fewer statements than inFlight are at work', async () => {
    const { ran, runners, finish } = recording()
    const gather = sendGatherer(runners)
    const answers = [
      gather(p('s1'), gathering({ inFlight: 2 })),
      gather(p('s2'), gathering({ inFlight: 2 })),
    ]
    await finish()
    expect(await Promise.all(answers)).toEqual(['alone s1', 'alone s2'])
    expect(ran).toEqual([['s1'], ['s2']])
  })

  it('gathers the sends that come while inFlight statements work, none twice a session or conversation', async () => {
    const { ran, runners, finish } = recording()
    const gather = sendGatherer(runners)
    const g = gathering({ most: 3 })
    const answers = [
      gather(p('s1'), g),
      // s1's session again (a second tab): not while s1 is at work.
      gather(p('s5', 's1', 5), g),
      gather(p('s2'), g),
      // s2's conversation (the other member answering): not in s2's batch.
      gather(p('s6', 's6', 2), g),
      gather(p('s3'), g),
      gather(p('s4'), g),
    ]
    expect(ran).toEqual([['s1']])
    await finish()
    // At most three; s5 waited for s1's statement, s6 may not join s2.
    expect(ran).toEqual([['s1'], ['s5', 's2', 's3']])
    await finish()
    expect(ran).toEqual([['s1'], ['s5', 's2', 's3'], ['s6', 's4']])
    await finish()
    expect(await Promise.all(answers)).toEqual([
      'alone s1',
      'together s5',
      'together s2',
      'together s6',
      'together s3',
      'together s4',
    ])
  })

  it('runs each send of a failed batch alone', async () => {
    const { ran, runners, finish } = recording(true)
    const gather = sendGatherer(runners)
    const g = gathering()
    const answers = [gather(p('s1'), g), gather(p('s2'), g), gather(p('s3'), g)]
    await finish()
    await finish()
    await finish()
    expect(await Promise.all(answers)).toEqual(['alone s1', 'alone s2', 'alone s3'])
    expect(ran).toEqual([['s1'], ['s2', 's3'], ['s2'], ['s3']])
  })

  it('sends alone after its batch a send the batch left for later, with the session renewal it got', async () => {
    const ran: string[][] = []
    const gather = sendGatherer<P, string>({
      alone: async (q) => {
        ran.push([q.id])
        return `alone ${q.id}`
      },
      together: async (ps) => {
        ran.push(ps.map((q) => q.id))
        return ps.map((q, i) =>
          i === 0 ? { result: `together ${q.id}` } : { again: { touched: true } },
        )
      },
      keys: (q) => [q.session],
      afterAgain: (r, again) => `${r}${again.touched ? ', renewed' : ''}`,
    })
    const g = gathering()
    const answers = await Promise.all([gather(p('s1'), g), gather(p('s2'), g), gather(p('s3'), g)])
    expect(answers).toEqual(['alone s1', 'together s2', 'alone s3, renewed'])
    expect(ran).toEqual([['s1'], ['s2', 's3'], ['s3']])
  })

  it('lets the waiting sends go beside a statement stalled past stallMs, but not with its keys', async () => {
    const ran: string[] = []
    let release = () => {}
    const gather = sendGatherer<P, string>({
      alone: async (q) => {
        ran.push(q.id)
        // s1 waits on a lock, say, until the test lets it go.
        if (q.id === 's1') await new Promise<void>((r) => (release = r))
        return `alone ${q.id}`
      },
      together: async (ps) => ps.map((q) => ({ result: `together ${q.id}` })),
      keys: (q) => [q.session],
      afterAgain: (r) => r,
    })
    const g = gathering({ stallMs: 1 })
    const s1 = gather(p('s1'), g)
    // Same session as s1: waits for it, stalled or not.
    const s1again = gather(p('s3', 's1'), g)
    expect(await gather(p('s2'), g)).toBe('alone s2')
    expect(ran).toEqual(['s1', 's2'])
    release()
    expect(await s1).toBe('alone s1')
    expect(await s1again).toBe('alone s3')
    expect(ran).toEqual(['s1', 's2', 's3'])
  })

  it('lets a send that finds nothing at work in a busy process wait waitMs for the sends on their way, and go with them', async () => {
    const { ran, runners, finish } = recording()
    const gather = sendGatherer(runners)
    const g = gathering({ waitMs: 5 })
    // A process that sent nothing yet is not busy: the first send goes at once.
    const s1 = gather(p('s1'), g)
    expect(ran).toEqual([['s1']])
    await finish()
    expect(await s1).toBe('alone s1')
    // Its statement just came back: the next send waits for company.
    const answers = [gather(p('s2'), g), gather(p('s3'), g)]
    expect(ran).toEqual([['s1']])
    await vi.waitFor(() => expect(ran).toEqual([['s1'], ['s2', 's3']]))
    await finish()
    expect(await Promise.all(answers)).toEqual(['together s2', 'together s3'])
  })

  it('sends at once a send that finds nothing at work with waitMs 0, busy or not', async () => {
    const { ran, runners, finish } = recording()
    const gather = sendGatherer(runners)
    const g = gathering({ waitMs: 0 })
    const s1 = gather(p('s1'), g)
    await finish()
    await s1
    const s2 = gather(p('s2'), g)
    expect(ran).toEqual([['s1'], ['s2']])
    await finish()
    expect(await s2).toBe('alone s2')
  })

  it('sends every send alone with inFlight 0', async () => {
    const { ran, runners, finish } = recording()
    const gather = sendGatherer(runners)
    const g = gathering({ inFlight: 0 })
    const answers = [gather(p('s1'), g), gather(p('s2'), g), gather(p('s3'), g)]
    await finish()
    expect(await Promise.all(answers)).toEqual(['alone s1', 'alone s2', 'alone s3'])
    expect(ran).toEqual([['s1'], ['s2'], ['s3']])
  })
})

describeEngines('sends gathered into one statement on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let bob: MemberRow
  /** The API's clock, still: 5 s into a whole hour, so no pace window ends during the file. */
  const now = Math.ceil(Date.now() / HOUR) * HOUR + 5_000

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({
      db: database.db,
      now: () => new Date(now),
      // One statement at work: every send that comes meanwhile waits to go with the others.
      sendGathering: gathering(),
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    bob = await addMember(database.db, { name: 'Bob', gender: 'male' })
  })
  afterAll(() => database?.close())

  /** A member with `credits`, logged in, with a conversation with `to` (Bob by default). */
  const sender = (credits = 100 * COST, to: MemberRow = bob, signupDate?: Date) =>
    paidSender(app, database.db, to, { credits, ...(signupDate ? { signupDate } : {}) })
  /** Opens `s`'s conversation with a first message (a lone send: openings take their own trips). */
  async function opened(s: Sender) {
    expect((await s.post('hello')).status).toBe(201)
    return s
  }
  const senders = async (n: number) =>
    Promise.all(Array.from({ length: n }, async () => opened(await sender())))
  /** Runs `work` and says whether a batched statement ran in it. */
  async function batched(work: () => Promise<unknown>): Promise<boolean> {
    const trips = await countTrips(database.db, work)
    return trips.statements.some((s) => s.includes('json_to_recordset'))
  }
  /** How many sends went each way so far (api/http/metrics.ts send_statements_total). */
  async function ways(): Promise<Record<string, number>> {
    const { values } = await sendStatements.get()
    return Object.fromEntries(values.map((v) => [String(v.labels.way), v.value]))
  }
  /**
   * The answers of `sends` made at once, checked to have gone (but for the
   * first, which finds no statement at work) in a batched statement that
   * did not fail (no send of it went alone again).
   */
  async function wave(sends: (() => Promise<Response>)[]): Promise<Response[]> {
    let answers: Response[] = []
    const before = await ways()
    expect(
      await batched(async () => {
        answers = await Promise.all(sends.map((go) => go()))
      }),
    ).toBe(true)
    expect((await ways()).fallback ?? 0, 'sends of a failed batch').toBe(before.fallback ?? 0)
    return answers
  }
  async function ledgerHolds(memberId: number) {
    expect(await balanceOf(database.db, memberId)).toBe(await ledgerSum(database.db, memberId))
  }

  it('stores and debits each of twelve sends at once once, each answered as alone', async () => {
    const all = await senders(12)
    const answers = await wave(all.map((s, i) => () => s.post(`at once ${i}`)))
    for (const [i, res] of answers.entries()) {
      expect(res.status, `send ${i}`).toBe(201)
      const body = SendMessageResponse.parse(await res.json())
      expect(body.message.text).toBe(`at once ${i}`)
      expect(body.message.conversation).toBe(all[i]!.conversation)
      expect(body.message.from).toBe(all[i]!.member.id)
      // The balance after this send: 100 messages' worth, less the opening and this one.
      expect(body.credits).toBe(98 * COST)
    }
    for (const s of all) {
      expect(await s.stored()).toBe(2)
      expect(await balanceOf(database.db, s.member.id)).toBe(98 * COST)
      await ledgerHolds(s.member.id)
    }
  })

  it('answers a replay in a batch with its first answer and debits it once', async () => {
    const all = await senders(6)
    const id = randomUUID()
    const first = await all[0]!.post('once', id)
    expect(first.status).toBe(201)
    const firstAnswer = await first.json()
    const answers = await wave([
      ...all.slice(1).map((s) => () => s.post('with it')),
      () => all[0]!.post('once', id),
    ])
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 200])
    expect(await answers[5]!.json()).toEqual(firstAnswer)
    expect(await all[0]!.stored()).toBe(2)
    expect(await balanceOf(database.db, all[0]!.member.id)).toBe(98 * COST)
    await ledgerHolds(all[0]!.member.id)
  })

  it('refuses in a batch only the sends that fail: no credits 402, a block 403, not theirs 404', async () => {
    const all = await senders(4)
    const poor = await opened(await sender(COST))
    const blocked = await opened(await sender())
    await setBlock(database.db, bob.id, blocked.member.id, true)
    const stranger = await opened(await sender())
    const elsewhere = all[0]!.conversation
    const answers = await wave([
      ...all.map((s) => () => s.post('goes')),
      () => poor.post('no credits left'),
      () => blocked.post('blocked'),
      () => stranger.post('not mine', randomUUID(), elsewhere),
    ])
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 402, 403, 404])
    expect(((await answers[4]!.json()) as { error: string }).error).toBe('insufficient_credits')
    expect(((await answers[5]!.json()) as { error: string }).error).toBe('blocked')
    for (const s of [poor, blocked, stranger]) expect(await s.stored()).toBe(1)
    expect(await balanceOf(database.db, poor.member.id)).toBe(0)
    for (const s of [...all, poor, blocked, stranger]) await ledgerHolds(s.member.id)
  })

  it('sends both of one member’s sends from two sessions in one wave, each debited', async () => {
    const carol = await addMember(database.db, { name: 'Carol' })
    const two = await opened(await sender())
    const second = await login(app, two.member.email, TEST_PASSWORD)
    const toCarol = await startChat(app, second, carol.id)
    expect((await two.post('hello Carol', randomUUID(), toCarol, second)).status).toBe(201)
    const others = await senders(4)
    const before = await ways()
    const answers = await wave([
      ...others.map((s) => () => s.post('along')),
      () => two.post('to Bob'),
      () => two.post('to Carol', randomUUID(), toCarol, second),
    ])
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201])
    expect((await ways()).again, 'the member’s second send went after the batch').toBeGreaterThan(
      before.again ?? 0,
    )
    expect(await two.stored()).toBe(4)
    expect(await balanceOf(database.db, two.member.id)).toBe(96 * COST)
    await ledgerHolds(two.member.id)
  })

  it(`refuses a send past the pace (${PER_MINUTE} a minute) in a batch with 429, storing nothing`, async () => {
    // Signed up two days ago: the settled pace.
    const fast = await opened(await sender(100 * COST, bob, new Date(now - 48 * HOUR)))
    for (let i = 1; i < PER_MINUTE; i++) expect((await fast.post(`line ${i}`)).status).toBe(201)
    const others = await senders(4)
    const answers = await wave([
      ...others.map((s) => () => s.post('along')),
      () => fast.post('one too many'),
    ])
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 429])
    expect(Number(answers[4]!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await fast.stored()).toBe(PER_MINUTE)
    await ledgerHolds(fast.member.id)
  })
})
