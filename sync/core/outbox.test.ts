// The outbox against a real Dexie store (fake-indexeddb) and a stubbed likes
// server that applies each client id at most once.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SyncEngine, type SyncEvent } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import {
  advance,
  forbidden,
  likesServer,
  offline,
  reply,
  settle,
  stubServer,
  user,
} from '../test/fake-api.ts'
import { OUTBOX_RETRY_BASE_MS, OUTBOX_RETRY_MAX_MS, outcomeOf, retryDelay } from './outbox.ts'

let db: LocalDb
let engine: SyncEngine
let events: SyncEvent[]
const engines: SyncEngine[] = []

async function newEngine(name: string, leader: boolean) {
  const e = new SyncEngine(new LocalDb(name))
  engines.push(e)
  e.setLeader(leader)
  return e
}

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  // Only the timers the outbox uses: fake-indexeddb needs the real setImmediate.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const name = `outbox-test-${crypto.randomUUID()}`
  db = new LocalDb(name)
  await db.kv.put({ key: 'user', value: user() })
  engine = new SyncEngine(db)
  engines.push(engine)
  events = []
  engine.subscribe((e) => events.push(e))
})

afterEach(async () => {
  for (const e of engines.splice(0)) {
    e.setLeader(false)
    e.stopPolling()
  }
  vi.useRealTimers()
  await db.delete()
})

const liked = async (id: number) => (await db.likes.get(id))?.liked ?? false
const likeBodies = (server: ReturnType<typeof stubServer>, method: 'POST' | 'DELETE') =>
  server.calls(`${method} /api/likes.php`).map((r) => r.body)

describe('enqueue', () => {
  it('stores the action and shows its effect at once, offline too', async () => {
    const server = stubServer({ '/api/likes.php': offline })
    engine.setLeader(true)
    const id = await engine.likes.like(70)

    expect(await liked(70)).toBe(true)
    const [entry] = await db.outbox.toArray()
    expect(entry).toMatchObject({ id, kind: 'like', payload: { profile: 70 } })
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    await settle()
    expect(server.calls('POST /api/likes.php')).toHaveLength(1)
    expect(await db.outbox.get(id)).toMatchObject({ attempts: 1, lastError: /^offline/ })
    expect(await liked(70)).toBe(true)
  })

  it('writes neither the action nor its effect when the transaction fails', async () => {
    stubServer({})
    vi.spyOn(db.likes, 'put').mockRejectedValue(new Error('QuotaExceededError'))
    await expect(engine.likes.like(70)).rejects.toThrow('QuotaExceededError')
    expect(await db.outbox.count()).toBe(0)
    expect(await db.likes.count()).toBe(0)
  })

  it('keeps the order of actions made in the same millisecond', async () => {
    stubServer({})
    vi.spyOn(Date, 'now').mockReturnValue(1_000)
    await engine.likes.like(1)
    await engine.likes.unlike(1)
    await engine.likes.like(2)
    const rows = await db.outbox.orderBy('createdAt').toArray()
    expect(rows.map((r) => [r.kind, r.createdAt])).toEqual([
      ['like', 1_000],
      ['unlike', 1_001],
      ['like', 1_002],
    ])
  })

  it('refuses an unknown kind and a bad payload', async () => {
    await expect(engine.outbox.enqueue('teleport', {})).rejects.toThrow('no handler')
    await expect(engine.outbox.enqueue('like', { profile: -1 })).rejects.toThrow('invalid payload')
    expect(await db.outbox.count()).toBe(0)
  })
})

describe('drain', () => {
  it('sends each entry with its client id, deletes it and keeps the server answer', async () => {
    const likes = likesServer()
    const server = stubServer(likes.routes)
    engine.setLeader(true)
    const id = await engine.likes.like(70)
    await settle()

    expect(likeBodies(server, 'POST')).toEqual([{ profile: 70, client_id: id }])
    expect(await db.outbox.count()).toBe(0)
    expect(await db.likes.get(70)).toMatchObject({ liked: true, serverLiked: true })
    expect(likes.state.given).toEqual([70])
  })

  it('does not send from a tab that is not the leader', async () => {
    const server = stubServer(likesServer().routes)
    engine.setLeader(false)
    await engine.likes.like(70)
    await engine.outbox.drain()
    await settle()
    expect(server.requests).toHaveLength(0)
    expect(await liked(70)).toBe(true)
  })

  it("sends what another tab enqueued, seen through the store's live query", async () => {
    const likes = likesServer()
    const server = stubServer(likes.routes)
    engine.setLeader(true)
    await settle()
    const otherTab = await newEngine(db.name, false)
    const id = await otherTab.likes.like(70)
    // Dexie delivers cross-instance changes to live queries on a timer.
    await advance(100)
    expect(likeBodies(server, 'POST')).toEqual([{ profile: 70, client_id: id }])
    expect(likes.state.given).toEqual([70])
    expect(await db.outbox.count()).toBe(0)
  })

  it('replays the SAME client id after a lost response, and the server applies it once', async () => {
    const likes = likesServer()
    const server = stubServer(likes.routes)
    const post = likes.routes['POST /api/likes.php']!
    // The server applies the like, then the connection drops before the answer arrives.
    server.routes['POST /api/likes.php'] = async (req) => {
      await post(req)
      throw new TypeError('Failed to fetch')
    }
    engine.setLeader(true)
    const id = await engine.likes.like(70)
    await settle()
    expect(likes.state.changes).toBe(1)
    expect(await db.outbox.get(id)).toMatchObject({ attempts: 1 })

    server.routes['POST /api/likes.php'] = post
    await advance(retryDelay(1))
    const sent = likeBodies(server, 'POST')
    expect(sent).toEqual([
      { profile: 70, client_id: id },
      { profile: 70, client_id: id },
    ])
    expect(likes.state.changes).toBe(1)
    expect(likes.state.given).toEqual([70])
    expect(await db.outbox.count()).toBe(0)
    expect(await db.likes.get(70)).toMatchObject({ liked: true, serverLiked: true })
  })

  it('sends a like and an unlike made offline in order: the profile ends unliked', async () => {
    const likes = likesServer()
    const server = stubServer({ '/api/likes.php': offline })
    engine.setLeader(true)
    const likeId = await engine.likes.like(70)
    const unlikeId = await engine.likes.unlike(70)
    await settle()
    expect(await liked(70)).toBe(false)

    Object.assign(server.routes, likes.routes)
    delete server.routes['/api/likes.php']
    server.routes['/api/user.php'] = () => reply(user())
    server.routes['/api/chats.php'] = () => reply({ chats: [] })
    const before = server.requests.length
    await engine.syncNow() // the page came online
    expect(
      server.requests
        .slice(before)
        .filter((r) => r.url.pathname === '/api/likes.php' && r.method !== 'GET')
        .map((r) => [r.method, r.body]),
    ).toEqual([
      ['POST', { profile: 70, client_id: likeId }],
      ['DELETE', { profile: 70, client_id: unlikeId }],
    ])
    expect(likes.state.given).toEqual([])
    expect(await liked(70)).toBe(false)
    expect(await db.outbox.count()).toBe(0)
  })

  it('drops an entry the server refuses (4xx), reverts its effect and tells the page', async () => {
    const likes = likesServer()
    const server = stubServer(likes.routes)
    engine.setLeader(true)
    await engine.likes.like(404) // the fake server answers 404 for member 404
    await engine.likes.like(71)
    await settle()
    expect(await db.likes.get(404)).toBeUndefined()
    expect(await liked(71)).toBe(true)
    expect(await db.outbox.count()).toBe(0)
    expect(events).toContainEqual({
      type: 'outbox_dropped',
      kind: 'like',
      payload: { profile: 404 },
      error: { code: 'not_found', message: 'not_found', status: 404 },
    })
    // The next entry went out after the refused one.
    expect(likeBodies(server, 'POST').map((b) => (b as { profile: number }).profile)).toEqual([
      404, 71,
    ])
  })

  it('reverts an unlike to liked when the server refuses it', async () => {
    const likes = likesServer([70])
    stubServer({
      ...likes.routes,
      'DELETE /api/likes.php': () => reply({ error: 'invalid_input', field: 'profile' }, 400),
    })
    engine.setLeader(true)
    await engine.syncLikes()
    await engine.likes.unlike(70)
    await settle()
    expect(await db.likes.get(70)).toMatchObject({ liked: true, serverLiked: true })
    expect(events.some((e) => e.type === 'outbox_dropped')).toBe(true)
  })

  it.each([
    [500, 'server_error'],
    [503, 'unavailable'],
    [429, 'rate_limited'],
    [408, 'timeout'],
  ])('keeps the entry on %i and retries with backoff', async (status, code) => {
    const likes = likesServer()
    const server = stubServer({ '/api/likes.php': () => reply({ error: code }, status) })
    engine.setLeader(true)
    await engine.likes.like(70)
    await settle()
    expect(server.calls('POST /api/likes.php')).toHaveLength(1)
    expect(await db.outbox.count()).toBe(1)
    expect(await liked(70)).toBe(true)
    expect(events.filter((e) => e.type === 'outbox_dropped')).toEqual([])

    await advance(retryDelay(1) - 1)
    expect(server.calls('POST /api/likes.php')).toHaveLength(1)
    await advance(1)
    expect(server.calls('POST /api/likes.php')).toHaveLength(2)
    await advance(retryDelay(2))
    expect(server.calls('POST /api/likes.php')).toHaveLength(3)

    Object.assign(server.routes, likes.routes)
    delete server.routes['/api/likes.php']
    await advance(retryDelay(3))
    expect(server.calls('POST /api/likes.php')).toHaveLength(4)
    expect(await db.outbox.count()).toBe(0)
    expect(likes.state.given).toEqual([70])
  })

  it('retries at once on syncNow, without waiting for the backoff', async () => {
    const likes = likesServer()
    const server = stubServer({ '/api/likes.php': offline, '/api/user.php': () => reply(user()) })
    engine.setLeader(true)
    await engine.likes.like(70)
    await settle()
    Object.assign(server.routes, likes.routes)
    delete server.routes['/api/likes.php']
    server.routes['/api/chats.php'] = () => reply({ chats: [] })
    await engine.syncNow()
    expect(server.calls('POST /api/likes.php')).toHaveLength(2)
    expect(likes.state.given).toEqual([70])
    // Drained before the likes list was fetched, so the list already has it.
    const order = server.requests.map((r) => `${r.method} ${r.url.pathname}`)
    expect(order.lastIndexOf('POST /api/likes.php')).toBeLessThan(
      order.lastIndexOf('GET /api/likes.php'),
    )
    // The retry timer of the failed attempt is gone: nothing more is sent.
    await advance(OUTBOX_RETRY_MAX_MS)
    expect(server.calls('POST /api/likes.php')).toHaveLength(2)
  })

  it('asks for the user on 403 and leaves nothing behind when the session is gone', async () => {
    const server = stubServer({ '/api/likes.php': forbidden, '/api/user.php': forbidden })
    engine.setLeader(true)
    await engine.likes.like(70)
    await settle()
    expect(server.calls('/api/user.php')).toHaveLength(1)
    expect(await db.outbox.count()).toBe(0)
    expect(await db.likes.count()).toBe(0)
    expect(await engine.getUser()).toBeNull()
  })

  it('does not write an answer back after logout wiped the store mid-request', async () => {
    const likes = likesServer()
    const server = stubServer(likes.routes)
    // The real handler, kept before the route is replaced: the late answer
    // must be a real one (a like the server applied), or the test proves nothing.
    const apply = server.routes['POST /api/likes.php']!
    let answer: () => void = () => {}
    let answered = false
    server.routes['POST /api/likes.php'] = (req) =>
      new Promise<Response>((resolve) => {
        answer = () => {
          answered = true
          resolve(apply(req))
        }
      })
    server.routes['/api/logout.php'] = () => reply({ status: 'done' })
    engine.setLeader(true)
    await engine.likes.like(70)
    await settle()
    await engine.logout()
    answer()
    await settle()
    expect(answered).toBe(true)
    expect(likes.state.given).toContain(70) // the server did apply it
    expect(await db.likes.count()).toBe(0)
    expect(await db.outbox.count()).toBe(0)
  })
})

describe('retry policy', () => {
  it('doubles from the base delay and stops at the cap', () => {
    expect(retryDelay(1)).toBe(OUTBOX_RETRY_BASE_MS)
    expect(retryDelay(2)).toBe(OUTBOX_RETRY_BASE_MS * 2)
    expect(retryDelay(3)).toBe(OUTBOX_RETRY_BASE_MS * 4)
    expect(retryDelay(50)).toBe(OUTBOX_RETRY_MAX_MS)
  })

  it.each<[Parameters<typeof outcomeOf>[0], 'retry' | 'drop']>([
    [{ code: 'offline', message: '' }, 'retry'],
    [{ code: 'bad_response', message: '' }, 'retry'],
    [{ code: 'server_error', message: '', status: 502 }, 'retry'],
    [{ code: 'rate_limited', message: '', status: 429 }, 'retry'],
    [{ code: 'timeout', message: '', status: 408 }, 'retry'],
    [{ code: 'invalid_input', message: '', status: 400 }, 'drop'],
    [{ code: 'not_found', message: '', status: 404 }, 'drop'],
    [{ code: 'conflict', message: '', status: 409 }, 'drop'],
  ])('%o → %s', (error, outcome) => {
    expect(outcomeOf(error)).toBe(outcome)
  })
})
