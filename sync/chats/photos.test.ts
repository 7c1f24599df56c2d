// A photo message through the outbox against a real Dexie store
// (fake-indexeddb) and a stubbed API (docs/messages-and-credits.md, "Photos
// in chats"): sent offline it waits in IndexedDB with its photo, shows at
// once as pending with the photo, and goes out once when the network is
// back; an answer lost on the way is asked again with the same client id,
// which the server answers with the same message (one message, one debit).
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { retryDelay } from '../core/outbox.ts'
import { SyncEngine } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import { advance, reply, settle, stubServer, user } from '../test/fake-api.ts'

const CONVERSATION = 7
const ME = 1
const PHOTO_PATH = '/api/message-photo.php'

let db: LocalDb
let engine: SyncEngine

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  db = new LocalDb(`photos-test-${crypto.randomUUID()}`)
  await db.kv.put({ key: 'user', value: user(ME) })
  engine = new SyncEngine(db)
})

afterEach(async () => {
  engine.setLeader(false)
  engine.stopPolling()
  vi.useRealTimers()
  await db.delete()
})

/**
 * A photo server: the network is down while `offline`; otherwise it stores
 * each client id once (the first answer for a replay), and with `loseAnswer`
 * stores the next one but the answer never arrives.
 */
function photoServer() {
  const state = {
    offline: true,
    loseAnswer: false,
    stored: new Map<string, number>(),
    received: [] as { clientId: string; text: string | null; size: number; type: string }[],
  }
  stubServer({
    [`POST ${PHOTO_PATH}`]: async ({ init }) => {
      if (state.offline) throw new TypeError('Failed to fetch')
      const form = init.body
      if (!(form instanceof FormData)) throw new Error('the photo send is not multipart')
      const clientId = String(form.get('client_id'))
      const file = form.get('file')
      if (!(file instanceof Blob)) throw new Error('no file part')
      const text = form.get('text')
      state.received.push({
        clientId,
        text: typeof text === 'string' ? text : null,
        size: file.size,
        type: file.type,
      })
      const id = state.stored.get(clientId) ?? state.stored.size + 100
      state.stored.set(clientId, id)
      if (state.loseAnswer) {
        state.loseAnswer = false
        throw new TypeError('Failed to fetch')
      }
      return reply(
        {
          message: {
            id,
            conversation: Number(form.get('conversation')),
            from: ME,
            text: typeof text === 'string' ? text : '',
            sent_at: '2026-01-10T12:00:00.000Z',
            client_id: clientId,
            read_at: null,
            photo: `/api/chat-photo/chat-${id}.jpg`,
          },
          credits: 70,
        },
        201,
      )
    },
  })
  return state
}

const photo = () => new Blob([new Uint8Array([137, 80, 78, 71, 1, 2, 3, 4])], { type: 'image/png' })

it('waits offline in IndexedDB with its photo, shown pending, and is sent once when back online', async () => {
  const server = photoServer()
  engine.setLeader(true)
  const sent = await engine.messages.sendPhoto(CONVERSATION, '  At the beach ', photo())
  await settle()
  if (!sent.ok) throw new Error('not stored')
  const key = sent.value.key

  const pending = await db.messages.get(key)
  expect(pending).toMatchObject({ status: 'pending', text: 'At the beach', conversation: 7 })
  expect(pending?.localPhoto).toBeInstanceOf(Blob)
  expect(pending?.localPhoto?.size).toBe(8)
  const entry = await db.outbox.get(key)
  expect(entry).toMatchObject({ kind: 'photo', attempts: 1, lastError: /^offline/ })
  expect((entry?.payload as { photo?: Blob } | undefined)?.photo).toBeInstanceOf(Blob)
  expect(server.stored.size).toBe(0)

  server.offline = false
  await advance(retryDelay(1))
  expect(server.received).toEqual([
    { clientId: key, text: 'At the beach', size: 8, type: 'image/png' },
  ])
  const delivered = await db.messages.get(key)
  expect(delivered).toMatchObject({
    status: 'sent',
    id: 100,
    photo: '/api/chat-photo/chat-100.jpg',
  })
  expect(delivered?.localPhoto).toBeUndefined()
  expect(await db.outbox.count()).toBe(0)

  // Nothing more goes out later.
  await advance(retryDelay(5))
  expect(server.received).toHaveLength(1)
  expect(server.stored.size).toBe(1)
})

it('asks again with the same client id after a lost answer: one message on the server', async () => {
  const server = photoServer()
  server.offline = false
  server.loseAnswer = true
  engine.setLeader(true)
  const sent = await engine.messages.sendPhoto(CONVERSATION, '', photo())
  await settle()
  if (!sent.ok) throw new Error('not stored')
  expect(server.received).toHaveLength(1)
  expect((await db.messages.get(sent.value.key))?.status).toBe('pending')

  await advance(retryDelay(1))
  expect(server.received.map((r) => r.clientId)).toEqual([sent.value.key, sent.value.key])
  // No caption: no text part (the server takes an empty caption).
  expect(server.received.map((r) => r.text)).toEqual([null, null])
  expect(server.stored.size).toBe(1)
  expect(await db.messages.get(sent.value.key)).toMatchObject({ status: 'sent', id: 100 })
  expect(await db.outbox.count()).toBe(0)
})
