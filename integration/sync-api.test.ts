// The sync worker against the real API: the engine and its domains run on
// fake-indexeddb, and their fetch goes to createApi() on an in-memory PGlite
// through app.request, with a cookie jar, as a browser tab on the site's own
// origin would. One full path per domain: session, account, settings,
// members (search, profile), likes (through the outbox), chats, badge, and
// the end of a session.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { and, eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Api, createApi } from '../api/app.ts'
import { balanceOf, credit, debit, ledgerSum } from '../api/credits/ledger.ts'
import { freshDatabase, type TestDatabase } from '../api/test/databases.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../api/test/seed.ts'
import { conversationMembers, conversations, likes, sessions } from '../db/schema/index.ts'
import { accountHandlers } from '../sync/account/account.ts'
import { combineHandlers } from '../sync/core/handlers.ts'
import { SyncEngine, type SyncEvent } from '../sync/engine.ts'
import { kvGet } from '../sync/store/kv.ts'
import { LocalDb } from '../sync/store/store.ts'

const ORIGIN = 'http://localhost'

let database: TestDatabase
let app: Api
let me: MemberRow
let her: MemberRow
let online = true

beforeAll(async () => {
  database = await freshDatabase('pglite')
  app = createApi({ db: database.db })
  me = await addMember(database.db, { name: 'Me', gender: 'male', country: 'NL' })
  her = await addMember(database.db, { name: 'Her', gender: 'female', country: 'NL' })
})
afterAll(() => database?.close())

/** A browser tab's fetch on the site's origin, answered by the API value. */
function stubBrowser() {
  const jar = new Map<string, string>()
  vi.stubGlobal('self', globalThis)
  vi.stubGlobal('location', new URL(`${ORIGIN}/`))
  vi.stubGlobal('fetch', async (input: URL | string, init: RequestInit = {}) => {
    if (!online) throw new TypeError('Failed to fetch')
    const url = new URL(String(input), ORIGIN)
    const headers = new Headers(init.headers)
    headers.set('host', url.host)
    const method = init.method ?? 'GET'
    if (method !== 'GET') headers.set('origin', ORIGIN)
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '))
    const res = await app.request(url.href, { ...init, headers })
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, value] = (pair ?? '').split('=')
      if (!name) continue
      if (/max-age=0/i.test(line) || value === '') jar.delete(name.trim())
      else jar.set(name.trim(), value ?? '')
    }
    return res
  })
}

let serial = 0
let db: LocalDb
let engine: SyncEngine
let events: SyncEvent[]

beforeEach(() => {
  online = true
  stubBrowser()
  db = new LocalDb(`integration-${++serial}`)
  engine = new SyncEngine(db)
  events = []
  engine.subscribe((e) => events.push(e))
})
afterEach(async () => {
  engine.stopPolling()
  db.close()
  vi.unstubAllGlobals()
})

const login = async () => {
  const res = await engine.login(me.email, TEST_PASSWORD)
  expect(res.ok).toBe(true)
}

describe('sync against the real API', () => {
  it('session: login stores the member, refresh keeps it, logout ends the session once', async () => {
    await login()
    expect((await engine.getUser())?.profile.id).toBe(me.id)
    expect(events).toContainEqual({ type: 'user', user: expect.objectContaining({}) })
    // The login fetches the site settings too; settled before the logout
    // below, so its events are the logout's alone.
    await vi.waitFor(() => expect(events).toContainEqual({ type: 'synced', what: 'settings' }))
    expect((await engine.refreshUser()).ok).toBe(true)
    events = []
    await engine.logout()
    expect(await engine.getUser()).toBeNull()
    expect(await db.kv.count()).toBe(0)
    expect(events).toEqual([
      { type: 'user', user: null },
      { type: 'badge', count: 0 },
      { type: 'session_ended' },
    ])
    // The server ended it too: the cookie no longer opens user.php.
    expect((await engine.refreshUser()).ok && (await engine.getUser())).toBeFalsy()
  })

  it('session expiry (403 from user.php) ends in the same reaction as logout', async () => {
    await login()
    await engine.search({}, 1)
    expect(await db.searchPages.count()).toBe(1)
    await database.db.delete(sessions)
    events = []
    expect(await engine.refreshUser()).toEqual({ ok: true, value: null })
    expect(await db.searchPages.count()).toBe(0)
    expect(events).toEqual([
      { type: 'user', user: null },
      { type: 'badge', count: 0 },
      { type: 'session_ended' },
    ])
  })

  it('account: the account part is stored with the user, and read offline', async () => {
    await login()
    const account = accountHandlers({
      ctx: engine.ctx,
      session: engine.session,
      setPushSubscribed: (s) => engine.setPushSubscribed(s),
    })
    const res = await account.updateAccount({ profile: { personal: 'Likes long walks' } })
    expect(res.ok).toBe(true)
    const stored = await kvGet(db, 'account')
    expect(stored).toBeDefined()
    expect((await engine.getUser())?.profile.id).toBe(me.id)
    online = false
    expect((await account.account()).ok).toBe(false)
    expect(await kvGet(db, 'account')).toEqual(stored)
  })

  it('settings: one stored, typed copy that serves offline', async () => {
    const account = accountHandlers({
      ctx: engine.ctx,
      session: engine.session,
      setPushSubscribed: (s) => engine.setPushSubscribed(s),
    })
    const first = await account.settings()
    expect(first.ok).toBe(true)
    expect((await kvGet(db, 'settings'))?.name).toBe(first.ok ? first.value.name : undefined)
    online = false
    await db.kv.put({ key: 'settingsSyncedAt', value: 0 }) // stale: it tries the network
    const offline = await account.settings()
    expect(offline).toEqual(first)
  })

  it('members: a search page and a profile page land in the store', async () => {
    await login()
    const page = await engine.search({}, 1)
    expect(page.ok).toBe(true)
    const row = await db.searchPages.get(['default', 1])
    expect(row?.ids).toContain(her.id)
    expect((await engine.members.loadProfile(her.id)).ok).toBe(true)
    expect((await db.profileDetails.get(her.id))?.detail.name).toBe('Her')
  })

  it('likes: a like goes through the outbox, reaches the server once, and syncs back', async () => {
    await login()
    engine.setLeader(true)
    await engine.likes.like(her.id)
    await engine.outbox.drain()
    const rows = await database.db.select().from(likes)
    expect(rows.filter((l) => l.likerId === me.id && l.likedId === her.id)).toHaveLength(1)
    await engine.syncLikes()
    expect((await db.likes.get(her.id))?.liked).toBe(true)
  })

  it('chats and badge: the list syncs and the badge is unread messages + new likes', async () => {
    await login()
    const chat = await engine.members.startChat(her.id)
    expect(chat.ok).toBe(true)
    const conversationId = chat.ok ? chat.value.id : 0
    // Her side: 3 unread messages for me, and a new like from her.
    await database.db
      .update(conversationMembers)
      .set({ unreadCount: 3 })
      .where(
        and(
          eq(conversationMembers.conversationId, conversationId),
          eq(conversationMembers.memberId, me.id),
        ),
      )
    await database.db.insert(likes).values({ likerId: her.id, likedId: me.id, isNew: true })
    events = []
    await engine.syncChats()
    await engine.syncLikes()
    expect((await db.chats.get(conversationId))?.num_unread_messages).toBe(3)
    expect(await kvGet(db, 'badge')).toBe(4)
    expect(events).toContainEqual({ type: 'badge', count: 4 })
    expect((await database.db.select().from(conversations)).length).toBeGreaterThan(0)
  })

  it('push state survives a reload: a new engine on the same store polls every 300 s', async () => {
    await login()
    await engine.setPushSubscribed(true)
    const reloaded = new SyncEngine(db)
    reloaded.setLeader(true)
    await vi.waitFor(() => expect(reloaded.pollIntervalMs).toBe(300_000))
    reloaded.stopPolling()
  })
})

describe('messages through the outbox, against the real API', () => {
  it("sends: pending at once, then the server's message with the balance after one debit", async () => {
    await login()
    engine.setLeader(true)
    await database.db.transaction((tx) => credit(tx, me.id, 100, 'bonus', 'test'))
    const chat = await engine.members.startChat(her.id)
    const conversation = chat.ok ? chat.value.id : 0
    await engine.messages.syncCredits()
    const sent = await engine.messages.send(conversation, '  Hello <b>there</b>  ')
    expect(sent.ok).toBe(true)
    const key = sent.ok ? sent.value.key : ''
    await engine.outbox.drain()
    const row = await db.messages.get(key)
    expect(row).toMatchObject({ status: 'sent', text: 'Hello <b>there</b>', from: me.id })
    expect(row?.id).toBeGreaterThan(0)
    expect((await kvGet(db, 'credits'))?.credits).toBe(await balanceOf(database.db, me.id))
    expect(await balanceOf(database.db, me.id)).toBe(await ledgerSum(database.db, me.id))
  })

  it('a 402 keeps the text as a failed message; retried with credits it is sent once', async () => {
    await login()
    engine.setLeader(true)
    const chat = await engine.members.startChat(her.id)
    const conversation = chat.ok ? chat.value.id : 0
    await database.db.transaction(async (tx) => {
      const now = await balanceOf(tx, me.id)
      if (now > 0) await debit(tx, me.id, now, 'adjustment', 'test')
    })
    const sent = await engine.messages.send(conversation, 'Too poor to send')
    const key = sent.ok ? sent.value.key : ''
    await engine.outbox.drain()
    expect(await db.messages.get(key)).toMatchObject({
      status: 'failed',
      error: 'insufficient_credits',
      text: 'Too poor to send',
    })
    await database.db.transaction((tx) => credit(tx, me.id, 50, 'purchase', 'test'))
    await engine.messages.retry(key)
    await engine.outbox.drain()
    const rows = (await db.messages.toArray()).filter((r) => r.text === 'Too poor to send')
    expect(rows).toHaveLength(1)
    expect(rows[0]?.status).toBe('sent')
    expect(await balanceOf(database.db, me.id)).toBe(40)
  })
})

describe('combineHandlers', () => {
  it('joins the domains and refuses a handler named twice', () => {
    const api = combineHandlers({ a: () => 1 }, { b: () => 2 })
    expect(api.a() + api.b()).toBe(3)
    expect(() => combineHandlers({ like: () => 1 }, { like: () => 2 })).toThrow(
      'sync handler defined twice: like',
    )
  })
})
