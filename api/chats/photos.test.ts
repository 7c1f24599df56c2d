// Photos in chats on both databases (docs/messages-and-credits.md, "Photos in
// chats"): one debit of photo_message_credits with the ledger reason 'photo'
// however the send is repeated or raced, 402 with nothing stored (no
// message, no picture left in the store), the photo served to the chat's two
// members only, never in a first message from an unverified member, and
// hidden once reported.
import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { creditLedger, members, messages } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import {
  ApiError,
  ChatsResponse,
  MessagesResponse,
  SendMessageResponse,
} from '../contract/index.ts'
import { balanceOf, credit } from '../credits/ledger.ts'
import { diskStore } from '../images/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { queueItem } from '../moderation/index.ts'
import { chatPair, startChat } from '../test/chat-pair.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { releaseOpening } from './scam-cases.ts'

/** The default price of a photo message (operator setting photo_message_credits), pinned by value. */
const PHOTO_COST = 30

const picture = (format: 'png' | 'jpeg' | 'webp', seed = 0) =>
  sharp({
    create: { width: 40, height: 30, channels: 3, background: { r: seed % 256, g: 90, b: 160 } },
  })
    .toFormat(format)
    .toBuffer()

describeEngines('photos in chats on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let mediaDir: string
  let a: MemberRow
  let c: MemberRow
  let cookieA: string
  let cookieB: string
  let cookieC: string
  let ab: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'chat-photos-'))
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
    // The conversation is opened by a text: the photo sends below are not first messages.
    ;({ a, c, cookieA, cookieB, cookieC, ab } = await chatPair(app, database.db, {
      credits: 1000,
      opened: true,
    }))
  })
  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  const start = (cookie: string, profile: number) => startChat(app, cookie, profile)

  async function sendPhoto(
    cookie: string,
    fields: { conversation: number; client_id: string; text?: string },
    bytes: Buffer,
    type = 'image/png',
  ) {
    const form = new FormData()
    form.append('conversation', String(fields.conversation))
    form.append('client_id', fields.client_id)
    if (fields.text !== undefined) form.append('text', fields.text)
    form.append('file', new File([new Uint8Array(bytes)], 'photo', { type }))
    const res = await app.request(`${BASE}/api/message-photo.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie },
    })
    expect(res.status, 'a photo send must not fail on the server').toBeLessThan(500)
    return res
  }

  const chatPhotos = async () => (await readdir(mediaDir)).filter((f) => f.startsWith('chat-'))
  const photoRows = async (member: number) =>
    database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, member), eq(creditLedger.reason, 'photo')))

  it('sends a png, jpeg or webp photo with a caption, debited once as a photo; a replay answers the same message', async () => {
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await chatPhotos()).length
    const clientId = randomUUID()
    const bytes = await picture('webp', 1)
    const first = await sendPhoto(
      cookieA,
      { conversation: ab, client_id: clientId, text: '  From the beach  ' },
      bytes,
      'image/webp',
    )
    expect(first.status).toBe(201)
    const sent = SendMessageResponse.parse(await first.json())
    expect(sent.message.text).toBe('From the beach')
    expect(sent.message.photo).toMatch(/^\/api\/chat-photo\/chat-[0-9a-f]{24}\.jpg$/)
    expect(sent.credits).toBe(before - PHOTO_COST)
    // The chats list shows a camera before the caption (api/chats/attachments.ts PHOTO_MARK).
    const list = ChatsResponse.parse(
      await (await send(app, '/api/chats.php', { cookie: cookieB })).json(),
    )
    expect(list.chats.find((c) => c.conversation.id === ab)?.last_message?.body).toBe(
      '📷 From the beach',
    )
    const replay = await sendPhoto(
      cookieA,
      { conversation: ab, client_id: clientId, text: 'From the beach' },
      bytes,
      'image/webp',
    )
    expect(replay.status).toBe(200)
    expect(SendMessageResponse.parse(await replay.json()).message).toEqual(sent.message)
    expect(await balanceOf(database.db, a.id)).toBe(before - PHOTO_COST)
    const ledger = (await photoRows(a.id)).filter(
      (r) => r.reference === `message:${sent.message.id}`,
    )
    expect(ledger).toHaveLength(1)
    expect(ledger[0]!.delta).toBe(-PHOTO_COST)
    // One picture kept: the replay's own upload was deleted again.
    expect((await chatPhotos()).length).toBe(storedBefore + 1)
    // Stored re-encoded as JPEG, whatever came in.
    const got = await send(app, sent.message.photo!, { cookie: cookieB })
    expect(got.status).toBe(200)
    expect(got.headers.get('content-type')).toBe('image/jpeg')
    expect((await sharp(Buffer.from(await got.arrayBuffer())).metadata()).format).toBe('jpeg')
    for (const format of ['png', 'jpeg'] as const) {
      const res = await sendPhoto(
        cookieA,
        { conversation: ab, client_id: randomUUID() },
        await picture(format, 2),
        `image/${format}`,
      )
      expect(res.status).toBe(201)
    }
  })

  it('five identical sends at once store one message and debit once', async () => {
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await chatPhotos()).length
    const clientId = randomUUID()
    const bytes = await picture('png', 3)
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        sendPhoto(cookieA, { conversation: ab, client_id: clientId, text: 'Once' }, bytes),
      ),
    )
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201])
    const ids = new Set(
      await Promise.all(
        answers.map(async (r) => SendMessageResponse.parse(await r.json()).message.id),
      ),
    )
    expect(ids.size).toBe(1)
    expect(await balanceOf(database.db, a.id)).toBe(before - PHOTO_COST)
    const rows = await database.db.select().from(messages).where(eq(messages.clientId, clientId))
    expect(rows).toHaveLength(1)
    expect((await chatPhotos()).length).toBe(storedBefore + 1)
  })

  it('refuses with 402 and stores nothing when the credits are short', async () => {
    const poor = await addMember(database.db, { name: 'Pim', gender: 'male', country: 'NL' })
    const cookie = await login(app, poor.email, TEST_PASSWORD)
    const conversation = await start(cookie, a.id)
    await database.db.transaction((tx) => credit(tx, poor.id, 40, 'bonus', 'test'))
    // A text first (10 credits), so the photo is not an opening: 30 left, then 29.
    const opened = await send(app, '/api/messages.php', {
      method: 'POST',
      cookie,
      body: { conversation, text: 'Hoi Anna', client_id: randomUUID() },
    })
    expect(opened.status).toBe(201)
    await database.db.update(members).set({ credits: 29 }).where(eq(members.id, poor.id))
    const storedBefore = (await chatPhotos()).length
    const res = await sendPhoto(
      cookie,
      { conversation, client_id: randomUUID(), text: 'Look' },
      await picture('png', 4),
    )
    expect(res.status).toBe(402)
    expect(await res.json()).toMatchObject({
      error: 'insufficient_credits',
      credits: 29,
      cost: PHOTO_COST,
    })
    const stored = await database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation))
    expect(stored.map((m) => m.photo)).toEqual([null])
    expect(await photoRows(poor.id)).toHaveLength(0)
    expect((await chatPhotos()).length).toBe(storedBefore)
  })

  it('serves a chat photo (GET and HEAD) to the two members only, never to others or guests', async () => {
    const res = await sendPhoto(
      cookieA,
      { conversation: ab, client_id: randomUUID() },
      await picture('png', 5),
    )
    const path = SendMessageResponse.parse(await res.json()).message.photo!
    for (const cookie of [cookieA, cookieB]) {
      expect((await send(app, path, { cookie })).status).toBe(200)
      const head = await send(app, path, { method: 'HEAD', cookie })
      expect(head.status).toBe(200)
      expect(head.headers.get('cache-control')).toBe('no-store')
    }
    expect((await send(app, path, { cookie: cookieC })).status).toBe(404)
    expect((await send(app, path, { method: 'HEAD', cookie: cookieC })).status).toBe(404)
    expect((await send(app, path)).status).toBe(403)
    expect((await send(app, path, { method: 'HEAD' })).status).toBe(403)
    // Never through the public /media route either.
    const name = path.split('/').pop()!
    expect((await send(app, `/media/${name}`)).status).toBe(404)
  })

  it('refuses a photo in a first message from an unverified member (403, nothing stored or charged); a verified one may', async () => {
    const conversation = await start(cookieA, c.id)
    const before = await balanceOf(database.db, a.id)
    const storedBefore = (await chatPhotos()).length
    const clientId = randomUUID()
    const res = await sendPhoto(
      cookieA,
      { conversation, client_id: clientId, text: 'Hello' },
      await picture('png', 6),
    )
    expect(res.status).toBe(403)
    expect(ApiError.parse(await res.json())).toMatchObject({
      error: 'photo_needs_verification',
      field: 'file',
    })
    expect(await balanceOf(database.db, a.id)).toBe(before)
    expect(
      await database.db.select().from(messages).where(eq(messages.conversationId, conversation)),
    ).toHaveLength(0)
    expect((await chatPhotos()).length).toBe(storedBefore)
    await database.db.update(members).set({ verifiedAt: new Date() }).where(eq(members.id, a.id))
    try {
      const verified = await sendPhoto(
        cookieA,
        { conversation, client_id: randomUUID(), text: 'Hello' },
        await picture('png', 6),
      )
      expect(verified.status).toBe(201)
    } finally {
      await database.db.update(members).set({ verifiedAt: null }).where(eq(members.id, a.id))
    }
  })

  it("reads a photo opening's caption as the scam signals read a text: held with its photo, shown to its sender only", async () => {
    const d = await addMember(database.db, { name: 'Dirk', gender: 'male', country: 'NL' })
    const conversation = await start(cookieA, d.id)
    const cookieD = await login(app, d.email, TEST_PASSWORD)
    await database.db.update(members).set({ verifiedAt: new Date() }).where(eq(members.id, a.id))
    try {
      const before = await balanceOf(database.db, a.id)
      const res = await sendPhoto(
        cookieA,
        { conversation, client_id: randomUUID(), text: 'I am rarely here, add me on WhatsApp' },
        await picture('png', 8),
      )
      expect(res.status).toBe(201)
      const sent = SendMessageResponse.parse(await res.json()).message
      expect(sent).toMatchObject({ held: true })
      expect(sent.photo).toMatch(/^\/api\/chat-photo\/chat-/)
      expect(await balanceOf(database.db, a.id)).toBe(before - PHOTO_COST)
      expect(await photoRows(a.id)).toContainEqual(
        expect.objectContaining({ reference: `message:${sent.id}`, delta: -PHOTO_COST }),
      )
      // The sender sees their held photo; the recipient has nothing to see.
      expect((await send(app, sent.photo!, { cookie: cookieA })).status).toBe(200)
      expect((await send(app, sent.photo!, { cookie: cookieD })).status).toBe(404)
      const page = await send(app, `/api/messages.php?conversation=${conversation}`, {
        cookie: cookieA,
      })
      expect(MessagesResponse.parse(await page.json()).messages).toEqual([
        expect.objectContaining({ held: true, photo: sent.photo }),
      ])
      // Released by a moderator: delivered with its photo, which the recipient may now see.
      expect(
        await database.db.transaction((tx) => releaseOpening(tx, conversation, 1, new Date())),
      ).toBe(true)
      const delivered = await send(app, `/api/messages.php?conversation=${conversation}`, {
        cookie: cookieD,
      })
      expect(MessagesResponse.parse(await delivered.json()).messages).toEqual([
        expect.objectContaining({ id: sent.id, photo: sent.photo }),
      ])
      expect((await send(app, sent.photo!, { cookie: cookieD })).status).toBe(200)
    } finally {
      await database.db.update(members).set({ verifiedAt: null }).where(eq(members.id, a.id))
    }
  })

  it('hides a reported photo from its reporter at once, and from both once a report is upheld', async () => {
    const res = await sendPhoto(
      cookieA,
      { conversation: ab, client_id: randomUUID(), text: 'Reported' },
      await picture('png', 7),
    )
    const sent = SendMessageResponse.parse(await res.json()).message
    const report = await send(app, '/api/reports.php', {
      method: 'POST',
      cookie: cookieB,
      body: { profile: a.id, message: sent.id, reason: 'harassment', text: 'not wanted' },
    })
    expect(report.status).toBe(201)
    // The moderator sees the reported photo in the queue item (a data: URL, staff only).
    const { report: receipt } = (await report.json()) as { report: { id: number } }
    const item = await queueItem(database.db, 'report', receipt.id, new Date(), diskStore(mediaDir))
    expect(item?.messages.find((m) => m.id === sent.id)?.photo).toMatch(/^data:image\/jpeg;base64,/)
    const page = async (cookie: string) =>
      MessagesResponse.parse(
        await (await send(app, `/api/messages.php?conversation=${ab}`, { cookie })).json(),
      ).messages.find((m) => m.id === sent.id)
    expect(await page(cookieB)).toMatchObject({ photo: null, photo_hidden: true, text: 'Reported' })
    expect((await send(app, sent.photo!, { cookie: cookieB })).status).toBe(404)
    // The sender still sees it until a moderator acts on the report.
    expect((await page(cookieA))?.photo).toBe(sent.photo)
    expect((await send(app, sent.photo!, { cookie: cookieA })).status).toBe(200)
    await database.db.execute(sqlDecide(sent.id))
    expect(await page(cookieA)).toMatchObject({ photo: null, photo_hidden: true })
    expect((await send(app, sent.photo!, { cookie: cookieA })).status).toBe(404)
  })
})

/** A moderator's decision on the report of message `id` (the decide path's column, set directly). */
const sqlDecide = (id: number) =>
  sql`UPDATE reports SET decision = 'warn', decided_at = now(), status = 'decided' WHERE message_id = ${id}`
