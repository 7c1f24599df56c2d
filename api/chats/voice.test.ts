// Voice messages in chats on both databases (docs/messages-and-credits.md,
// "Voice messages"): sent as WebM or MP4 and heard by the recipient (whole
// and in byte ranges), one debit of voice_message_credits with the ledger
// reason 'voice' however the send is repeated or raced, 402 with nothing
// stored (no message, no ledger row, no recording left in the store), each
// bad field a 400 naming it, the recording served to the chat's two members
// only, hidden once reported, stopped by a block, never an opening.
import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { creditLedger, jobs, messages } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import {
  ApiError,
  ChatsResponse,
  MessagesResponse,
  SendMessageResponse,
} from '../contract/index.ts'
import { balanceOf, credit, debit } from '../credits/ledger.ts'
import { diskStore } from '../images/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { queueItem } from '../moderation/index.ts'
import { type ChatPair, chatPair, startChat } from '../test/chat-pair.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, send } from '../test/http.ts'
import { TEST_PASSWORD } from '../test/seed.ts'
import { mp4Recording, webmRecording } from '../test/voice-fixtures.ts'

/** The default price of a voice message (operator setting voice_message_credits), pinned by value. */
const VOICE_COST = 20
/** The largest recording accepted (VOICE_MAX_BYTES), pinned by value. */
const MAX_BYTES = 1_048_576

describeEngines('voice messages in chats on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let mediaDir: string
  let pair: ChatPair

  beforeAll(async () => {
    database = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'chat-voice-'))
    app = createApi({
      db: database.db,
      mediaDir,
      memberLimits: false,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    pair = await chatPair(app, database.db, { credits: 1000, opened: true })
  })
  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  async function sendVoice(
    cookie: string,
    fields: { conversation: number; client_id: string; duration_ms?: string },
    recording: Uint8Array,
    type = 'audio/webm',
  ) {
    const form = new FormData()
    form.append('conversation', String(fields.conversation))
    form.append('client_id', fields.client_id)
    if (fields.duration_ms !== undefined) form.append('duration_ms', fields.duration_ms)
    form.append('file', new File([new Uint8Array(recording)], 'voice', { type }))
    const res = await app.request(`${BASE}/api/message-voice.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie },
    })
    expect(res.status, 'a voice send must not fail on the server').toBeLessThan(500)
    return res
  }

  const recordings = async () => (await readdir(mediaDir)).filter((f) => f.startsWith('voice-'))
  const voiceRows = (member: number) =>
    database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, member), eq(creditLedger.reason, 'voice')))
  const pageOf = async (cookie: string, conversation = pair.ab) =>
    MessagesResponse.parse(
      await (await send(app, `/api/messages.php?conversation=${conversation}`, { cookie })).json(),
    ).messages

  it('sends a WebM recording for 20 credits as a voice message; the recipient hears it whole and in ranges', async () => {
    const { a, cookieA, cookieB, ab } = pair
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await recordings()).length
    const recording = webmRecording({ durationMs: 5000 })
    const res = await sendVoice(
      cookieA,
      { conversation: ab, client_id: randomUUID(), duration_ms: '5000' },
      recording,
      // The part's declared type is not what decides.
      'application/octet-stream',
    )
    expect(res.status).toBe(201)
    const sent = SendMessageResponse.parse(await res.json())
    expect(sent.message.text).toBe('')
    expect(sent.message.voice).toEqual({
      url: expect.stringMatching(/^\/api\/voice\/voice-[0-9a-f]{24}\.webm$/),
      type: 'audio/webm',
      duration_ms: 5000,
    })
    expect(sent.credits).toBe(before - VOICE_COST)
    expect((await recordings()).length).toBe(storedBefore + 1)
    // The mail job about it (when one is due) says it is a voice message.
    const mailJobs = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `message-mail:${sent.message.id}`))
    for (const job of mailJobs) expect(job.payload).toMatchObject({ voice: true })
    // The recipient's page carries it, and the chats list marks it with a microphone.
    const got = (await pageOf(cookieB)).find((m) => m.id === sent.message.id)
    expect(got?.voice).toEqual(sent.message.voice)
    const chats = ChatsResponse.parse(
      await (await send(app, '/api/chats.php', { cookie: cookieB })).json(),
    )
    expect(JSON.stringify(chats)).toContain('🎤 ')
    const url = sent.message.voice!.url
    const whole = await send(app, url, { cookie: cookieB })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('audio/webm')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('cache-control')).toBe('private, no-cache')
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(recording)
    const ranged = await send(app, url, { cookie: cookieB, headers: { range: 'bytes=10-99' } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-99/${recording.length}`)
    expect(ranged.headers.get('content-length')).toBe('90')
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(recording.subarray(10, 100))
    const tail = await send(app, url, { cookie: cookieB, headers: { range: 'bytes=-16' } })
    expect(tail.status).toBe(206)
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(recording.subarray(-16))
    const past = await send(app, url, {
      cookie: cookieB,
      headers: { range: `bytes=${recording.length}-` },
    })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe(`bytes */${recording.length}`)
    const head = await send(app, url, { method: 'HEAD', cookie: cookieB })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(recording.length))
  })

  it('sends an MP4 recording (as Safari records it) as audio/mp4', async () => {
    const recording = mp4Recording({ durationMs: 3000 })
    const res = await sendVoice(
      pair.cookieA,
      { conversation: pair.ab, client_id: randomUUID(), duration_ms: '3000' },
      recording,
      'audio/mp4',
    )
    expect(res.status).toBe(201)
    const voice = SendMessageResponse.parse(await res.json()).message.voice!
    expect(voice).toMatchObject({ type: 'audio/mp4', duration_ms: 3000 })
    expect(voice.url).toMatch(/\.m4a$/)
    const heard = await send(app, voice.url, { cookie: pair.cookieB })
    expect(heard.headers.get('content-type')).toBe('audio/mp4')
    expect(new Uint8Array(await heard.arrayBuffer())).toEqual(recording)
  })

  it('debits once under replays of the client id and under 5 identical sends at once, one recording kept', async () => {
    const { a, cookieA, ab } = pair
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await recordings()).length
    const rowsBefore = (await voiceRows(a.id)).length
    const fields = { conversation: ab, client_id: randomUUID(), duration_ms: '4000' }
    const recording = webmRecording({ durationMs: 4000 })
    const first = await sendVoice(cookieA, fields, recording)
    expect(first.status).toBe(201)
    const answer = SendMessageResponse.parse(await first.json())
    const again = await sendVoice(cookieA, fields, recording)
    expect(again.status).toBe(200)
    expect(SendMessageResponse.parse(await again.json())).toEqual(answer)
    expect(await balanceOf(database.db, a.id)).toBe(before - VOICE_COST)
    const rows = await voiceRows(a.id)
    expect(rows).toHaveLength(rowsBefore + 1)
    expect(rows.at(-1)).toMatchObject({
      delta: -VOICE_COST,
      reference: `message:${answer.message.id}`,
    })
    expect((await recordings()).length).toBe(storedBefore + 1)

    const raced = { conversation: ab, client_id: randomUUID(), duration_ms: '2000' }
    const racedRecording = webmRecording({ durationMs: 2000 })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sendVoice(cookieA, raced, racedRecording)),
    )
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201])
    expect(await balanceOf(database.db, a.id)).toBe(before - 2 * VOICE_COST)
    expect(await voiceRows(a.id)).toHaveLength(rowsBefore + 2)
    expect(
      await database.db.select().from(messages).where(eq(messages.clientId, raced.client_id)),
    ).toHaveLength(1)
    expect((await recordings()).length).toBe(storedBefore + 2)
  })

  it('answers 402 with nothing stored (no message, no ledger row, no recording) when credits are short', async () => {
    const { b, cookieB, ab } = pair
    const balance = await balanceOf(database.db, b.id)
    if (balance > 0)
      await database.db.transaction((tx) => debit(tx, b.id, balance, 'adjustment', 't'))
    await database.db.transaction((tx) => credit(tx, b.id, VOICE_COST - 1, 'bonus', 'test'))
    const storedBefore = (await recordings()).length
    const clientId = randomUUID()
    const res = await sendVoice(
      cookieB,
      { conversation: ab, client_id: clientId, duration_ms: '1500' },
      webmRecording({ durationMs: 1500 }),
    )
    expect(res.status).toBe(402)
    expect(await res.json()).toMatchObject({
      error: 'insufficient_credits',
      credits: VOICE_COST - 1,
      cost: VOICE_COST,
    })
    expect(await balanceOf(database.db, b.id)).toBe(VOICE_COST - 1)
    expect(await voiceRows(b.id)).toHaveLength(0)
    expect(
      await database.db.select().from(messages).where(eq(messages.clientId, clientId)),
    ).toHaveLength(0)
    expect((await recordings()).length).toBe(storedBefore)
  })

  it.each([
    [
      'file',
      'bytes that are no recording',
      { durationMs: '1000' },
      () => new TextEncoder().encode('not audio at all, just text'),
    ],
    [
      'file',
      'a Matroska file that is not WebM',
      { durationMs: '1000' },
      () => webmRecording({ durationMs: 1000, docType: 'matroska' }),
    ],
    [
      'file',
      'a WebM whose blocks run to 75 s',
      { durationMs: '5000' },
      () => webmRecording({ durationMs: 75_000 }),
    ],
    [
      'file',
      'a WebM that states 90 s',
      { durationMs: '2000' },
      () => webmRecording({ durationMs: 2000, statedMs: 90_000 }),
    ],
    [
      'file',
      'an MP4 whose fragments sum to 75 s',
      { durationMs: '5000' },
      () => mp4Recording({ durationMs: 75_000 }),
    ],
    [
      'file',
      'an MP4 whose mvhd states 90 s',
      { durationMs: '5000' },
      () => mp4Recording({ durationMs: 90_000, stated: true }),
    ],
    ['file', 'a recording over 1 MiB', { durationMs: '1000' }, () => padded(MAX_BYTES + 1)],
    [
      'duration_ms',
      'no duration_ms',
      { durationMs: undefined },
      () => webmRecording({ durationMs: 1000 }),
    ],
    [
      'duration_ms',
      'duration_ms 0',
      { durationMs: '0' },
      () => webmRecording({ durationMs: 1000 }),
    ],
    [
      'duration_ms',
      'duration_ms over 60000',
      { durationMs: '60001' },
      () => webmRecording({ durationMs: 1000 }),
    ],
    [
      'duration_ms',
      'duration_ms not an integer',
      { durationMs: '1.5' },
      () => webmRecording({ durationMs: 1000 }),
    ],
  ] as const)('refuses %s: %s (400 naming it, nothing stored)', async (field, _what, f, make) => {
    const { a, cookieA, ab } = pair
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await recordings()).length
    const clientId = randomUUID()
    const res = await sendVoice(
      cookieA,
      {
        conversation: ab,
        client_id: clientId,
        ...(f.durationMs === undefined ? {} : { duration_ms: f.durationMs }),
      },
      make(),
    )
    expect(res.status).toBe(400)
    expect(ApiError.parse(await res.json())).toMatchObject({ error: 'invalid_input', field })
    expect(await balanceOf(database.db, a.id)).toBe(before)
    expect((await recordings()).length).toBe(storedBefore)
    expect(
      await database.db.select().from(messages).where(eq(messages.clientId, clientId)),
    ).toHaveLength(0)
  })

  it('a 60 s recording with its second of slack passes', async () => {
    const res = await sendVoice(
      pair.cookieA,
      { conversation: pair.ab, client_id: randomUUID(), duration_ms: '60000' },
      webmRecording({ durationMs: 60_900 }),
    )
    expect(res.status).toBe(201)
  })

  it('serves the recording to the two members only: a stranger and a guest get 404, /media never', async () => {
    const { cookieA, cookieB, cookieC, ab } = pair
    const res = await sendVoice(
      cookieA,
      { conversation: ab, client_id: randomUUID(), duration_ms: '1000' },
      webmRecording({ durationMs: 1000 }),
    )
    const url = SendMessageResponse.parse(await res.json()).message.voice!.url
    for (const cookie of [cookieA, cookieB])
      expect((await send(app, url, { cookie })).status).toBe(200)
    for (const method of ['GET', 'HEAD'] as const) {
      expect((await send(app, url, { method, cookie: cookieC })).status).toBe(404)
      expect((await send(app, url, { method })).status).toBe(404)
    }
    expect((await send(app, `/media/${url.split('/').pop()}`)).status).toBe(404)
    expect((await send(app, '/api/voice/voice-nothing.webm', { cookie: cookieA })).status).toBe(404)
  })

  it('hides a reported voice message from its reporter at once; the moderator can listen in the queue item', async () => {
    const { a, cookieA, cookieB, ab } = pair
    const res = await sendVoice(
      cookieA,
      { conversation: ab, client_id: randomUUID(), duration_ms: '1200' },
      webmRecording({ durationMs: 1200 }),
    )
    const sent = SendMessageResponse.parse(await res.json()).message
    const report = await send(app, '/api/reports.php', {
      method: 'POST',
      cookie: cookieB,
      body: { profile: a.id, message: sent.id, reason: 'harassment', text: 'not wanted' },
    })
    expect(report.status).toBe(201)
    const got = (await pageOf(cookieB)).find((m) => m.id === sent.id)
    expect(got).toMatchObject({ voice: null, voice_hidden: true })
    expect((await send(app, sent.voice!.url, { cookie: cookieB })).status).toBe(404)
    // The sender still hears it until a moderator acts on the report.
    expect((await pageOf(cookieA)).find((m) => m.id === sent.id)?.voice).toEqual(sent.voice)
    expect((await send(app, sent.voice!.url, { cookie: cookieA })).status).toBe(200)
    const { report: receipt } = (await report.json()) as { report: { id: number } }
    const item = await queueItem(database.db, 'report', receipt.id, new Date(), diskStore(mediaDir))
    expect(item?.messages.find((m) => m.id === sent.id)?.voice).toEqual({
      url: expect.stringMatching(/^data:audio\/webm;base64,/),
      type: 'audio/webm',
      duration_ms: 1200,
    })
  })

  it('never opens a conversation (409 voice_needs_conversation, nothing stored or charged)', async () => {
    const { a, c, cookieA } = pair
    const conversation = await startChat(app, cookieA, c.id)
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await recordings()).length
    const res = await sendVoice(
      cookieA,
      { conversation, client_id: randomUUID(), duration_ms: '1000' },
      webmRecording({ durationMs: 1000 }),
    )
    expect(res.status).toBe(409)
    expect(ApiError.parse(await res.json())).toMatchObject({
      error: 'voice_needs_conversation',
      field: 'conversation',
    })
    expect(await balanceOf(database.db, a.id)).toBe(before)
    expect((await recordings()).length).toBe(storedBefore)
    expect(await pageOf(cookieA, conversation)).toEqual([])
  })

  it('a block stops voice messages, nothing stored or charged', async () => {
    const { a, b, cookieA, cookieB, ab } = pair
    const blocked = await send(app, '/api/blocks.php', {
      method: 'POST',
      body: { profile: a.id },
      cookie: cookieB,
    })
    expect(blocked.status).toBeLessThan(300)
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await recordings()).length
    const res = await sendVoice(
      cookieA,
      { conversation: ab, client_id: randomUUID(), duration_ms: '1000' },
      webmRecording({ durationMs: 1000 }),
    )
    expect(res.status).toBe(403)
    expect(ApiError.parse(await res.json()).error).toBe('blocked')
    expect(await balanceOf(database.db, a.id)).toBe(before)
    expect((await recordings()).length).toBe(storedBefore)
    expect(b.id).toBeGreaterThan(0)
  })

  it("lists the member's own recordings in their export, and removes them from the store with their account", async () => {
    const { a, cookieA, ab } = pair
    const exported = await send(app, '/api/account_export.php', { cookie: cookieA })
    expect(exported.status).toBe(200)
    const data = (await exported.json()) as {
      conversations: Array<{ id: number; messages: Array<{ direction: string; voice?: unknown }> }>
    }
    const voices = data.conversations
      .find((c) => c.id === ab)!
      .messages.flatMap((m) => (m.voice ? [m.voice] : []))
    expect(voices.length).toBeGreaterThan(0)
    expect(voices[0]).toEqual({
      type: 'audio/webm',
      duration_ms: 5000,
      recording: expect.stringMatching(/^data:audio\/webm;base64,/),
    })
    expect((await recordings()).length).toBeGreaterThan(0)
    const deleted = await send(app, '/api/user.php', {
      method: 'DELETE',
      cookie: cookieA,
      body: { password: TEST_PASSWORD },
    })
    expect(deleted.status).toBe(200)
    // Every recording of this test was Anna's.
    expect(await recordings()).toEqual([])
    const rows = await database.db.select().from(messages).where(eq(messages.senderId, a.id))
    expect(rows.filter((m) => m.voice !== null)).toEqual([])
    // Still voice messages, whose recording is gone.
    expect(rows.filter((m) => m.voiceType !== null).length).toBe(voices.length)
  })
})

/** A valid WebM start padded with an EBML Void element to `length` bytes. */
function padded(length: number): Uint8Array {
  const head = webmRecording({ durationMs: 100 })
  const out = new Uint8Array(length)
  out.set(head)
  // Void (0xEC), an 8-byte size covering the rest.
  const rest = length - head.length - 9
  out.set(
    [0xec, 0x01, ...Array.from({ length: 7 }, (_, i) => Math.floor(rest / 256 ** (6 - i)) % 256)],
    head.length,
  )
  return out
}
