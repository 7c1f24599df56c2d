// A late answer must not bring a member's data back after logout wiped the store.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SyncEngine } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import { profile, reply, stubServer, user } from '../test/fake-api.ts'

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
    release!(
      reply({
        chats: [
          {
            conversation: { id: 7 },
            profile: profile(3),
            num_unread_messages: 1,
            last_message: null,
          },
        ],
      }),
    )
    const res = await pending
    expect(res.ok).toBe(false)
    expect(await db.chats.count()).toBe(0)
    expect(await db.profiles.count()).toBe(0)
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
