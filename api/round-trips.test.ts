// Round-trip budgets (docs/performance.md "Round-trip budgets"): how many
// statements each hot request sends to the database, pinned as literal
// numbers on both engines. A change that adds a trip to one of these requests
// fails here with the request's name and every statement it sent; it must say
// why in its commit and move the number (and the table in the docs).
//
// What is measured is the steady state: every request is sent once before it
// is counted (the same request, or one of the same shape), so the prepared
// statements are parsed on their connection and what the API caches (the
// message cost, the push keys) is cached, as on a server that has been up a
// while.
// The API runs on a clock the test holds (AppDeps.now): no session is renewed
// during a count (the renewal writes at most every 5 minutes,
// SESSION_TOUCH_S, and has its own test below). The job runner is left out
// (its pokes do nothing): jobs run in the background after the answer, with
// budgets of their own, not the request's. The pokes of NOTIFY that a send
// batches after its commit (notifyMembersSoon) are the request's and are
// counted: countTrips waits until the database is quiet (api/test/round-trips.ts).
//
// PGlite and PostgreSQL send the same statements for every request here
// (BEGIN and COMMIT count on both: they are statements either way), so each
// budget is one number. Should they come to differ for a real reason (a
// transaction's options, say: PGlite sets them in a statement of their own),
// pin each engine's number, with the reason beside it.
//
// ROUND_TRIPS_SHOW=1 prints every request's statements, within budget or not.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { images } from '../db/schema/index.ts'
import { type Api, createApi } from './app.ts'
import { ChatStartResponse, TypingResponse } from './contract/index.ts'
import { forgetMessageCost } from './credits/index.ts'
import { credit } from './credits/ledger.ts'
import { type ClockEnv, currentSession } from './http/session.ts'
import { createStreamSessions } from './http/stream-sessions.ts'
import { createJobRunner } from './jobs/queue.ts'
import { createMailer } from './mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from './test/databases.ts'
import { login, type SendOptions, send } from './test/http.ts'
import { countTrips, type Trips } from './test/round-trips.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from './test/seed.ts'

const DAY = 24 * 60 * 60_000
/** How often a session's last use is written (SESSION_TOUCH_S in api/http/session.ts), pinned by value. */
const FIVE_MINUTES = 5 * 60_000

describeEngines('round-trip budgets on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  /** The API's clock: held still, so no session is renewed while counting. */
  let now = Date.now()
  let mia: MemberRow
  let cookie: string
  const others: Record<string, MemberRow> = {}
  /** Mia's conversation with Bob, which already has messages. */
  let withBob: number
  /** The picture store of the photo send (a directory). */
  let mediaDir: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'round-trips-'))
    const jobs = createJobRunner({ db: database.db, handlers: {} })
    jobs.poke = () => {}
    app = createApi({
      db: database.db,
      mediaDir,
      now: () => new Date(now),
      jobs,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    // Settled accounts (older than a day): the send limits' usual buckets.
    const settled = { signupDate: new Date(now - 30 * DAY) }
    mia = await addMember(database.db, { ...settled, name: 'Mia', gender: 'female' })
    for (const name of ['Bob', 'Carl', 'Dirk', 'Evert', 'Frank', 'Gijs']) {
      others[name] = await addMember(database.db, { ...settled, name, gender: 'male' })
    }
    for (const member of [mia, others.Bob!]) {
      await database.db.transaction((tx) => credit(tx, member.id, 10_000, 'bonus', 'test'))
    }
    cookie = await login(app, mia.email, TEST_PASSWORD)
    withBob = await chatWith(others.Bob!)
    const opened = await post('/api/messages.php', sendBody(withBob, 'Hello Bob'))
    expect(opened.status).toBe(201)
    const bob = await login(app, others.Bob!.email, TEST_PASSWORD)
    const reply = await send(app, '/api/messages.php', {
      method: 'POST',
      cookie: bob,
      body: sendBody(withBob, 'Hi Mia'),
    })
    expect(reply.status).toBe(201)
  })
  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  const post = (path: string, body: unknown, method: SendOptions['method'] = 'POST') =>
    send(app, path, { method, cookie, body })
  const get = (path: string, headers?: Record<string, string>) =>
    send(app, path, { cookie, ...(headers ? { headers } : {}) })
  const sendBody = (conversation: number, text: string) => ({
    conversation,
    text,
    client_id: randomUUID(),
  })

  async function chatWith(member: MemberRow): Promise<number> {
    const res = await get(`/api/chat.php?profile=${member.id}`)
    expect(res.status).toBe(200)
    return ChatStartResponse.parse(await res.json()).id
  }

  /**
   * The warm-up before a count: the request (or one of its shape) once. The
   * message cost is cached for a minute of the real clock (api/credits): it
   * is dropped first, so the warm-up reads it again and the count, right
   * after, finds it cached however slow the machine.
   */
  async function warm(request: () => Promise<Response> | Response): Promise<Response> {
    forgetMessageCost(database.db)
    const res = await request()
    await res.arrayBuffer()
    return res
  }

  /** Counts one request, checking its status; the statements print when the count is off. */
  async function trips(
    status: number,
    request: () => Promise<Response> | Response,
  ): Promise<Trips> {
    let answered = 0
    const counted = await countTrips(database.db, async () => {
      const res = await request()
      answered = res.status
      return res
    })
    expect(answered).toBe(status)
    return counted
  }

  /** The request's name, its count and what it sent (long statements cut short). */
  function expectBudget(name: string, counted: Trips, budget: number) {
    const sent = counted.statements.map(
      (s, i) => `${i + 1}. ${s.length > 300 ? `${s.slice(0, 300)}…` : s}`,
    )
    const report = `${name} on ${engine}: ${counted.count} round trips, budget ${budget}:\n${sent.join('\n')}\n`
    if (process.env.ROUND_TRIPS_SHOW) console.log(report)
    expect(counted.count, report).toBe(budget)
  }

  it('holds the send of a message in an ongoing conversation to its budget', async () => {
    await warm(() => post('/api/messages.php', sendBody(withBob, 'warm-up')))
    const counted = await trips(201, () =>
      post('/api/messages.php', sendBody(withBob, 'How was your day?')),
    )
    // One statement (session, replay, age gate, pace, send: sendAsSession) and the
    // poke after its commit, which concurrent sends share (notifyMembersSoon).
    expectBudget('send (common)', counted, 2)
  })

  it('holds the send of a photo in an ongoing conversation to its budget', async () => {
    const { default: sharp } = await import('sharp')
    const bytes = await sharp({
      create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 90, b: 160 } },
    })
      .png()
      .toBuffer()
    const photo = () => {
      const form = new FormData()
      form.append('conversation', String(withBob))
      form.append('client_id', randomUUID())
      form.append('text', 'Texel')
      form.append('file', new File([new Uint8Array(bytes)], 'p.png', { type: 'image/png' }))
      return app.request('http://localhost/api/message-photo.php', {
        method: 'POST',
        body: form,
        headers: { host: 'localhost', origin: 'http://localhost', cookie },
      })
    }
    await warm(photo)
    const counted = await trips(201, photo)
    // The session (requireMember), the upload rate, the member's send
    // statement with the photo (checks, claim, message, debit, jobs) and the
    // poke after its commit; the price and the age gate come from the cached
    // settings, the picture goes to the store between the two.
    expectBudget('send (photo)', counted, 4)
  })

  it('holds the send of a voice message in an ongoing conversation to its budget', async () => {
    const { webmRecording } = await import('./test/voice-fixtures.ts')
    const recording = webmRecording({ durationMs: 3000 })
    const voice = () => {
      const form = new FormData()
      form.append('conversation', String(withBob))
      form.append('client_id', randomUUID())
      form.append('duration_ms', '3000')
      form.append('file', new File([new Uint8Array(recording)], 'v.webm', { type: 'audio/webm' }))
      return app.request('http://localhost/api/message-voice.php', {
        method: 'POST',
        body: form,
        headers: { host: 'localhost', origin: 'http://localhost', cookie },
      })
    }
    await warm(voice)
    const counted = await trips(201, voice)
    // As the photo send: the session (requireMember), the upload rate, the
    // member's send statement with the recording (checks, claim, message,
    // debit, jobs) and the poke after its commit; the price and the age gate
    // come from the cached settings, the recording goes to the store between.
    expectBudget('send (voice)', counted, 4)
  })

  it('holds the send of a gift in an ongoing conversation to its budget', async () => {
    const gift = () =>
      post('/api/message-gift.php', {
        conversation: withBob,
        gift: 'rose',
        client_id: randomUUID(),
      })
    await warm(gift)
    const counted = await trips(201, gift)
    // The session (requireMember), the gift by its slug (the site's key from
    // the cached settings), the member's send statement with the gift
    // (checks, claim, message, debit, jobs) and the poke after its commit.
    expectBudget('send (gift)', counted, 4)
  })

  it('holds the opening send (first message of a conversation) to its budget', async () => {
    const first = await chatWith(others.Carl!)
    await warm(() => post('/api/messages.php', sendBody(first, 'Hi Carl, I saw you like sailing')))
    const conversation = await chatWith(others.Dirk!)
    const counted = await trips(201, () =>
      post('/api/messages.php', sendBody(conversation, 'Hi Dirk, is that Texel on your photo?')),
    )
    // The common statement finds an opening and stores nothing; the scam signals'
    // read, the send statement again, its poke and the opening's record.
    expectBudget('send (opening)', counted, 5)
  })

  it('holds the messages page to its budget', async () => {
    const path = `/api/messages.php?conversation=${withBob}`
    await warm(() => get(path))
    expectBudget('messages page', await trips(200, () => get(path)), 4)
  })

  it('holds the chats list to its budget', async () => {
    await warm(() => get('/api/chats.php'))
    expectBudget('chats list', await trips(200, () => get('/api/chats.php')), 2)
  })

  it('holds the read of a chat with a new message to its budget', async () => {
    const bob = await login(app, others.Bob!.email, TEST_PASSWORD)
    const fromBob = () =>
      send(app, '/api/messages.php', {
        method: 'POST',
        cookie: bob,
        body: sendBody(withBob, `Are you there? ${randomUUID()}`),
      })
    await fromBob()
    await warm(() => post('/api/chat.php', { conversation: withBob }, 'PUT'))
    await fromBob()
    const counted = await trips(200, () => post('/api/chat.php', { conversation: withBob }, 'PUT'))
    expectBudget('chat read', counted, 9)
  })

  it('holds the typing signal to its budget', async () => {
    // Each in a conversation of its own: the server passes on one signal a
    // second per member and conversation (TYPING_SERVER_GAP_MS, on the real
    // clock) and answers `quiet` in between; what is counted is a signal sent.
    const first = await chatWith(others.Evert!)
    await warm(() => post('/api/typing.php', { conversation: first }))
    const conversation = await chatWith(others.Frank!)
    let status: unknown
    const counted = await trips(200, async () => {
      const res = await post('/api/typing.php', { conversation })
      status = TypingResponse.parse(await res.clone().json()).status
      return res
    })
    expect(status).toBe('sent')
    expectBudget('typing', counted, 5)
  })

  it('holds a search page to its budget', async () => {
    const path = '/api/search.php?page=1&pp=12'
    await warm(() => get(path))
    expectBudget('search', await trips(200, () => get(path)), 4)
  })

  it('holds the profile of a member not opened today to its budget', async () => {
    await warm(() => get(`/api/profile.php?id=${others.Evert!.id}`))
    const path = `/api/profile.php?id=${others.Frank!.id}`
    expectBudget('profile', await trips(200, () => get(path)), 8)
  })

  it('holds the user to its budget', async () => {
    await warm(() => get('/api/user.php'))
    expectBudget('user.php', await trips(200, () => get('/api/user.php')), 2)
  })

  it('holds the likes lists to their budget', async () => {
    await warm(() => get('/api/likes.php'))
    expectBudget('likes', await trips(200, () => get('/api/likes.php')), 2)
  })

  it('holds a like to its budget', async () => {
    await warm(() => post('/api/likes.php', { profile: others.Evert!.id, client_id: randomUUID() }))
    const counted = await trips(200, () =>
      post('/api/likes.php', { profile: others.Gijs!.id, client_id: randomUUID() }),
    )
    // The age gate's settings come from the process's cache; the like and its
    // push (the push domain's event job, decided when it runs) are one statement.
    expectBudget('like', counted, 11)
  })

  it('holds the balance to its budget', async () => {
    await warm(() => get('/api/credits.php'))
    // The session, the member's row (balance and currency) and the value of a
    // credit (the last paid order and the packages on offer: creditValueOf).
    expectBudget('credits', await trips(200, () => get('/api/credits.php')), 3)
  })

  it('holds the unlock of a private photo to its budget', async () => {
    const [first, second] = await database.db
      .insert(images)
      .values(
        ['a', 'b'].map((n) => ({
          memberId: others.Gijs!.id,
          filename: `p-${n}.jpg`,
          thumbFilename: `p-${n}_t.jpg`,
          private: true,
        })),
      )
      .returning({ id: images.id })
    // The warm-up reads the host's settings into the process's cache.
    await warm(() => post('/api/photounlock.php', { id: first!.id }))
    // The session, then one statement: the unlock, its debit and ledger row.
    expectBudget(
      'unlock',
      await trips(200, () => post('/api/photounlock.php', { id: second!.id })),
      2,
    )
  })

  it("holds an idle poll (the sync worker's polls when nothing changed) to its budget", async () => {
    // sync/core/scheduler.ts: user, chats and likes (conditional: If-None-Match
    // with the last ETag, sync/core/http.ts), and the visitors with the likes.
    const conditional = ['/api/user.php', '/api/chats.php', '/api/likes.php']
    const etags = new Map<string, string>()
    for (const path of conditional)
      etags.set(path, (await warm(() => get(path))).headers.get('ETag') ?? '')
    await warm(() => get('/api/visitors.php'))
    const budgets = { '/api/user.php': 2, '/api/chats.php': 2, '/api/likes.php': 2 }
    const all: string[] = []
    for (const path of conditional) {
      const counted = await trips(304, () => get(path, { 'If-None-Match': etags.get(path)! }))
      expectBudget(`idle poll ${path}`, counted, budgets[path as keyof typeof budgets])
      all.push(...counted.statements)
    }
    const visitors = await trips(200, () => get('/api/visitors.php'))
    expectBudget('idle poll /api/visitors.php', visitors, 4)
    all.push(...visitors.statements)
    expectBudget('idle poll (all four)', { count: all.length, statements: all }, 10)
  })

  it("holds the event streams' periodic session check to one statement for them all", async () => {
    // The check of every open stream of a process (api/http/stream-sessions.ts),
    // run as its timer runs it, on the sessions of two members' streams.
    const ids = new Hono<ClockEnv>()
      .use(async (c, next) => {
        c.set('now', () => new Date(now))
        await next()
      })
      .get('/id', async (c) =>
        c.json({ id: (await currentSession(c, database.db, { renewCookie: false }))?.sessionId }),
      )
    const idOf = async (session: string) => {
      const res = await ids.request('http://localhost/id', { headers: { cookie: session } })
      return ((await res.json()) as { id: number }).id
    }
    const own = await login(app, others.Dirk!.email, TEST_PASSWORD)
    const watch = createStreamSessions(database.db, {
      everyMs: 3_600_000,
      now: () => new Date(now),
    })
    const ended: number[] = []
    const stops = [await idOf(cookie), await idOf(own)].map((id) =>
      watch.watch(id, () => ended.push(id)),
    )
    const check = async () => {
      await watch.check()
      return new Response(null, { status: 200 })
    }
    try {
      await warm(check)
      expectBudget('stream session check', await trips(200, check), 1)
      // Once every 5 minutes (SESSION_TOUCH_S) the check renews the sessions, in the same statement.
      const start = now
      try {
        now = start + FIVE_MINUTES
        expectBudget('stream session check (renewal)', await trips(200, check), 1)
      } finally {
        now = start
      }
      expect(ended).toEqual([])
    } finally {
      for (const stop of stops) stop()
    }
  })

  it('does not write the session of a request within 5 minutes of its last renewal', async () => {
    const own = await login(app, others.Carl!.email, TEST_PASSWORD)
    const user = () => send(app, '/api/user.php', { cookie: own })
    const sessionWrites = (counted: Trips) =>
      counted.statements.filter((s) => /^update "sessions"/i.test(s))
    const start = now
    try {
      now = start + 60_000
      expect(sessionWrites(await trips(200, user))).toEqual([])
      now = start + FIVE_MINUTES - 1000
      expect(sessionWrites(await trips(200, user))).toEqual([])
      // The renewal itself, once the 5 minutes are up: the count sees it.
      now = start + FIVE_MINUTES
      expect(sessionWrites(await trips(200, user))).toHaveLength(1)
    } finally {
      now = start
    }
  })
})
