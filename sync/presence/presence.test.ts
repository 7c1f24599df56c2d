// Live signals in the worker against a real Dexie store (fake-indexeddb) and
// a stubbed API: the member's typing goes to the server at most once per 2 s
// per conversation; the other side's typing shows for 5 s (kv `typing`) and
// ends with a message.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { PresenceSync } from '../presence/presence.ts'
import { kvGet } from '../store/kv.ts'
import { LocalDb } from '../store/store.ts'
import { reply, stubServer } from '../test/fake-api.ts'

let db: LocalDb
let clock = 1_000_000
let presence: PresenceSync

beforeEach(() => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  db = new LocalDb(`presence-test-${crypto.randomUUID()}`)
  clock = 1_000_000
  presence = new PresenceSync({
    db,
    emit: () => undefined,
    sessionGone: async () => undefined,
    now: () => clock,
  })
})

afterEach(async () => {
  vi.unstubAllGlobals()
  await db.delete()
})

it('sends the member’s typing at most once per 2 s per conversation', async () => {
  const server = stubServer({ 'POST /api/typing.php': () => reply({ status: 'sent' }) })
  await presence.typing(5)
  clock += 1999
  await presence.typing(5)
  await presence.typing(6)
  clock += 1
  await presence.typing(5)
  const sent = server.requests.map((r) => (r.body as { conversation: number }).conversation)
  expect(sent).toEqual([5, 6, 5])
})

it('shows the other side typing for 5 s from the last signal, and ends it with a message', async () => {
  await presence.typingHeard(5)
  expect(await kvGet(db, 'typing')).toEqual({ 5: clock + 5000 })
  clock += 3000
  await presence.typingHeard(5)
  await presence.typingHeard(6)
  expect(await kvGet(db, 'typing')).toEqual({ 5: clock + 5000, 6: clock + 5000 })
  await presence.typingDone(5)
  expect(await kvGet(db, 'typing')).toEqual({ 6: clock + 5000 })
  // A signal long gone is dropped when the next one comes.
  clock += 6000
  await presence.typingHeard(7)
  expect(await kvGet(db, 'typing')).toEqual({ 7: clock + 5000 })
})
