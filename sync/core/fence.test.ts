// A late answer must not bring a member's data back after logout wiped the store.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SyncEngine } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import { syncSettings, syncSettingsForMember } from '../settings/settings.ts'
import { profile, reply, settings, stubServer, user } from '../test/fake-api.ts'

let db: LocalDb
let engine: SyncEngine

beforeEach(() => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`fence-${crypto.randomUUID()}`)
  engine = new SyncEngine(db)
})
afterEach(async () => {
  engine.stopPolling()
  await db.delete()
})

/** A chat list of one conversation, with member 3. */
const oneChat = () => ({
  chats: [
    { conversation: { id: 7 }, profile: profile(3), num_unread_messages: 1, last_message: null },
  ],
})

describe('answers in flight during logout', () => {
  it('drops a chats answer that arrives after the wipe', async () => {
    let release: ((r: Response) => void) | null = null
    stubServer({
      'POST /api/login.php': () => reply(user()),
      'GET /api/logout.php': () => reply({ status: 'done' }),
      'GET /api/chats.php': () => new Promise<Response>((r) => (release = r)),
    })
    await engine.login('a@example.com', 'pw')
    const pending = engine.syncChats()
    await vi.waitFor(() => expect(release).not.toBeNull())
    await engine.logout()
    release!(reply(oneChat()))
    const res = await pending
    expect(res.ok).toBe(false)
    expect(await db.chats.count()).toBe(0)
    expect(await db.profiles.count()).toBe(0)
    expect(await db.kv.count()).toBe(0)
  })

  it('leaves no member row when the logout wipes the store between the member answer and its write', async () => {
    stubServer({
      'POST /api/login.php': () => reply(user()),
      'GET /api/user.php': () => reply(user()),
    })
    await engine.login('a@example.com', 'pw')
    // The wipe starts right when the write reads the member it replaces:
    // after the answer passed the fence, before the member is written.
    const get = db.kv.get
    const read = (key: string) => (get as (k: string) => Promise<unknown>).call(db.kv, key)
    let wiped: Promise<void> | undefined
    const readThenWipe = async (key: string) => {
      const value = await read(key)
      if (key === 'user' && !wiped) wiped = Dexie.ignoreTransaction(() => db.wipe())
      return value
    }
    vi.spyOn(db.kv, 'get').mockImplementation(readThenWipe as never)
    await engine.refreshUser()
    expect(wiped).toBeDefined()
    await wiped
    expect(await db.kv.count()).toBe(0)
  })

  it("leaves no list when the logout wipes the store as a pull's answer is about to be written", async () => {
    stubServer({
      'POST /api/login.php': () => reply(user()),
      'GET /api/chats.php': () => reply(oneChat()),
    })
    await engine.login('a@example.com', 'pw')
    // The wipe starts right as the answer's write opens its transaction:
    // after the answer came, before anything of it is written.
    const transaction = db.transaction.bind(db) as (...a: unknown[]) => Promise<unknown>
    let wiping = false
    let wiped: Promise<void> | undefined
    vi.spyOn(db, 'transaction').mockImplementation(((...a: unknown[]) => {
      if (!wiping) {
        wiping = true
        wiped = Dexie.ignoreTransaction(() => db.wipe())
      }
      return transaction(...a)
    }) as never)
    const res = await engine.syncChats()
    expect(wiped).toBeDefined()
    await wiped
    expect(res.ok).toBe(false)
    expect(await db.chats.count()).toBe(0)
    expect(await db.profiles.count()).toBe(0)
  })

  it('leaves neither the settings nor their sync time when the logout wipes the store between the two writes', async () => {
    stubServer({ 'GET /api/settings.php': () => reply(settings()) })
    // The wipe starts right as the settings are written, before their time is.
    const put = db.kv.put.bind(db.kv)
    let wiped: Promise<void> | undefined
    vi.spyOn(db.kv, 'put').mockImplementation(((row: { key: string; value: unknown }) => {
      const done = put(row)
      if (row.key === 'settings' && !wiped) wiped = Dexie.ignoreTransaction(() => db.wipe())
      return done
    }) as never)
    await syncSettings(engine.ctx)
    expect(wiped).toBeDefined()
    await wiped
    expect(await db.kv.count()).toBe(0)
  })

  it("fetches the settings for a member's errand only while the member is signed in, and drops them when the logout comes first", async () => {
    let release: ((r: Response) => void) | null = null
    stubServer({
      'POST /api/login.php': () => reply(user()),
      'GET /api/logout.php': () => reply({ status: 'done' }),
      'GET /api/settings.php': () => new Promise<Response>((r) => (release = r)),
    })
    await engine.login('a@example.com', 'pw')
    const pending = syncSettingsForMember(engine.ctx)
    await vi.waitFor(() => expect(release).not.toBeNull())
    await engine.logout()
    release!(reply(settings()))
    await pending
    expect(await db.kv.count()).toBe(0)
    // Nobody signed in: nothing is asked for, nothing written.
    expect(await syncSettingsForMember(engine.ctx)).toEqual({ ok: true, value: null })
    expect(await db.kv.count()).toBe(0)
  })

  it('writes an answer that arrives with nobody logged out meanwhile', async () => {
    stubServer({
      'POST /api/login.php': () => reply(user()),
      'GET /api/chats.php': () => reply({ chats: [] }),
    })
    await engine.login('a@example.com', 'pw')
    expect(await engine.syncChats()).toEqual({ ok: true, value: 0 })
  })
})
