// Sending messages through the outbox against a real Dexie store
// (fake-indexeddb) and a stubbed API: a send over the member's send limit
// (429 rate_limited with Retry-After) is held, not lost and not failed: it
// stays pending with why and until when, and goes out by itself, once, with
// the same client id, when the wait is over.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { retryAfterOf } from '../core/http.ts'
import { retryDelay, waitAfter } from '../core/outbox.ts'
import { SyncEngine, type SyncEvent } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import { advance, profile, reply, settle, stubServer, user } from '../test/fake-api.ts'
import { chatsHandlers } from './handlers.ts'
import { CATCH_UP_CHATS, CATCH_UP_MS } from './messages.ts'

const CONVERSATION = 7
const ME = 1

let db: LocalDb
let engine: SyncEngine
let events: SyncEvent[]

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  // Only the timers the outbox uses: fake-indexeddb needs the real setImmediate.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  db = new LocalDb(`messages-test-${crypto.randomUUID()}`)
  await db.kv.put({ key: 'user', value: user(ME) })
  engine = new SyncEngine(db)
  events = []
  engine.subscribe((e) => events.push(e))
})

afterEach(async () => {
  engine.setLeader(false)
  engine.stopPolling()
  vi.useRealTimers()
  await db.delete()
})

/** The API's answer to a send over the limit. */
const tooFast = (retryAfterS: number) =>
  new Response(JSON.stringify({ error: 'rate_limited', message: 'too many messages' }), {
    status: 429,
    headers: { 'Content-Type': 'application/json', 'Retry-After': String(retryAfterS) },
  })

/** A messages server: refuses while `limited`, else stores each client id once. */
function messagesServer() {
  const state = { limited: true, retryAfterS: 42, stored: new Map<string, number>() }
  const server = stubServer({
    'POST /api/messages.php': ({ body }) => {
      if (state.limited) return tooFast(state.retryAfterS)
      const { text, client_id } = body as { text: string; client_id: string }
      const id = state.stored.get(client_id) ?? state.stored.size + 100
      state.stored.set(client_id, id)
      return reply(
        {
          message: {
            id,
            conversation: CONVERSATION,
            from: ME,
            text,
            sent_at: '2026-01-10T12:00:00.000Z',
            client_id,
            read_at: null,
          },
          credits: 90,
        },
        201,
      )
    },
  })
  const sends = () => server.calls('POST /api/messages.php').map((r) => r.body)
  return { state, sends }
}

describe('a send over the send limit (429 rate_limited)', () => {
  it('stays pending with the reason and the time it goes out, then goes out by itself once, with its client id', async () => {
    const { state, sends } = messagesServer()
    engine.setLeader(true)
    const before = Date.now()
    const sent = await engine.messages.send(CONVERSATION, 'one too many')
    await settle()
    const after = Date.now()
    if (!sent.ok) throw new Error('not stored')
    const key = sent.value.key

    // Held, not failed: the text is there, pending, saying why and until when.
    const held = await db.messages.get(key)
    expect(held).toMatchObject({ status: 'pending', error: 'rate_limited', text: 'one too many' })
    expect(held?.retryAt).toBeGreaterThanOrEqual(before + 42_000)
    expect(held?.retryAt).toBeLessThanOrEqual(after + 42_000)
    expect(await db.outbox.get(key)).toMatchObject({ attempts: 1, lastError: /^rate_limited/ })
    expect(events.filter((e) => e.type === 'outbox_dropped')).toEqual([])
    expect(sends()).toHaveLength(1)

    // Not asked again before Retry-After (the backoff would have asked after 2 s).
    await advance(retryDelay(1))
    await advance(42_000 - retryDelay(1) - 1)
    expect(sends()).toHaveLength(1)

    state.limited = false
    await advance(1)
    expect(sends()).toHaveLength(2)
    expect(sends()[1]).toEqual(sends()[0])
    expect((sends()[1] as { client_id: string }).client_id).toBe(key)
    const delivered = await db.messages.get(key)
    expect(delivered).toMatchObject({ status: 'sent', id: 100, text: 'one too many' })
    expect(delivered?.error).toBeUndefined()
    expect(delivered?.retryAt).toBeUndefined()
    expect(await db.outbox.count()).toBe(0)
    expect(state.stored.size).toBe(1)
  })

  it('waits again when the next try is over the limit too, and keeps messages sent meanwhile in order behind it', async () => {
    const { state, sends } = messagesServer()
    engine.setLeader(true)
    const first = await engine.messages.send(CONVERSATION, 'first')
    await settle()
    state.retryAfterS = 30
    const second = await engine.messages.send(CONVERSATION, 'second')
    await settle()
    if (!first.ok || !second.ok) throw new Error('not stored')
    // The new message asked for a drain: the first went out again, was held again.
    expect(sends().map((b) => (b as { text: string }).text)).toEqual(['first', 'first'])
    expect(await db.messages.get(first.value.key)).toMatchObject({
      status: 'pending',
      error: 'rate_limited',
    })
    expect(await db.messages.get(second.value.key)).toMatchObject({ status: 'pending' })

    state.limited = false
    await advance(30_000)
    expect(sends().map((b) => (b as { text: string }).text)).toEqual([
      'first',
      'first',
      'first',
      'second',
    ])
    expect(await db.messages.get(first.value.key)).toMatchObject({ status: 'sent' })
    expect(await db.messages.get(second.value.key)).toMatchObject({ status: 'sent' })
  })

  it('a later wait for another reason (offline, 5xx) no longer says it is the send limit', async () => {
    // First over the limit, then the network is gone at the retry.
    let answer: () => Response | Promise<Response> = () => tooFast(5)
    stubServer({ 'POST /api/messages.php': () => answer() })
    engine.setLeader(true)
    const sent = await engine.messages.send(CONVERSATION, 'hello')
    await settle()
    if (!sent.ok) throw new Error('not stored')
    expect(await db.messages.get(sent.value.key)).toMatchObject({ error: 'rate_limited' })
    answer = () => Promise.reject(new TypeError('Failed to fetch'))
    await advance(5_000)
    const row = await db.messages.get(sent.value.key)
    expect(row?.status).toBe('pending')
    expect(row?.error).toBeUndefined()
    expect(row?.retryAt).toBeUndefined()
  })
})

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.UTC(2026, 0, 10, 12, 0, 0)
    expect(retryAfterOf('42', now)).toBe(42)
    expect(retryAfterOf(' 7 ', now)).toBe(7)
    expect(retryAfterOf('Sat, 10 Jan 2026 12:01:00 GMT', now)).toBe(60)
    expect(retryAfterOf('Sat, 10 Jan 2026 11:00:00 GMT', now)).toBe(0)
    expect(retryAfterOf('soon', now)).toBeUndefined()
    expect(retryAfterOf(null, now)).toBeUndefined()
  })

  it("waits a rate limit's Retry-After exactly (at most an hour), never less than the backoff for others", () => {
    const limited = { code: 'rate_limited', message: '', status: 429 }
    expect(waitAfter({ ...limited, retryAfterS: 42 }, 1)).toBe(42_000)
    expect(waitAfter({ ...limited, retryAfterS: 42 }, 9)).toBe(42_000)
    expect(waitAfter({ ...limited, retryAfterS: 86_400 }, 1)).toBe(3_600_000)
    expect(waitAfter(limited, 3)).toBe(retryDelay(3))
    // The API's 503 while its database is away names one second.
    const outage = { code: 'database_unavailable', message: '', status: 503, retryAfterS: 1 }
    expect(waitAfter(outage, 1)).toBe(retryDelay(1))
    expect(waitAfter(outage, 6)).toBe(retryDelay(6))
    expect(waitAfter({ ...outage, retryAfterS: 30 }, 1)).toBe(30_000)
  })
})

describe('a held opening (docs/live.md)', () => {
  it('is replaced by its released copy: a pull asks for the newest page, not after its id', async () => {
    await db.messages.put({
      key: 'client-1',
      id: 500,
      conversation: CONVERSATION,
      from: ME,
      text: 'Hi there',
      sentAt: '2026-11-27T12:00:00.000Z',
      status: 'sent',
      order: 500,
      readAt: null,
      held: true,
    })
    const server = stubServer({
      'GET /api/messages.php': () =>
        reply({
          messages: [
            {
              id: 500,
              conversation: CONVERSATION,
              from: ME,
              text: 'Hi there',
              sent_at: '2026-11-27T12:00:00.000Z',
              client_id: 'client-1',
              read_at: null,
            },
          ],
          has_more: false,
          pp: 50,
        }),
    })
    expect(await engine.messages.pull(CONVERSATION)).toMatchObject({ ok: true })
    expect(server.requests[0]!.url.searchParams.get('after')).toBeNull()
    expect((await db.messages.get('client-1'))?.held).toBe(false)
  })
})

describe('catching up when the live stream comes up', () => {
  const OTHER = 2
  const missed = {
    id: 601,
    conversation: CONVERSATION,
    from: OTHER,
    text: 'Sent before the stream listened',
    sent_at: '2026-11-27T12:00:05.000Z',
    client_id: 'their-1',
    read_at: null,
  }
  /** A server where the conversation was empty at the opening and holds `missed` after it. */
  function server() {
    const state = { sent: false }
    const chat = () => ({
      conversation: { id: CONVERSATION },
      profile: profile(OTHER),
      num_unread_messages: state.sent ? 1 : 0,
      last_message: state.sent
        ? { body: missed.text, created_at: missed.sent_at, from_me: false }
        : null,
    })
    const stub = stubServer({
      '/api/user.php': () => reply(user(ME)),
      'GET /api/chats.php': () => reply({ chats: state.sent ? [chat()] : [] }),
      'GET /api/messages.php': () =>
        reply({ messages: state.sent ? [missed] : [], has_more: false, pp: 50 }),
    })
    return { state, stub }
  }

  it('pulls a chat opened in a tab whose message came before the stream listened (no poke was heard)', async () => {
    const { state, stub } = server()
    const worker = chatsHandlers({ messages: engine.messages, syncChats: () => engine.syncChats() })
    // The chat opens empty; the other member's message commits before this
    // member's stream is listening, so no poke names it.
    await worker.pullMessages(CONVERSATION)
    state.sent = true
    // The stream says `ready`: everything is pulled once.
    await engine.syncNow()
    const texts = (await db.messages.where('conversation').equals(CONVERSATION).toArray()).map(
      (m) => m.text,
    )
    expect(texts).toEqual([missed.text])
    expect(stub.calls('GET /api/messages.php')).toHaveLength(2)
  })

  it('costs no request for an opened chat that missed nothing, nor for a chat never opened', async () => {
    const { state, stub } = server()
    state.sent = true
    // Never opened here: the chat list shows it, its messages wait for the opening.
    await engine.syncNow()
    expect(stub.calls('GET /api/messages.php')).toHaveLength(0)
    // Opened, and up to date: the catch-up asks nothing.
    await chatsHandlers({
      messages: engine.messages,
      syncChats: () => engine.syncChats(),
    }).pullMessages(CONVERSATION)
    await engine.syncNow()
    expect(stub.calls('GET /api/messages.php')).toHaveLength(1)
  })

  it(`remembers the last ${CATCH_UP_CHATS} chats opened, for an hour`, async () => {
    expect(CATCH_UP_CHATS).toBe(5)
    expect(CATCH_UP_MS).toBe(3_600_000)
    stubServer({ 'GET /api/messages.php': () => reply({ messages: [], has_more: false, pp: 50 }) })
    for (let c = 1; c <= 7; c++) await engine.messages.opened(c)
    const opened = (await db.kv.get('openedChats'))?.value as Record<string, number>
    expect(Object.keys(opened).map(Number).sort()).toEqual([3, 4, 5, 6, 7])
  })
})

describe('a message carried by its poke', () => {
  const stored = (id: number) => ({
    key: `m${id}`,
    id,
    conversation: CONVERSATION,
    from: 2,
    text: `stored ${id}`,
    sentAt: '2026-11-27T12:00:00.000Z',
    status: 'sent' as const,
    order: id,
    readAt: null,
  })
  const message = (id: number) => ({
    id,
    conversation: CONVERSATION,
    from: 2,
    text: `message ${id}`,
    sent_at: '2026-11-27T12:00:10.000Z',
    client_id: `c-${id}`,
    read_at: null,
  })

  it('is shown before its pull answers, and the pull asks from where the store stood before it (a lost poke is pulled too)', async () => {
    await db.messages.put(stored(500))
    let answer: (r: Response) => void = () => {}
    const server = stubServer({
      'GET /api/messages.php': () =>
        new Promise<Response>((resolve) => {
          answer = resolve
        }),
    })
    const done = engine.messages.received(message(505))
    await settle()
    // The pull has not answered: the poke's copy is already in the store.
    expect((await db.messages.get('c-505'))?.text).toBe('message 505')
    expect(server.requests[0]!.url.searchParams.get('after')).toBe('500')
    // 504's poke was lost (the stream was down): the pull brings it.
    answer(reply({ messages: [message(504), message(505)], has_more: false, pp: 50 }))
    expect(await done).toMatchObject({ ok: true })
    const ids = (await db.messages.where('conversation').equals(CONVERSATION).sortBy('order')).map(
      (m) => m.id,
    )
    expect(ids).toEqual([500, 504, 505])
    // The pull's copy replaced the poke's.
    expect((await db.messages.get('c-505'))?.hinted).toBeUndefined()
  })

  it('when the pull after it fails, the next pull still starts before it (no gap stays behind)', async () => {
    await db.messages.put(stored(500))
    const server = stubServer({ 'GET /api/messages.php': offlineOnce() })
    expect(await engine.messages.received(message(505))).toMatchObject({ ok: false })
    expect((await db.messages.get('c-505'))?.hinted).toBe(true)
    // The next poke (or the chat opening) pulls from 500 again, not from 505.
    await engine.messages.pull(CONVERSATION)
    expect(server.requests.map((r) => r.url.searchParams.get('after'))).toEqual(['500', '500'])
    const ids = (await db.messages.where('conversation').equals(CONVERSATION).sortBy('order')).map(
      (m) => m.id,
    )
    expect(ids).toEqual([500, 504, 505])
  })

  /** Fails the first request as a lost network, then answers 504 and 505. */
  function offlineOnce() {
    let first = true
    return () => {
      if (first) {
        first = false
        return Promise.reject(new TypeError('Failed to fetch'))
      }
      return reply({ messages: [message(504), message(505)], has_more: false, pp: 50 })
    }
  }
})
