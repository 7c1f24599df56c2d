// A voice message through the outbox against a real Dexie store
// (fake-indexeddb) and a stubbed API (docs/messages-and-credits.md, "Voice
// messages"): recorded offline it waits in IndexedDB with its recording,
// shows at once as pending and playable from the device, and goes out once,
// multipart with its container type and measured length, when the network
// is back; an answer lost on the way is asked again with the same client id
// (one message, one debit). Reporting it hides it for the reporter at once.
// fake-indexeddb must be installed before Dexie loads: keep this import first.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { retryDelay } from '../core/outbox.ts'
import { SyncEngine } from '../engine.ts'
import { LocalDb } from '../store/store.ts'
import { advance, reply, settle, stubServer, user } from '../test/fake-api.ts'

const CONVERSATION = 7
const ME = 1
/** VOICE_SEND_PATH, pinned by value. */
const VOICE_PATH = '/api/message-voice.php'

let db: LocalDb
let engine: SyncEngine

beforeEach(async () => {
  vi.stubGlobal('location', new URL('http://localhost/'))
  vi.stubGlobal('self', globalThis)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  db = new LocalDb(`voice-test-${crypto.randomUUID()}`)
  await db.kv.put({ key: 'user', value: user(ME) })
  engine = new SyncEngine(db)
})

afterEach(async () => {
  engine.setLeader(false)
  engine.stopPolling()
  vi.useRealTimers()
  await db.delete()
})

interface Received {
  clientId: string
  conversation: string
  durationMs: string
  size: number
  type: string
  name: string
}

/**
 * A voice server: the network is down while `offline`; otherwise it stores
 * each client id once (the first answer for a replay), and with `loseAnswer`
 * stores the next one but the answer never arrives.
 */
function voiceServer() {
  const state = {
    offline: true,
    loseAnswer: false,
    stored: new Map<string, number>(),
    received: [] as Received[],
  }
  stubServer({
    [`POST ${VOICE_PATH}`]: async ({ init }) => {
      if (state.offline) throw new TypeError('Failed to fetch')
      const form = init.body
      if (!(form instanceof FormData)) throw new Error('the voice send is not multipart')
      const clientId = String(form.get('client_id'))
      const file = form.get('file')
      if (!(file instanceof File)) throw new Error('no file part')
      state.received.push({
        clientId,
        conversation: String(form.get('conversation')),
        durationMs: String(form.get('duration_ms')),
        size: file.size,
        type: file.type,
        name: file.name,
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
            text: '',
            sent_at: '2026-01-10T12:00:00.000Z',
            client_id: clientId,
            read_at: null,
            voice: {
              url: `/api/voice/voice-${id}.webm`,
              type: 'audio/webm',
              duration_ms: Number(form.get('duration_ms')),
            },
          },
          credits: 80,
        },
        201,
      )
    },
  })
  return state
}

const recording = () =>
  new Blob([new Uint8Array([26, 69, 223, 163, 1, 2, 3])], { type: 'audio/webm' })

it('waits offline in IndexedDB with its recording, shown pending, and is sent once when back online', async () => {
  const server = voiceServer()
  engine.setLeader(true)
  const sent = await engine.messages.sendVoice(CONVERSATION, recording(), 'audio/webm', 2_345.6)
  await settle()
  if (!sent.ok) throw new Error('not stored')
  const key = sent.value.key

  const pending = await db.messages.get(key)
  expect(pending).toMatchObject({ status: 'pending', text: '', conversation: 7 })
  expect(pending?.localVoice).toMatchObject({ type: 'audio/webm', duration_ms: 2_346 })
  expect(pending?.localVoice?.blob).toBeInstanceOf(Blob)
  expect(pending?.localVoice?.blob.size).toBe(7)
  const entry = await db.outbox.get(key)
  expect(entry).toMatchObject({ kind: 'voice', attempts: 1, lastError: /^offline/ })
  expect(server.stored.size).toBe(0)

  server.offline = false
  await advance(retryDelay(1))
  expect(server.received).toEqual([
    {
      clientId: key,
      conversation: '7',
      durationMs: '2346',
      size: 7,
      type: 'audio/webm',
      name: 'voice.webm',
    },
  ])
  const delivered = await db.messages.get(key)
  expect(delivered).toMatchObject({
    status: 'sent',
    id: 100,
    voice: { url: '/api/voice/voice-100.webm', type: 'audio/webm', duration_ms: 2346 },
    voiceHidden: false,
  })
  expect(delivered?.localVoice).toBeUndefined()
  expect(await db.outbox.count()).toBe(0)

  // Nothing more goes out later.
  await advance(retryDelay(5))
  expect(server.received).toHaveLength(1)
  expect(server.stored.size).toBe(1)
})

it('asks again with the same client id after a lost answer: one message on the server', async () => {
  const server = voiceServer()
  server.offline = false
  server.loseAnswer = true
  engine.setLeader(true)
  const sent = await engine.messages.sendVoice(CONVERSATION, recording(), 'audio/webm', 1_000)
  await settle()
  if (!sent.ok) throw new Error('not stored')
  expect(server.received).toHaveLength(1)
  expect((await db.messages.get(sent.value.key))?.status).toBe('pending')

  await advance(retryDelay(1))
  expect(server.received.map((r) => r.clientId)).toEqual([sent.value.key, sent.value.key])
  expect(server.stored.size).toBe(1)
  expect(await db.messages.get(sent.value.key)).toMatchObject({ status: 'sent', id: 100 })
  expect(await db.outbox.count()).toBe(0)
})

it('keeps a measured length within 1..60000 ms (VOICE_MAX_MS)', async () => {
  const server = voiceServer()
  server.offline = false
  engine.setLeader(true)
  await engine.messages.sendVoice(CONVERSATION, recording(), 'audio/webm', 61_500)
  await engine.messages.sendVoice(CONVERSATION, recording(), 'audio/webm', 0.2)
  await settle()
  expect(server.received.map((r) => r.durationMs)).toEqual(['60000', '1'])
})

it('a reported voice message is hidden for the reporter at once', async () => {
  const server = voiceServer()
  server.offline = false
  engine.setLeader(true)
  const sent = await engine.messages.sendVoice(CONVERSATION, recording(), 'audio/webm', 1_000)
  await settle()
  if (!sent.ok) throw new Error('not stored')
  await engine.messages.hidePhoto(100)
  expect(await db.messages.get(sent.value.key)).toMatchObject({ voice: null, voiceHidden: true })
})
