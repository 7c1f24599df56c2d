// Likes sync against a real Dexie store (fake-indexeddb) and a stubbed likes
// server: the lists, the "opened a like" flag, polling (spec §9) and 403s.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SyncEngine } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import {
  advance,
  forbidden,
  likesServer,
  offline,
  profile,
  reply,
  settle,
  stubServer,
  user,
} from '../test/fake-api.ts'
import { givenOrder, receivedOrder } from './reconcile.ts'

// Spec §9 timing, pinned by value (not imported from the code under test):
// polls every 60 s, every 300 s with a push subscription, chats and likes
// 1 s after login.
const POLL = 60_000
const POLL_WITH_PUSH = 300_000
const CHATS_START_DELAY = 1_000

let db: LocalDb
let engine: SyncEngine

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  db = new LocalDb(`likes-test-${crypto.randomUUID()}`)
  engine = new SyncEngine(db)
})

afterEach(async () => {
  engine.setLeader(false)
  engine.stopPolling()
  vi.useRealTimers()
  await db.delete()
})

const loggedIn = () => db.kv.put({ key: 'user', value: user() })

describe('syncLikes', () => {
  it('stores given and received likes and their profiles', async () => {
    await loggedIn()
    const likes = likesServer(
      [5, 3],
      [
        { id: 8, new: false },
        { id: 9, new: true },
      ],
    )
    stubServer(likes.routes)
    expect(await engine.syncLikes()).toEqual({ ok: true, value: { given: 2, received: 2 } })

    expect(givenOrder(await db.likes.toArray()).map((r) => r.id)).toEqual([5, 3])
    const received = receivedOrder(await db.likedBy.toArray())
    expect(received.map((r) => [r.id, r.likeNew])).toEqual([
      [9, true],
      [8, false],
    ])
    expect((await db.profiles.bulkGet([5, 3, 8, 9])).every(Boolean)).toBe(true)
  })

  it('knows every liked id from page 1, and "show more" adds the next page of a list', async () => {
    await loggedIn()
    const given = Array.from({ length: 60 }, (_, i) => 100 + i)
    const received = Array.from({ length: 60 }, (_, i) => 300 + i)
    stubServer({
      'GET /api/likes.php': ({ url }) => {
        const page = Number(url.searchParams.get('page') ?? 1)
        const type = url.searchParams.get('type')
        const slice = (ids: number[]) => ids.slice((page - 1) * 48, page * 48)
        return reply({
          profiles: type === 'received' ? [] : slice(given).map((id) => profile(id)),
          liked_ids: type ? [] : given,
          counts: { given: 60, received: 60, received_new: 0 },
          paging: { page, pp: 48 },
          liked_by: (type === 'given' ? [] : slice(received)).map((id) => ({
            id,
            like_new: false,
            created_at: '2024-06-01T12:00:00.000Z',
            profile: profile(id),
          })),
        })
      },
    })
    await engine.syncLikes()
    // Liked beyond the first page: the like button is right, the profile not yet stored.
    expect((await db.likes.get(159))?.liked).toBe(true)
    expect(await db.profiles.get(159)).toBeUndefined()
    expect(await db.likedBy.count()).toBe(48)

    expect(await engine.likes.loadPage('given', 2)).toEqual({ ok: true, value: 12 })
    expect(await db.profiles.get(159)).toBeDefined()
    expect(await engine.likes.loadPage('received', 2)).toEqual({ ok: true, value: 12 })
    const order = receivedOrder(await db.likedBy.toArray()).map((r) => r.id)
    expect(order).toEqual(received)
  })

  it('replaces what the server no longer has', async () => {
    await loggedIn()
    const likes = likesServer([5, 3], [{ id: 8, new: true }])
    stubServer(likes.routes)
    await engine.syncLikes()
    likes.state.given = [3]
    likes.state.likedBy = []
    await engine.syncLikes()
    expect((await db.likes.toArray()).map((r) => r.id)).toEqual([3])
    expect(await db.likedBy.count()).toBe(0)
  })

  it('keeps the stored lists when the network is down or the answer breaks the contract', async () => {
    await loggedIn()
    const likes = likesServer([5], [{ id: 8, new: true }])
    const server = stubServer(likes.routes)
    await engine.syncLikes()
    server.routes['GET /api/likes.php'] = offline
    expect(await engine.syncLikes()).toMatchObject({ ok: false, error: { code: 'offline' } })
    server.routes['GET /api/likes.php'] = () => reply({ profiles: [{ id: 'x' }] })
    expect(await engine.syncLikes()).toMatchObject({ ok: false, error: { code: 'bad_response' } })
    expect(await db.likes.count()).toBe(1)
    expect(await db.likedBy.count()).toBe(1)
  })

  it('asks for the user again on 403 (spec §8) and wipes the store when it is gone', async () => {
    await loggedIn()
    const server = stubServer({ '/api/likes.php': forbidden, '/api/user.php': forbidden })
    expect(await engine.syncLikes()).toMatchObject({ ok: false, error: { status: 403 } })
    expect(server.calls('/api/user.php')).toHaveLength(1)
    expect(await engine.getUser()).toBeNull()
  })

  it('ignores an answer older than the one already written', async () => {
    await loggedIn()
    const likes = likesServer([5])
    const server = stubServer(likes.routes)
    let late: () => void = () => {}
    const get = likes.routes['GET /api/likes.php']!
    server.routes['GET /api/likes.php'] = (req) => {
      const snapshot = get(req) // what the server had when asked
      return new Promise<Response>((resolve) => {
        late = () => resolve(snapshot)
      })
    }
    vi.spyOn(Date, 'now').mockReturnValue(100)
    const first = engine.syncLikes()
    await settle()
    likes.state.given = []
    server.routes['GET /api/likes.php'] = get
    vi.spyOn(Date, 'now').mockReturnValue(200)
    await engine.syncLikes()
    late()
    await first
    expect(await db.likes.count()).toBe(0)
  })
})

describe('markLikeSeen', () => {
  it('clears the new flag at once, then on the server (PUT)', async () => {
    await loggedIn()
    const likes = likesServer([], [{ id: 9, new: true }])
    const server = stubServer(likes.routes)
    await engine.syncLikes()
    engine.setLeader(true)
    await engine.likes.markSeen(9)
    expect(await db.likedBy.get(9)).toMatchObject({ likeNew: false })
    await settle()
    expect(server.calls('PUT /api/likes.php').map((r) => r.body)).toEqual([{ profile: 9 }])
    expect(likes.state.likedBy).toEqual([{ id: 9, new: false }])
    expect(await db.likedBy.get(9)).toMatchObject({ likeNew: false, serverNew: false })
    // A like already opened is not sent again.
    await engine.likes.markSeen(9)
    await settle()
    expect(server.calls('PUT /api/likes.php')).toHaveLength(1)
  })

  it('works offline: the flag stays cleared, also through a poll, until the PUT gets through', async () => {
    await loggedIn()
    const likes = likesServer([], [{ id: 9, new: true }])
    const server = stubServer({ ...likes.routes })
    await engine.syncLikes()
    engine.setLeader(true)
    server.routes['PUT /api/likes.php'] = offline
    await engine.likes.markSeen(9)
    await settle()
    await engine.syncLikes() // the server still says new
    expect(await db.likedBy.get(9)).toMatchObject({ likeNew: false, serverNew: true })
    server.routes['PUT /api/likes.php'] = likes.routes['PUT /api/likes.php']!
    await engine.outbox.drain()
    expect(likes.state.likedBy).toEqual([{ id: 9, new: false }])
    expect(await db.outbox.count()).toBe(0)
  })
})

describe('polling (spec §9)', () => {
  const polled = () => {
    const likes = likesServer([5])
    return stubServer({
      ...likes.routes,
      '/api/login.php': () => reply(user()),
      '/api/user.php': () => reply(user()),
      '/api/chats.php': () => reply({ chats: [] }),
    })
  }

  it('fetches likes 1 s after login, then every 60 s', async () => {
    const server = polled()
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    await advance(CHATS_START_DELAY - 1)
    expect(server.calls('GET /api/likes.php')).toHaveLength(0)
    await advance(1)
    expect(server.calls('GET /api/likes.php')).toHaveLength(1)
    expect(await db.likes.count()).toBe(1)
    await advance(POLL)
    expect(server.calls('GET /api/likes.php')).toHaveLength(2)
  })

  it('every 300 s with a push subscription', async () => {
    const server = polled()
    engine.setLeader(true)
    await engine.login('member1@example.com', 'secret')
    engine.setPushSubscribed(true)
    await advance(CHATS_START_DELAY)
    expect(server.calls('GET /api/likes.php')).toHaveLength(1)
    await advance(POLL_WITH_PUSH - 1)
    expect(server.calls('GET /api/likes.php')).toHaveLength(1)
    await advance(1)
    expect(server.calls('GET /api/likes.php')).toHaveLength(2)
  })

  it('syncNow sends waiting actions before fetching the lists', async () => {
    const server = polled()
    await loggedIn()
    engine.setLeader(true)
    server.routes['POST /api/likes.php'] = offline
    await engine.likes.like(7)
    await settle()
    delete server.routes['POST /api/likes.php']
    Object.assign(server.routes, {
      'POST /api/likes.php': likesServer().routes['POST /api/likes.php'],
    })
    await engine.syncNow()
    const order = server.requests.map((r) => `${r.method} ${r.url.pathname}`)
    expect(order.slice(-6)).toEqual([
      'GET /api/user.php',
      'POST /api/likes.php',
      'GET /api/chats.php',
      'GET /api/likes.php',
      'GET /api/visitors.php',
      'GET /api/credits.php',
    ])
  })
})
