// The sync engine against a real Dexie store (fake-indexeddb) and a stubbed
// fetch: what it writes, what it refuses to write, and when it polls.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatEntry, SearchResponse } from '../api/contract/index.ts'
import { SyncEngine, type SyncEvent } from './engine.ts'
import { searchKey } from './search/search-key.ts'
import { LocalDb } from './store/store.ts'
import { profile, user } from './test/fake-api.ts'

// Spec §9 timing, pinned by value (not imported from the code under test):
// polls every 60 s, every 300 s with a push subscription, chats and likes
// 1 s after login.
const POLL = 60_000
const POLL_WITH_PUSH = 300_000
const CHATS_START_DELAY = 1_000

// ---- contract-shaped fixtures ------------------------------------------------

const chat = (id: number, partner: number, unread = 0): ChatEntry => ({
  conversation: { id },
  profile: profile(partner),
  num_unread_messages: unread,
  last_message: { body: `hi ${id}`, created_at: '2024-06-01T12:00:00.000Z', from_me: false },
})

const searchPage = (ids: number[], numResults = 40): SearchResponse => ({
  profiles: ids.map((id) => profile(id)),
  filter_options: {
    gender: ['female', 'male'],
    min_age: 18,
    max_age: 100,
    country: [
      { id: 'NL', name: 'Netherlands' },
      { id: 'BE', name: 'Belgium' },
    ],
    countryregion: [{ id: 'NL-UT', name: 'Utrecht' }],
  },
  filters: {
    gender: 'female',
    country: 'NL',
    countryregion: null,
    min_age: 18,
    max_age: 100,
    verified: false,
  },
  paging: { num_results: numResults, page: 1, pp: 12 },
  similar: [],
})

// ---- a stubbed server ----------------------------------------------------------

type Handler = (request: { url: URL; init: RequestInit }) => Response | Promise<Response>

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
const forbidden = () => reply({ error: 'not_logged_in' }, 403)
const offline: Handler = () => Promise.reject(new TypeError('Failed to fetch'))

/**
 * Stubs global fetch with one handler per API path (anything else is a 404)
 * and records every request in `requests`.
 */
function stubServer(routes: Record<string, Handler>) {
  const requests: { url: URL; init: RequestInit }[] = []
  const fetch = vi.fn(async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input))
    requests.push({ url, init })
    const handler = routes[url.pathname]
    return handler ? handler({ url, init }) : reply({ error: 'not_found' }, 404)
  })
  vi.stubGlobal('fetch', fetch)
  const calls = (path: string) => requests.filter((r) => r.url.pathname === path).length
  return { requests, calls, routes }
}

// ---- per-test store and engine -------------------------------------------------

let db: LocalDb
let engine: SyncEngine
let events: SyncEvent[]

beforeEach(() => {
  // The engine runs in a worker, where `self.location` is the site's address.
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`sync-test-${crypto.randomUUID()}`)
  engine = new SyncEngine(db)
  events = []
  engine.subscribe((e) => events.push(e))
})

afterEach(async () => {
  engine.stopPolling()
  vi.useRealTimers()
  await db.delete()
})

/** Fills every table, as a member's device would be after a while. */
async function fillStore() {
  await db.kv.put({ key: 'user', value: user() })
  await db.chats.put({ ...chat(7, 70), id: 7, order: 0 })
  await db.profiles.put({ ...profile(70), seenAt: 1 })
  await db.searchPages.put({
    key: 'default',
    page: 1,
    ids: [70],
    numResults: 1,
    filters: searchPage([]).filters,
    filterOptions: searchPage([]).filter_options,
    fetchedAt: 1,
  })
  await db.outbox.put({
    id: crypto.randomUUID(),
    kind: 'like',
    payload: {},
    createdAt: 1,
    attempts: 0,
  })
}

const tableSizes = async () =>
  Object.fromEntries(await Promise.all(db.tables.map(async (t) => [t.name, await t.count()])))

const emptyTables = {
  kv: 0,
  searchPages: 0,
  profiles: 0,
  chats: 0,
  outbox: 0,
  likes: 0,
  likedBy: 0,
  profileDetails: 0,
  cams: 0,
  messages: 0,
}

describe('login', () => {
  it('posts the credentials, stores the user and emits a user event', async () => {
    const server = stubServer({ '/api/login.php': () => reply(user(5)) })
    const res = await engine.login('member5@example.com', 'secret')

    expect(res).toEqual({ ok: true, value: user(5) })
    expect(await engine.getUser()).toEqual(user(5))
    expect(events).toContainEqual({ type: 'user', user: user(5) })

    const [request] = server.requests
    expect(request!.init.method).toBe('POST')
    expect(JSON.parse(String(request!.init.body))).toEqual({
      email: 'member5@example.com',
      password: 'secret',
    })
    expect(request!.init.credentials).toBe('same-origin')
    expect(request!.init.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Client-Package': 'amora-pwa',
      'X-Original-Host': 'localhost',
    })
  })

  it('refuses empty credentials without asking the server', async () => {
    const server = stubServer({})
    const res = await engine.login('', 'secret')
    expect(res).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'email' } })
    expect(server.requests).toHaveLength(0)
  })

  it('passes the API error on and stores nothing', async () => {
    stubServer({
      '/api/login.php': () => reply({ error: 'invalid_credentials', message: 'no' }, 401),
    })
    const res = await engine.login('member5@example.com', 'wrong')
    expect(res).toEqual({
      ok: false,
      error: { code: 'invalid_credentials', message: 'no', status: 401 },
    })
    expect(await tableSizes()).toEqual(emptyTables)
    expect(events).toEqual([])
  })

  it('does not write a response that breaks the contract', async () => {
    stubServer({ '/api/login.php': () => reply({ email: 'x', profile: { id: 'one' } }) })
    const res = await engine.login('member5@example.com', 'secret')
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_response' } })
    expect(await engine.getUser()).toBeNull()
    expect(await tableSizes()).toEqual(emptyTables)
    expect(events).toEqual([])
  })

  it('starts from an empty store when another member logs in on this device', async () => {
    await fillStore()
    stubServer({ '/api/login.php': () => reply(user(2)) })
    await engine.login('member2@example.com', 'secret')
    expect(await engine.getUser()).toEqual(user(2))
    expect(await tableSizes()).toEqual({ ...emptyTables, kv: 1 })
  })
})

describe('refreshUser', () => {
  it('clears the user and wipes every table on 403 (spec §8)', async () => {
    await fillStore()
    stubServer({ '/api/user.php': forbidden })
    expect(await engine.refreshUser()).toEqual({ ok: true, value: null })
    expect(await tableSizes()).toEqual(emptyTables)
    expect(events).toContainEqual({ type: 'user', user: null })
  })

  it('keeps everything when the network is down', async () => {
    await fillStore()
    stubServer({ '/api/user.php': offline })
    expect(await engine.refreshUser()).toMatchObject({ ok: false, error: { code: 'offline' } })
    expect(await engine.getUser()).toEqual(user())
    expect(await db.chats.count()).toBe(1)
  })

  it('keeps everything on a server error without an API error body', async () => {
    await fillStore()
    stubServer({ '/api/user.php': () => new Response('<h1>Bad gateway</h1>', { status: 502 }) })
    expect(await engine.refreshUser()).toMatchObject({
      ok: false,
      error: { code: 'server_error', status: 502 },
    })
    expect(await engine.getUser()).toEqual(user())
  })

  it('stores a new version of the user', async () => {
    await fillStore()
    const renamed = { ...user(), paid_user: true }
    stubServer({ '/api/user.php': () => reply(renamed) })
    await engine.refreshUser()
    expect(await engine.getUser()).toEqual(renamed)
    expect(events).toContainEqual({ type: 'synced', what: 'user' })
  })
})

describe('syncChats', () => {
  it("replaces the list with the server's, in the server's order", async () => {
    await fillStore()
    const chats = [chat(3, 30, 2), chat(1, 10), chat(2, 20, 1)]
    stubServer({ '/api/chats.php': () => reply({ chats }) })

    expect(await engine.syncChats()).toEqual({ ok: true, value: 3 })
    const stored = await db.chats.orderBy('order').toArray()
    expect(stored.map((c) => c.id)).toEqual([3, 1, 2])
    expect(stored.map((c) => c.num_unread_messages)).toEqual([2, 0, 1])
    expect(await db.chats.get(7)).toBeUndefined()
    expect((await db.profiles.bulkGet([30, 10, 20])).map((p) => p?.name)).toEqual([
      'Member 30',
      'Member 10',
      'Member 20',
    ])
    expect(events).toContainEqual({ type: 'synced', what: 'chats' })
  })

  it('changes nothing when the write fails half-way', async () => {
    await fillStore()
    stubServer({ '/api/chats.php': () => reply({ chats: [chat(3, 30)] }) })
    // The chats are cleared first; the profiles write then fails.
    vi.spyOn(db.profiles, 'bulkPut').mockRejectedValue(new Error('QuotaExceededError'))
    await expect(engine.syncChats()).rejects.toThrow()
    expect((await db.chats.toArray()).map((c) => c.id)).toEqual([7])
  })

  it('keeps the old list when the response breaks the contract', async () => {
    await fillStore()
    stubServer({ '/api/chats.php': () => reply({ chats: [{ conversation: {} }] }) })
    expect(await engine.syncChats()).toMatchObject({ ok: false, error: { code: 'bad_response' } })
    expect((await db.chats.toArray()).map((c) => c.id)).toEqual([7])
  })

  it('asks for the user again on 403 and keeps a user that is still logged in', async () => {
    await fillStore()
    const server = stubServer({ '/api/chats.php': forbidden, '/api/user.php': () => reply(user()) })
    expect(await engine.syncChats()).toMatchObject({ ok: false, error: { status: 403 } })
    expect(server.calls('/api/user.php')).toBe(1)
    expect(await engine.getUser()).toEqual(user())
  })

  it('clears the store when the user is gone too', async () => {
    await fillStore()
    const server = stubServer({ '/api/chats.php': forbidden, '/api/user.php': forbidden })
    await engine.syncChats()
    expect(server.calls('/api/user.php')).toBe(1)
    expect(await tableSizes()).toEqual(emptyTables)
  })
})

describe('search', () => {
  it('stores the page under searchKey(filters), with ids into profiles', async () => {
    const server = stubServer({ '/api/search.php': () => reply(searchPage([11, 12, 13], 3)) })
    const filters = { country: 'NL', min_age: 25, max_age: 40 }

    const res = await engine.search(filters, 2, true)
    expect(res).toEqual({ ok: true, value: { key: searchKey(filters) } })

    const page = await db.searchPages.get([searchKey(filters), 2])
    expect(page).toMatchObject({
      ids: [11, 12, 13],
      numResults: 3,
      filters: searchPage([]).filters,
      filterOptions: searchPage([]).filter_options,
    })
    expect((await db.profiles.bulkGet([11, 12, 13])).every(Boolean)).toBe(true)

    const query = Object.fromEntries(server.requests[0]!.url.searchParams)
    expect(query).toEqual({
      country: 'NL',
      min_age: '25',
      max_age: '40',
      page: '2',
      pp: '12',
      manual_search: '1',
    })
  })

  it('stores a search without filters under the default key, and sends no filters', async () => {
    const server = stubServer({ '/api/search.php': () => reply(searchPage([11])) })
    await engine.search({}, 1)
    expect(await db.searchPages.get(['default', 1])).toBeDefined()
    expect(Object.fromEntries(server.requests[0]!.url.searchParams)).toEqual({
      page: '1',
      pp: '12',
    })
  })

  it('passes sort=online to the server and stores the page apart', async () => {
    const server = stubServer({ '/api/search.php': () => reply(searchPage([11])) })
    const res = await engine.search({ country: 'NL', sort: 'online' }, 1, true)
    expect(res).toEqual({ ok: true, value: { key: '|NL||||online' } })
    expect(await db.searchPages.get(['|NL||||online', 1])).toBeDefined()
    expect(server.requests[0]!.url.searchParams.get('sort')).toBe('online')
  })

  it('search page size is 12 (spec §9): every page is asked for with pp=12', async () => {
    const server = stubServer({ '/api/search.php': () => reply(searchPage([11])) })
    await engine.search({}, 1)
    await engine.search({ country: 'NL' }, 3, true)
    expect(server.requests.map((r) => r.url.searchParams.get('pp'))).toEqual(['12', '12'])
  })

  it('writes nothing when the response breaks the contract', async () => {
    stubServer({ '/api/search.php': () => reply({ profiles: [{ id: 1 }] }) })
    expect(await engine.search({}, 1)).toMatchObject({
      ok: false,
      error: { code: 'bad_response' },
    })
    expect(await tableSizes()).toEqual(emptyTables)
  })
})

describe('logout', () => {
  it('wipes the store when the server answers done', async () => {
    await fillStore()
    stubServer({ '/api/logout.php': () => reply({ status: 'done' }) })
    expect(await engine.logout()).toEqual({ ok: true, value: null })
    expect(await tableSizes()).toEqual(emptyTables)
    expect(events).toContainEqual({ type: 'user', user: null })
  })

  it('wipes the store even when the server cannot be reached, and says why', async () => {
    await fillStore()
    stubServer({ '/api/logout.php': offline })
    expect(await engine.logout()).toMatchObject({ ok: false, error: { code: 'offline' } })
    expect(await tableSizes()).toEqual(emptyTables)
    expect(await engine.getUser()).toBeNull()
  })
})

describe('polling (spec §9)', () => {
  /** Lets the stubbed fetch and fake-indexeddb (which runs on setImmediate) finish. */
  const settle = async () => {
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve))
  }

  /** Moves the fake clock by `ms`, then lets the work the timers started finish. */
  const advance = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms)
    await settle()
  }

  const polled = () =>
    stubServer({
      '/api/login.php': () => reply(user()),
      '/api/user.php': () => reply(user()),
      '/api/chats.php': () => reply({ chats: [chat(1, 10)] }),
    })

  beforeEach(() => {
    // Only the timers the engine uses: fake-indexeddb needs the real setImmediate.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })

  it('fetches chats 1 s after login and the user every 60 s', async () => {
    const server = polled()
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')

    await advance(CHATS_START_DELAY - 1)
    expect(server.calls('/api/chats.php')).toBe(0)
    await advance(1)
    expect(server.calls('/api/chats.php')).toBe(1)

    await advance(POLL - CHATS_START_DELAY - 1)
    expect(server.calls('/api/user.php')).toBe(0)
    await advance(1)
    expect(server.calls('/api/user.php')).toBe(1)
    expect(server.calls('/api/chats.php')).toBe(1)

    await advance(CHATS_START_DELAY)
    expect(server.calls('/api/chats.php')).toBe(2)
    await advance(POLL)
    expect(server.calls('/api/user.php')).toBe(2)
    expect(server.calls('/api/chats.php')).toBe(3)
  })

  it('polls every 300 s with a push subscription', async () => {
    const server = polled()
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    engine.setPushSubscribed(true)

    await advance(CHATS_START_DELAY)
    expect(server.calls('/api/chats.php')).toBe(1)
    await advance(POLL * 2)
    expect(server.calls('/api/user.php')).toBe(0)
    expect(server.calls('/api/chats.php')).toBe(1)

    await advance(POLL_WITH_PUSH - POLL * 2 - CHATS_START_DELAY)
    expect(server.calls('/api/user.php')).toBe(1)
    await advance(CHATS_START_DELAY)
    expect(server.calls('/api/chats.php')).toBe(2)

    // Back to 60 s when the subscription goes.
    engine.setPushSubscribed(false)
    await advance(POLL)
    expect(server.calls('/api/user.php')).toBe(2)
  })

  it('pauses polling while the live stream is up and polls everything at once when it drops', async () => {
    // A stand-in for the browser's EventSource: the test says when the server
    // is ready and when the connection fails.
    const sources: { fire: (type: string) => void; readyState: number }[] = []
    class FakeEventSource {
      static readonly CLOSED = 2
      readyState = 0
      private listeners = new Map<string, () => void>()
      constructor() {
        sources.push({
          fire: (type) => this.listeners.get(type)?.(),
          get readyState() {
            return 0
          },
        })
      }
      addEventListener(type: string, listener: () => void) {
        this.listeners.set(type, listener)
      }
      close() {}
    }
    vi.stubGlobal('EventSource', FakeEventSource)
    const server = polled()
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    expect(sources).toHaveLength(1)
    sources[0]!.fire('ready')
    // Up: one full pull (pokes sent before it was up were never heard) ...
    await advance(0)
    expect(server.calls('/api/user.php')).toBe(1)
    expect(server.calls('/api/chats.php')).toBe(1)
    // ... then no polling while it stays up.
    await advance(POLL * 3)
    expect(server.calls('/api/user.php')).toBe(1)
    expect(server.calls('/api/chats.php')).toBe(1)

    sources[0]!.fire('error') // the connection dropped; the browser reconnects
    await advance(0)
    expect(server.calls('/api/user.php')).toBe(2)
    expect(server.calls('/api/chats.php')).toBe(2)
    await advance(POLL)
    expect(server.calls('/api/user.php')).toBe(3)

    sources[0]!.fire('ready') // back: one pull, then quiet again
    await advance(POLL * 3)
    expect(server.calls('/api/user.php')).toBe(4)
  })

  it('does not poll in a tab that is not the leader', async () => {
    const server = polled()
    engine.setLeader(false)
    await engine.login('member1@example.com', 'secret')
    await advance(POLL * 3)
    expect(server.calls('/api/chats.php')).toBe(0)
    expect(server.calls('/api/user.php')).toBe(0)
  })

  it('starts polling when a tab becomes the leader with a stored user', async () => {
    await db.kv.put({ key: 'user', value: user() })
    const server = polled()
    engine.setLeader(true)
    await settle()
    await advance(CHATS_START_DELAY)
    expect(server.calls('/api/chats.php')).toBe(1)
  })

  it('stops polling after logout', async () => {
    const server = polled()
    server.routes['/api/logout.php'] = () => reply({ status: 'done' })
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    await engine.logout()
    await advance(POLL * 3)
    expect(server.calls('/api/chats.php')).toBe(0)
    expect(server.calls('/api/user.php')).toBe(0)
  })

  it('keeps one loop per resource when polling restarts while a request is in flight', async () => {
    const server = polled()
    server.routes['/api/logout.php'] = () => reply({ status: 'done' })
    let answer: () => void = () => {}
    server.routes['/api/chats.php'] = () =>
      new Promise<Response>((resolve) => {
        answer = () => resolve(reply({ chats: [] }))
      })
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    await advance(CHATS_START_DELAY) // the first chats request hangs
    expect(server.calls('/api/chats.php')).toBe(1)

    engine.setPushSubscribed(true) // restarts the timers meanwhile
    answer()
    await settle()
    server.routes['/api/chats.php'] = () => reply({ chats: [] })
    await advance(CHATS_START_DELAY)
    expect(server.calls('/api/chats.php')).toBe(2)
    await advance(POLL_WITH_PUSH)
    expect(server.calls('/api/chats.php')).toBe(3)

    await engine.logout()
    await advance(POLL_WITH_PUSH * 3)
    expect(server.calls('/api/chats.php')).toBe(3)
  })

  it('stops polling when the session ends on the server', async () => {
    const server = polled()
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    server.routes['/api/chats.php'] = forbidden
    server.routes['/api/user.php'] = forbidden
    await advance(CHATS_START_DELAY)
    expect(server.calls('/api/user.php')).toBe(1)
    expect(await engine.getUser()).toBeNull()
    await advance(POLL * 3)
    expect(server.calls('/api/chats.php')).toBe(1)
    expect(server.calls('/api/user.php')).toBe(1)
  })
})
