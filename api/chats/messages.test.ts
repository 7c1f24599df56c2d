// Messages paid with credits on both databases: one debit per message however
// the send is repeated or raced, never a negative balance, the balance always
// the ledger's sum, 404 for other members' conversations on every endpoint,
// text stored as written, blocks, reports, and live pokes through NOTIFY.
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest'
import {
  jobs,
  mails,
  messages,
  pushSubscriptions,
  reports,
  sessions,
} from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { badgeOf } from '../badge.ts'
import {
  ApiError,
  ChatsResponse,
  CreditsResponse,
  InsufficientCredits,
  MessagesResponse,
  SearchResponse,
  SendMessageResponse,
} from '../contract/index.ts'
import { EVENTS_KEEPALIVE_MS, EVENTS_SESSION_CHECK_MS } from '../contract/rules/messages.ts'
import { balanceOf, credit, ledgerSum } from '../credits/ledger.ts'
import { createEventBus, type EventBus } from '../events/bus.ts'
import { SESSION_TOUCH_S } from '../http/session.ts'
import { createJobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { pushEventJobHandlers } from '../push/events.ts'
import { hashToken } from '../shared/tokens.ts'
import { chatPair, startChat } from '../test/chat-pair.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { eventStream } from '../test/event-stream.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'

/** Spec-independent constants of this product, pinned by value. */
const PAGE = 50
const MAX_TEXT = 2000
const COST = 10 // credits a message costs by default

describeEngines('messages on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let events: EventBus
  let a: MemberRow
  let b: MemberRow
  let c: MemberRow
  let cookieA: string
  let cookieB: string
  let cookieC: string
  let ab: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    events = createEventBus(database.listen)
    app = createApi({
      db: database.db,
      events,
      // These tests send in bulk (1,000 at once, 120 in a row) on purpose;
      // the send limits have their own tests (send-limits.test.ts).
      memberLimits: false,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    ;({ a, b, c, cookieA, cookieB, cookieC, ab } = await chatPair(app, database.db))
  })
  afterAll(async () => {
    await events?.close()
    await database?.close()
  })

  const start = (cookie: string, profile: number) => startChat(app, cookie, profile)
  const post = (cookie: string, body: unknown) =>
    send(app, '/api/messages.php', { method: 'POST', body, cookie })
  const give = (memberId: number, amount: number) =>
    database.db.transaction((tx) => credit(tx, memberId, amount, 'bonus', 'test'))
  const setBalance = async (memberId: number, target: number) => {
    const now = await balanceOf(database.db, memberId)
    if (target > now) await give(memberId, target - now)
    if (target < now) {
      await database.db.transaction(async (tx) => {
        const { debit } = await import('../credits/ledger.ts')
        await debit(tx, memberId, now - target, 'adjustment', 'test')
      })
    }
  }
  const page = async (cookie: string, query: string) => {
    const res = await send(app, `/api/messages.php?${query}`, { cookie })
    expect(res.status).toBe(200)
    return MessagesResponse.parse(await res.json())
  }

  it('sends a message: 201 with the message and the balance after one debit of its cost', async () => {
    await setBalance(a.id, 100)
    const res = await post(cookieA, {
      conversation: ab,
      text: '  Hello Bram  ',
      client_id: randomUUID(),
    })
    expect(res.status).toBe(201)
    const answer = SendMessageResponse.parse(await res.json())
    expect(answer.message).toMatchObject({ conversation: ab, from: a.id, text: 'Hello Bram' })
    expect(answer.credits).toBe(100 - COST)
    expect(await balanceOf(database.db, a.id)).toBe(90)
    expect(await ledgerSum(database.db, a.id)).toBe(90)
    const credits = CreditsResponse.parse(
      await (await send(app, '/api/credits.php', { cookie: cookieA })).json(),
    )
    expect(credits).toMatchObject({ credits: 90, message_cost: COST })
  })

  it('a sent message queues one push for the recipient (an event job that becomes the push job), a replay none more', async () => {
    await setBalance(a.id, 100)
    // B's device: no subscription, no push to send.
    await database.db.insert(pushSubscriptions).values({
      memberId: b.id,
      endpoint: `https://push.example/${randomUUID()}`,
      p256dh: 'BKey',
      auth: 'auth',
    })
    const body = { conversation: ab, text: 'Ping', client_id: randomUUID() }
    const before = (await database.db.select().from(jobs).where(eq(jobs.kind, 'push'))).length
    expect((await post(cookieA, body)).status).toBe(201)
    expect((await post(cookieA, body)).status).toBe(200)
    const events = createJobRunner({
      db: database.db,
      handlers: pushEventJobHandlers(database.db, badgeOf),
    })
    await events.runDue()
    const after = await database.db.select().from(jobs).where(eq(jobs.kind, 'push'))
    expect(after.length - before).toBe(1)
    expect(JSON.stringify(after.at(-1)?.payload)).toContain(`${b.id}`)
  })

  it('402 with the balance and the cost when credits do not cover it, and nothing stored', async () => {
    await setBalance(a.id, 5)
    const before = (await database.db.select().from(messages)).length
    const res = await post(cookieA, { conversation: ab, text: 'Too poor', client_id: randomUUID() })
    expect(res.status).toBe(402)
    expect(InsufficientCredits.parse(await res.json())).toEqual({
      error: 'insufficient_credits',
      credits: 5,
      cost: COST,
    })
    expect((await database.db.select().from(messages)).length).toBe(before)
    expect(await balanceOf(database.db, a.id)).toBe(5)
  })

  it(
    '1,000 concurrent sends against a balance covering 500: exactly 500 pass, the balance ends at 0 = the ledger sum',
    async () => {
      const sender = await addMember(database.db, { gender: 'female' })
      const cookie = await login(app, sender.email, TEST_PASSWORD)
      const conversation = await start(cookie, b.id)
      await give(sender.id, 500 * COST)
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          post(cookie, { conversation, text: `m${i}`, client_id: randomUUID() }).then(
            (r) => r.status,
          ),
        ),
      )
      expect(results.filter((s) => s === 201)).toHaveLength(500)
      expect(results.filter((s) => s === 402)).toHaveLength(500)
      expect(await balanceOf(database.db, sender.id)).toBe(0)
      expect(await ledgerSum(database.db, sender.id)).toBe(0)
      const sent = await database.db.select().from(messages).where(eq(messages.senderId, sender.id))
      expect(sent).toHaveLength(500)
    },
    scaled(120_000),
  )

  it('a replayed client id is one message and one debit, sequential and concurrent', async () => {
    await setBalance(a.id, 100)
    const body = { conversation: ab, text: 'Once only', client_id: randomUUID() }
    const first = await post(cookieA, body)
    expect(first.status).toBe(201)
    const firstAnswer = await first.json()
    const again = await post(cookieA, body)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(firstAnswer)

    const raced = { conversation: ab, text: 'Raced', client_id: randomUUID() }
    const statuses = await Promise.all(Array.from({ length: 10 }, () => post(cookieA, raced)))
    expect(statuses.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.every((r) => r.status === 201 || r.status === 200)).toBe(true)
    const stored = await database.db
      .select()
      .from(messages)
      .where(eq(messages.clientId, raced.client_id))
    expect(stored).toHaveLength(1)
    expect(await balanceOf(database.db, a.id)).toBe(100 - 2 * COST)
    expect(await ledgerSum(database.db, a.id)).toBe(await balanceOf(database.db, a.id))
  })

  it('the same client id with another text is 422 and changes nothing', async () => {
    await setBalance(a.id, 100)
    const id = randomUUID()
    expect((await post(cookieA, { conversation: ab, text: 'First', client_id: id })).status).toBe(
      201,
    )
    const res = await post(cookieA, { conversation: ab, text: 'Second', client_id: id })
    expect(res.status).toBe(422)
    expect(ApiError.parse(await res.json()).field).toBe('client_id')
    expect(await balanceOf(database.db, a.id)).toBe(100 - COST)
  })

  it('stores text as written: markup stays text, 2,000 characters pass, 2,001 and blank are 400 naming text', async () => {
    await setBalance(a.id, 100)
    const markup = '<img src=x onerror=alert(1)>'
    const res = await post(cookieA, { conversation: ab, text: markup, client_id: randomUUID() })
    expect(res.status).toBe(201)
    const latest = await page(cookieB, `conversation=${ab}`)
    expect(latest.messages.at(-1)?.text).toBe(markup)
    expect(
      (
        await post(cookieA, {
          conversation: ab,
          text: 'x'.repeat(MAX_TEXT),
          client_id: randomUUID(),
        })
      ).status,
    ).toBe(201)
    for (const text of ['x'.repeat(MAX_TEXT + 1), '   ', '\ud800 lone']) {
      const bad = await post(cookieA, { conversation: ab, text, client_id: randomUUID() })
      expect(bad.status, text.slice(0, 10)).toBe(400)
      expect(ApiError.parse(await bad.json()).field).toBe('text')
    }
  })

  it('pages 50 at a time: newest page first, older with before, newer with after', async () => {
    const sender = await addMember(database.db, {})
    const cookie = await login(app, sender.email, TEST_PASSWORD)
    const conversation = await start(cookie, c.id)
    await give(sender.id, 120 * COST)
    for (let i = 0; i < 120; i++) {
      expect(
        (await post(cookie, { conversation, text: `n${i}`, client_id: randomUUID() })).status,
      ).toBe(201)
    }
    const newest = await page(cookie, `conversation=${conversation}`)
    expect(newest.pp).toBe(PAGE)
    expect(newest.messages.map((m) => m.text)).toEqual(
      Array.from({ length: 50 }, (_, i) => `n${70 + i}`),
    )
    expect(newest.has_more).toBe(true)
    const older = await page(
      cookie,
      `conversation=${conversation}&before=${newest.messages[0]!.id}`,
    )
    expect(older.messages[0]?.text).toBe('n20')
    expect(older.has_more).toBe(true)
    const oldest = await page(
      cookie,
      `conversation=${conversation}&before=${older.messages[0]!.id}`,
    )
    expect(oldest.messages.map((m) => m.text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n${i}`),
    )
    expect(oldest.has_more).toBe(false)
    const since = await page(
      cookieC,
      `conversation=${conversation}&after=${older.messages.at(-1)!.id}`,
    )
    expect(since.messages).toHaveLength(50)
    expect(since.messages[0]?.text).toBe('n70')
    expect(since.has_more).toBe(false)
  })

  it("another member's conversation is 404 on every endpoint, and no session is 403", async () => {
    const foreign = ab // A and B's; C is not in it
    const calls: [string, string, unknown][] = [
      ['GET', `/api/messages.php?conversation=${foreign}`, undefined],
      ['POST', '/api/messages.php', { conversation: foreign, text: 'hi', client_id: randomUUID() }],
      ['PUT', '/api/chat.php', { conversation: foreign }],
      ['DELETE', '/api/chat.php', { conversation: foreign }],
    ]
    for (const [method, path, body] of calls) {
      const res = await send(app, path, { method: method as 'GET', body, cookie: cookieC })
      expect(res.status, `${method} ${path}`).toBe(404)
      const anonymous = await send(app, path, { method: method as 'GET', body })
      expect(anonymous.status, `${method} ${path} without a session`).toBe(403)
    }
    for (const path of ['/api/credits.php', '/api/events.php']) {
      expect((await send(app, path)).status, path).toBe(403)
    }
  })

  it('reading clears the unread count; deleting removes the chat from my list only, until a new message', async () => {
    await setBalance(a.id, 100)
    await post(cookieA, { conversation: ab, text: 'Are you there?', client_id: randomUUID() })
    const chatsOf = async (cookie: string) =>
      ChatsResponse.parse(await (await send(app, '/api/chats.php', { cookie })).json()).chats
    const unread = (await chatsOf(cookieB)).find((x) => x.conversation.id === ab)
    expect(unread?.num_unread_messages).toBeGreaterThan(0)
    // The list shows the message just sent as the newest, from the other member.
    expect(unread?.last_message).toMatchObject({ body: 'Are you there?', from_me: false })
    const read = await send(app, '/api/chat.php', {
      method: 'PUT',
      body: { conversation: ab },
      cookie: cookieB,
    })
    expect(await read.json()).toEqual({ conversation: ab, unread: 0 })
    expect(
      (await chatsOf(cookieB)).find((x) => x.conversation.id === ab)?.num_unread_messages,
    ).toBe(0)

    const del = await send(app, '/api/chat.php', {
      method: 'DELETE',
      body: { conversation: ab },
      cookie: cookieB,
    })
    expect(await del.json()).toEqual({ conversation: ab, status: 'deleted' })
    expect((await chatsOf(cookieB)).some((x) => x.conversation.id === ab)).toBe(false)
    expect((await chatsOf(cookieA)).some((x) => x.conversation.id === ab)).toBe(true)
    await post(cookieA, { conversation: ab, text: 'Back again', client_id: randomUUID() })
    const back = (await chatsOf(cookieB)).find((x) => x.conversation.id === ab)
    expect(back?.last_message).toMatchObject({ body: 'Back again', from_me: false })
    expect(
      (await chatsOf(cookieA)).find((x) => x.conversation.id === ab)?.last_message,
    ).toMatchObject({ body: 'Back again', from_me: true })
  })

  it('a block stops messages both ways and hides each from the other in chats and search', async () => {
    const x = await addMember(database.db, { gender: 'female', country: 'NL' })
    const y = await addMember(database.db, { gender: 'male', country: 'NL' })
    const cx = await login(app, x.email, TEST_PASSWORD)
    const cy = await login(app, y.email, TEST_PASSWORD)
    await give(x.id, 100)
    await give(y.id, 100)
    const xy = await start(cx, y.id)
    expect((await post(cx, { conversation: xy, text: 'hi', client_id: randomUUID() })).status).toBe(
      201,
    )
    const blocked = await send(app, '/api/blocks.php', {
      method: 'POST',
      body: { profile: x.id },
      cookie: cy,
    })
    expect(await blocked.json()).toEqual({ profile: x.id, blocked: true })
    for (const [cookie] of [[cx], [cy]]) {
      const res = await post(cookie!, { conversation: xy, text: 'still?', client_id: randomUUID() })
      expect(res.status).toBe(403)
      expect(ApiError.parse(await res.json()).error).toBe('blocked')
    }
    const chats = ChatsResponse.parse(
      await (await send(app, '/api/chats.php', { cookie: cx })).json(),
    )
    expect(chats.chats.some((ch) => ch.conversation.id === xy)).toBe(false)
    const found = SearchResponse.parse(
      await (await send(app, '/api/search.php?gender=male&country=NL', { cookie: cx })).json(),
    )
    expect(found.profiles.some((p) => p.id === y.id)).toBe(false)
    expect(await balanceOf(database.db, x.id)).toBe(100 - COST)
    const unblock = await send(app, '/api/blocks.php', {
      method: 'DELETE',
      body: { profile: x.id },
      cookie: cy,
    })
    expect(await unblock.json()).toEqual({ profile: x.id, blocked: false })
    expect(
      (await post(cx, { conversation: xy, text: 'again', client_id: randomUUID() })).status,
    ).toBe(201)
  })

  it('a report is stored, mailed to the operator, and answered with a receipt', async () => {
    const [last] = await database.db
      .select()
      .from(messages)
      .where(eq(messages.senderId, a.id))
      .orderBy(messages.id)
      .limit(1)
    const res = await send(app, '/api/reports.php', {
      method: 'POST',
      body: { profile: a.id, message: last!.id, reason: 'harassment', text: 'Keeps writing' },
      cookie: cookieB,
    })
    expect(res.status).toBe(201)
    const receipt = (await res.json()) as { report: { id: number; status: string } }
    expect(receipt.report.status).toBe('received')
    const [stored] = await database.db
      .select()
      .from(reports)
      .where(eq(reports.id, receipt.report.id))
    expect(stored).toMatchObject({
      reporterId: b.id,
      reportedId: a.id,
      messageId: last!.id,
      reason: 'harassment',
    })
    const mailed = await database.db.select().from(mails).where(eq(mails.kind, 'report'))
    expect(
      mailed.some((m) => m.to === 'complaints@localhost' && m.text.includes('harassment')),
    ).toBe(true)
    // A message of someone else cannot be pinned on the reported member.
    const wrong = await send(app, '/api/reports.php', {
      method: 'POST',
      body: { profile: c.id, message: last!.id, reason: 'spam' },
      cookie: cookieB,
    })
    expect(wrong.status).toBe(404)
  })

  it("pokes the recipient's open stream (LISTEN/NOTIFY) when a message is sent", async () => {
    await setBalance(a.id, 100)
    const res = await send(app, '/api/events.php', { cookie: cookieB })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    // Bounded waits (10 s) that fail saying what was awaited and what arrived.
    const stream = eventStream(res.body)
    await stream.untilText('event: ready')
    await post(cookieA, { conversation: ab, text: 'Live!', client_id: randomUUID() })
    await stream.untilText('"type":"messages"')
    expect(stream.seen).toContain(`"conversation":${ab}`)
    await stream.cancel()
  })

  it('ends the stream at the next session check once its session has ended, keeping alive until then', async () => {
    // Spec-independent but load-bearing: the client stops polling while the
    // stream is up, so these two periods are what a member's device waits.
    expect([EVENTS_KEEPALIVE_MS, EVENTS_SESSION_CHECK_MS]).toEqual([15_000, 60_000])
    const bus = createEventBus(database.listen)
    const quick = createApi({
      db: database.db,
      events: bus,
      eventsTiming: { keepAliveMs: 20, sessionCheckMs: 100 },
    })
    onTestFinished(() => bus.close())
    const c = await login(quick, b.email, TEST_PASSWORD)
    const res = await send(quick, '/api/events.php', { cookie: c })
    const stream = eventStream(res.body)
    await stream.untilText(': keep-alive')
    // Logged out (here or on another device): the session row is gone.
    await send(quick, '/api/logout.php', { cookie: c })
    await stream.untilEnd()
  })

  it('keeps the stream open across the session check that renews its session (5 minutes on)', async () => {
    // The check renews the session's last use at most every SESSION_TOUCH_S
    // (300 s). Its cookie cannot be renewed inside a stream whose headers
    // are sent: trying to ended every member's stream after 5 minutes, and
    // the worker then polled everything once and reconnected.
    expect(SESSION_TOUCH_S).toBe(300)
    let offset = 0
    const bus = createEventBus(database.listen)
    const quick = createApi({
      db: database.db,
      events: bus,
      eventsTiming: { keepAliveMs: 20, sessionCheckMs: 40 },
      now: () => new Date(Date.now() + offset),
    })
    onTestFinished(() => bus.close())
    const c = await login(quick, b.email, TEST_PASSWORD)
    // Over Node's HTTP server, as `npm start` serves it: the answer's
    // headers are on the wire before the stream's first check.
    const server = serve({ fetch: quick.fetch, port: 0, hostname: '127.0.0.1' })
    onTestFinished(() => new Promise<void>((done) => server.close(() => done())))
    await new Promise((ready) => server.once('listening', ready))
    const { port } = server.address() as AddressInfo
    const res = await fetch(`http://127.0.0.1:${port}/api/events.php`, {
      headers: { cookie: c, host: `127.0.0.1:${port}` },
    })
    expect(res.status).toBe(200)
    const stream = eventStream(res.body)
    // n more keep-alives from here; the stream ending first fails the wait.
    const keepAlives = async (n: number) => {
      const from = stream.seen.length
      await stream.until(
        `${n} more keep-alive(s)`,
        (seen) => seen.slice(from).split(': keep-alive').length > n,
      )
    }
    const token = /sid=([^;]+)/.exec(c)?.[1] ?? ''
    const lastSeenOf = async () => {
      const [row] = await database.db
        .select({ at: sessions.lastSeenAt })
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)))
      return row!.at
    }
    await keepAlives(1)
    const before = await lastSeenOf()
    offset = (SESSION_TOUCH_S + 1) * 1000
    // Several checks after the renewal, each followed by a keep-alive.
    await keepAlives(6)
    expect((await lastSeenOf()).getTime()).toBeGreaterThan(before.getTime())
    await stream.cancel()
  })

  it('a second API process on the same database pokes the streams it holds', async () => {
    const otherEvents = createEventBus(database.listen)
    const other = createApi({ db: database.db, events: otherEvents })
    try {
      await setBalance(a.id, 100)
      const res = await send(other, '/api/events.php', { cookie: cookieB })
      const stream = eventStream(res.body)
      await stream.untilText('event: ready')
      // Sent through the first process; delivered by the second.
      await post(cookieA, { conversation: ab, text: 'Across', client_id: randomUUID() })
      await stream.untilText('"type":"messages"')
      await stream.cancel()
    } finally {
      await otherEvents.close()
    }
  })
})
