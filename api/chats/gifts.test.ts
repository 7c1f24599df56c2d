// Gifts in chats on both databases (docs/payments.md, "Gifts"): one debit of
// the gift's price with the ledger reason 'gift' however the send is repeated
// or raced, 402 with nothing stored, a gift kept as it was sent when the
// catalogue changes, never opening a conversation, and refused when it is
// not on sale here, naming the field.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { creditLedger, messages } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, MessagesResponse, SendMessageResponse } from '../contract/index.ts'
import { balanceOf, credit, ledgerSum } from '../credits/ledger.ts'
import { createMailer } from '../mail/mailer.ts'
import { chatPair, startChat } from '../test/chat-pair.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

/** The built-in rose's price (db/migrations/0035_gift-catalogue.sql), pinned by value. */
const ROSE = 15
const TEDDY = 40

describeEngines('gifts in chats on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let a: MemberRow
  let b: MemberRow
  let c: MemberRow
  let cookieA: string
  let cookieB: string
  let ab: number
  let ac: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({
      db: database.db,
      memberLimits: false,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    // The conversation is opened by a text: the gifts below are not first messages.
    ;({ a, b, c, cookieA, cookieB, ab } = await chatPair(app, database.db, {
      credits: 1000,
      opened: true,
    }))
    ac = await startChat(app, cookieA, c.id)
  })
  afterAll(() => database?.close())
  const sendGift = (body: Record<string, unknown>, cookie = cookieA) =>
    send(app, '/api/message-gift.php', { method: 'POST', cookie, body })
  const giftRows = (member: number) =>
    database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, member), eq(creditLedger.reason, 'gift')))

  it('sends a rose for 15 credits, once: the same request again charges nothing', async () => {
    const before = await balanceOf(database.db, a.id)
    const body = { conversation: ab, gift: 'rose', client_id: randomUUID() }
    const first = await sendGift(body)
    expect(first.status).toBe(201)
    const answer = SendMessageResponse.parse(await first.json())
    expect(answer.message.gift).toEqual({ slug: 'rose', icon: '🌹', name: null, credits: ROSE })
    expect(answer.message.text).toBe('🌹')
    expect(answer.credits).toBe(before - ROSE)
    const again = await sendGift(body)
    expect(again.status).toBe(200)
    expect(SendMessageResponse.parse(await again.json())).toEqual(answer)
    expect(await balanceOf(database.db, a.id)).toBe(before - ROSE)
    const rows = await giftRows(a.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ delta: -ROSE, reference: `message:${answer.message.id}` })
    expect(await ledgerSum(database.db, a.id)).toBe(before - ROSE)
  })

  it('charges once under 5 identical sends at once', async () => {
    const before = await balanceOf(database.db, a.id)
    const body = { conversation: ab, gift: 'teddy', client_id: randomUUID() }
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendGift(body)))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201])
    expect(await balanceOf(database.db, a.id)).toBe(before - TEDDY)
    const stored = await database.db
      .select()
      .from(messages)
      .where(eq(messages.clientId, body.client_id))
    expect(stored).toHaveLength(1)
  })

  it('the recipient reads the gift in the chat as it was sent, whatever the catalogue says later', async () => {
    const admin = (await staffSession(app, database.db, ['admin'])).cookie
    const changed = await send(app, '/api/operator/gifts.php', {
      method: 'PUT',
      cookie: admin,
      body: { site: '', slug: 'rose', icon: '🌷', credits: 99 },
    })
    expect(changed.status).toBe(200)
    const res = await send(app, `/api/messages.php?conversation=${ab}`, { cookie: cookieB })
    const page = MessagesResponse.parse(await res.json())
    const gifts = page.messages.filter((m) => m.gift)
    expect(gifts.map((m) => [m.gift?.slug, m.gift?.icon, m.gift?.credits])).toEqual([
      ['rose', '🌹', ROSE],
      ['teddy', '🧸', TEDDY],
    ])
    // The next rose costs the new price.
    const before = await balanceOf(database.db, a.id)
    const next = await sendGift({ conversation: ab, gift: 'rose', client_id: randomUUID() })
    expect(SendMessageResponse.parse(await next.json()).message.gift?.credits).toBe(99)
    expect(await balanceOf(database.db, a.id)).toBe(before - 99)
  })

  it('402 with nothing stored when the balance is short', async () => {
    const poor = await addMember(database.db, { name: 'Pim', gender: 'male', country: 'NL' })
    const cookie = await login(app, poor.email, TEST_PASSWORD)
    const chat = await startChat(app, cookie, b.id)
    await database.db.transaction((tx) => credit(tx, poor.id, 20, 'bonus', 'test'))
    const opened = await send(app, '/api/messages.php', {
      method: 'POST',
      cookie,
      body: { conversation: chat, text: 'Hello', client_id: randomUUID() },
    })
    expect(opened.status).toBe(201)
    const left = await balanceOf(database.db, poor.id)
    const res = await sendGift(
      { conversation: chat, gift: 'teddy', client_id: randomUUID() },
      cookie,
    )
    expect(res.status).toBe(402)
    expect(await res.json()).toMatchObject({ error: 'insufficient_credits', cost: TEDDY })
    expect(await balanceOf(database.db, poor.id)).toBe(left)
    expect(await giftRows(poor.id)).toHaveLength(0)
    const stored = await database.db.select().from(messages).where(eq(messages.senderId, poor.id))
    expect(stored).toHaveLength(1)
  })

  it('never opens a conversation (409), and refuses a gift not on sale naming the field', async () => {
    const before = await balanceOf(database.db, a.id)
    const opening = await sendGift({ conversation: ac, gift: 'rose', client_id: randomUUID() })
    expect(opening.status).toBe(409)
    expect(ApiError.parse(await opening.json()).error).toBe('gift_needs_conversation')
    const unknown = await sendGift({ conversation: ab, gift: 'diamond', client_id: randomUUID() })
    expect([unknown.status, ApiError.parse(await unknown.json()).field]).toEqual([404, 'gift'])
    const bad = await sendGift({ conversation: ab, gift: 'Rose!', client_id: randomUUID() })
    expect([bad.status, ApiError.parse(await bad.json()).field]).toEqual([400, 'gift'])
    expect(await balanceOf(database.db, a.id)).toBe(before)
    expect((await send(app, '/api/message-gift.php', { method: 'POST', body: {} })).status).toBe(
      403,
    )
  })
})
