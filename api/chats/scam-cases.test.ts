// The scam signals on the message that opens a conversation, on both
// databases: a first message that asks to move off the site or to pay, or
// from a member reported by 3 members, is held (charged, invisible to the
// recipient, in the moderation queue with its signal); a moderator releases
// it (delivered once, under the id the sender was answered) or refuses it
// (refunded, sanctioned); the same first text to 5 members in a day, or an
// 11th new conversation within the hour from an account younger than 7 days,
// is refused with 429 and changes nothing. Replays of a client id change
// nothing. The demo seed's chats fire none of it.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  conversationMembers,
  creditLedger,
  firstMessages,
  jobs,
  members,
  messages,
  pushSubscriptions,
  reports,
  sanctions,
} from '../../db/schema/index.ts'
import { mulberry32, Rng } from '../../db/seed/random.ts'
import { planConversations } from '../../db/seed/social.ts'
import { type Api, createApi } from '../app.ts'
import { SendMessageResponse } from '../contract/index.ts'
import {
  BURST_FIRST_MESSAGES,
  DUPLICATE_RECIPIENTS,
  DUPLICATE_WINDOW_HOURS,
  messageSignals,
  NEW_ACCOUNT_DAYS,
  normaliseFirstText,
  REPORTS_TO_HOLD,
  REPORTS_WINDOW_DAYS,
} from '../contract/rules/scam.ts'
import { balanceOf, credit, ledgerSum } from '../credits/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { decide, queue } from '../moderation/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { addStaff } from '../test/staff.ts'

const COST = 10 // credits a message costs by default
const START = 1_000
const DAY = 86_400_000

describe('scam thresholds', () => {
  it('are pinned by value', () => {
    expect(REPORTS_TO_HOLD).toBe(3)
    expect(REPORTS_WINDOW_DAYS).toBe(30)
    expect(DUPLICATE_RECIPIENTS).toBe(5)
    expect(DUPLICATE_WINDOW_HOURS).toBe(24)
    expect(BURST_FIRST_MESSAGES).toBe(10)
    expect(NEW_ACCOUNT_DAYS).toBe(7)
  })

  it('a copy differs from its original only in case, spacing and punctuation', () => {
    expect(normaliseFirstText('Hi there, beautiful!! ')).toBe(
      normaliseFirstText('hi there beautiful'),
    )
    expect(normaliseFirstText('Hi there')).not.toBe(normaliseFirstText('Hi where'))
  })

  it('the demo seed fires nothing: no text signal, no duplicate, no burst', () => {
    // More chats than the seed makes (6), so the rule meets more openings than it will.
    const rng = new Rng(mulberry32(7))
    const now = new Date()
    const partners = Array.from({ length: 60 }, (_, i) => ({ id: i + 2 }))
    const chats = planConversations(rng, partners as never, now)
    const openings = chats
      .map((c) => c.messages[0])
      .filter((m): m is NonNullable<typeof m> => m !== undefined)
    expect(openings.length).toBe(60)
    for (const m of openings) expect(messageSignals(m.body), m.body).toEqual([])
    // The demo member's openings (the partners' each come from another member).
    const demo = openings.filter((m) => m.fromDemo)
    for (const m of demo) {
      const t = m.createdAt.getTime()
      const sameDay = demo.filter(
        (o) =>
          Math.abs(o.createdAt.getTime() - t) < DUPLICATE_WINDOW_HOURS * 3_600_000 &&
          normaliseFirstText(o.body) === normaliseFirstText(m.body),
      )
      expect(sameDay.length).toBeLessThan(DUPLICATE_RECIPIENTS)
      const hour = demo.filter((o) => Math.abs(o.createdAt.getTime() - t) < 3_600_000)
      expect(hour.length).toBeLessThan(BURST_FIRST_MESSAGES)
    }
  })
})

describeEngines('scam signals on first messages on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let staffId: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({
      db: database.db,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
      memberLimits: false,
    } as never)
    staffId = (await addStaff(database.db, ['moderator'])).id
  })
  afterAll(() => database?.close())

  /** A member with START credits, signed in; `age` ms since signing up (default 30 days). */
  async function sender(age = 30 * DAY) {
    const member = await addMember(database.db, { signupDate: new Date(Date.now() - age) })
    await database.db.transaction((tx) => credit(tx, member.id, START, 'bonus', 'test'))
    const cookie = await login(app, member.email, TEST_PASSWORD)
    return { member, cookie }
  }

  async function signedIn(member: MemberRow) {
    return login(app, member.email, TEST_PASSWORD)
  }

  async function chatWith(cookie: string, other: number): Promise<number> {
    const res = await send(app, `/api/chat.php?profile=${other}`, { cookie })
    expect(res.status).toBe(200)
    return ((await res.json()) as { id: number }).id
  }

  const post = (cookie: string, conversation: number, text: string, clientId = randomUUID()) =>
    send(app, '/api/messages.php', {
      method: 'POST',
      cookie,
      body: { conversation, text, client_id: clientId },
    })

  async function seen(cookie: string, conversation: number) {
    const res = await send(app, `/api/messages.php?conversation=${conversation}`, { cookie })
    expect(res.status).toBe(200)
    return ((await res.json()) as { messages: { id: number; text: string }[] }).messages
  }

  const opening = async (conversation: number) =>
    (
      await database.db
        .select()
        .from(firstMessages)
        .where(eq(firstMessages.conversationId, conversation))
    )[0]

  const stored = async (conversation: number) =>
    database.db.select().from(messages).where(eq(messages.conversationId, conversation))

  /** Alice opens a chat with Bob with `text`; the answer, ids and cookies. */
  async function open(text: string) {
    const alice = await sender()
    const bob = await addMember(database.db, { name: 'Bob', gender: 'male' })
    const conversation = await chatWith(alice.cookie, bob.id)
    const clientId = randomUUID()
    const res = await post(alice.cookie, conversation, text, clientId)
    return { alice, bob, conversation, clientId, res }
  }

  it('an ordinary first message is delivered and counted as an opening', async () => {
    const { bob, conversation, res } = await open('Hi! I liked your profile, how is your week?')
    expect(res.status).toBe(201)
    expect(await seen(await signedIn(bob), conversation)).toHaveLength(1)
    expect((await opening(conversation))?.status).toBe('delivered')
  })

  it.each([
    ['phone', 'call me on +31 6 12345678'],
    ['link', 'see my photos at https://pics.example/me'],
    ['email', 'write me at lisa.m1985@mail.example'],
    ['messenger', 'I am rarely here, add me on WhatsApp'],
    ['payment', 'can you send me money for the ticket'],
  ])(
    'a first message with a %s is held: charged, answered as sent, invisible to the recipient',
    async (signal, text) => {
      const { alice, bob, conversation, clientId, res } = await open(text)
      expect(res.status).toBe(201)
      const answer = (await res.json()) as {
        message: { id: number; client_id: string }
        credits: number
      }
      expect(answer.message.client_id).toBe(clientId)
      expect(answer.credits).toBe(START - COST)
      expect(await balanceOf(database.db, alice.member.id)).toBe(START - COST)
      expect(await ledgerSum(database.db, alice.member.id)).toBe(START - COST)
      const held = await opening(conversation)
      expect(held?.status).toBe('held')
      expect(held?.signals.split(',')).toContain(signal)
      expect(held?.messageId).toBe(answer.message.id)
      expect(await stored(conversation)).toHaveLength(0)
      expect(await seen(await signedIn(bob), conversation)).toHaveLength(0)
      const items = await queue(database.db, new Date())
      expect(items.find((i) => i.type === 'scam' && i.id === conversation)?.summary).toContain(
        signal,
      )
    },
  )

  it('a replay of a held send changes nothing; a second message waits for the first (409)', async () => {
    const { alice, conversation, clientId, res } = await open('add me on telegram')
    const first = await res.json()
    const again = await post(alice.cookie, conversation, 'add me on telegram', clientId)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(first)
    const next = await post(alice.cookie, conversation, 'hello?')
    expect(next.status).toBe(409)
    expect(((await next.json()) as { error: string }).error).toBe('under_review')
    expect(await balanceOf(database.db, alice.member.id)).toBe(START - COST)
    expect(await stored(conversation)).toHaveLength(0)
  })

  it('a short balance holds nothing (402) and a retry with the same id may still send', async () => {
    const alice = await addMember(database.db)
    const cookie = await signedIn(alice)
    const bob = await addMember(database.db)
    const conversation = await chatWith(cookie, bob.id)
    const clientId = randomUUID()
    const res = await post(cookie, conversation, 'my whatsapp is below', clientId)
    expect(res.status).toBe(402)
    expect(await opening(conversation)).toBeUndefined()
  })

  it('released: delivered once, under the id the sender was answered, unread for the recipient', async () => {
    const { alice, bob, conversation, res } = await open('text me +44 7700 900123')
    const answer = (await res.json()) as { message: { id: number } }
    const ctx = { staffId, now: new Date(), site: 'Test', linkBase: null }
    await decide(
      database.db,
      { type: 'scam', id: conversation, action: 'dismiss', reason: 'a friend, fine' } as never,
      ctx,
    )
    await expect(
      decide(
        database.db,
        { type: 'scam', id: conversation, action: 'dismiss', reason: 'again' } as never,
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'already_decided' })
    const bobCookie = await signedIn(bob)
    const got = await seen(bobCookie, conversation)
    expect(got.map((m) => m.id)).toEqual([answer.message.id])
    expect(await stored(conversation)).toHaveLength(1)
    const [side] = await database.db
      .select()
      .from(conversationMembers)
      .where(
        and(
          eq(conversationMembers.conversationId, conversation),
          eq(conversationMembers.memberId, bob.id),
        ),
      )
    expect(side?.unreadCount).toBe(1)
    expect(await balanceOf(database.db, alice.member.id)).toBe(START - COST)
    expect(await ledgerSum(database.db, alice.member.id)).toBe(START - COST)
    expect((await opening(conversation))?.status).toBe('released')
    // The sender may write on.
    expect((await post(alice.cookie, conversation, 'so, coffee?')).status).toBe(201)
  })

  it('the sender sees their held opening marked held, in the answer and in the chat; the recipient nothing', async () => {
    const { alice, bob, conversation, clientId, res } = await open(
      'can you send me money for the ticket',
    )
    expect(res.status).toBe(201)
    const answer = SendMessageResponse.parse(await res.json())
    expect(answer.message).toMatchObject({ client_id: clientId, held: true, read_at: null })
    const mine = await seen(alice.cookie, conversation)
    expect(mine).toEqual([answer.message])
    // A pull of what came after the last message the sender knows does not repeat it.
    const after = await send(
      app,
      `/api/messages.php?conversation=${conversation}&after=${answer.message.id}`,
      { cookie: alice.cookie },
    )
    expect(((await after.json()) as { messages: unknown[] }).messages).toEqual([])
    expect(await seen(await signedIn(bob), conversation)).toEqual([])
  })

  it('a held answer is the answer of a send (one builder), with held added', async () => {
    const sent = await open('Hi! Fancy a walk in the park on Sunday?')
    const held = await open('I am rarely here, add me on WhatsApp')
    const a = SendMessageResponse.parse(await sent.res.json())
    const b = SendMessageResponse.parse(await held.res.json())
    expect(Object.keys(b.message).sort()).toEqual([...Object.keys(a.message), 'held'].sort())
    expect(a.message.held).toBeUndefined()
    // The same time format, to the millisecond, in UTC.
    expect(b.message.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(a.message.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const row = await opening(held.conversation)
    expect(b.message.sent_at).toBe(row?.createdAt.toISOString())
  })

  it('released: the recipient gets the push and mail of a new message; the sender sees it unmarked', async () => {
    const { alice, bob, conversation, res } = await open('call me on +31 6 12345678')
    const answer = SendMessageResponse.parse(await res.json())
    await database.db.update(members).set({ activatedAt: new Date() }).where(eq(members.id, bob.id))
    await database.db.insert(pushSubscriptions).values({
      memberId: bob.id,
      endpoint: `https://push.example/${randomUUID()}`,
      p256dh: 'BKey',
      auth: 'auth',
    })
    const jobsOf = async (key: string) =>
      database.db.select().from(jobs).where(eq(jobs.dedupeKey, key))
    // Held: nothing for the recipient.
    expect(await jobsOf(`push-event:message:${answer.message.id}`)).toHaveLength(0)
    expect(await jobsOf(`message-mail:${answer.message.id}`)).toHaveLength(0)
    const ctx = { staffId, now: new Date(), site: 'Test', linkBase: 'https://dating.example' }
    await decide(
      database.db,
      { type: 'scam', id: conversation, action: 'dismiss', reason: 'fine' } as never,
      ctx,
    )
    const [push] = await jobsOf(`push-event:message:${answer.message.id}`)
    expect(push?.payload).toMatchObject({
      memberId: bob.id,
      event: {
        kind: 'message',
        from: { id: alice.member.id },
        conversation,
        text: 'call me on +31 6 12345678',
        message: answer.message.id,
      },
    })
    const [mail] = await jobsOf(`message-mail:${answer.message.id}`)
    expect(mail?.payload).toMatchObject({
      memberId: bob.id,
      from: alice.member.id,
      conversation,
      message: answer.message.id,
      base: 'https://dating.example',
    })
    const mine = await seen(alice.cookie, conversation)
    expect(mine).toHaveLength(1)
    expect(mine[0]).not.toHaveProperty('held')
    expect(mine[0]?.id).toBe(answer.message.id)
  })

  it('refused: never delivered, refunded once, and the sender sanctioned with a statement', async () => {
    const { alice, bob, conversation } = await open('buy me a gift card please')
    const ctx = { staffId, now: new Date(), site: 'Test', linkBase: null }
    const decided = await decide(
      database.db,
      {
        type: 'scam',
        id: conversation,
        action: 'warn',
        rule: 'spam_scam',
        reason: 'asked for gift cards',
      } as never,
      ctx,
    )
    expect(decided.sanction?.member).toBe(alice.member.id)
    await expect(
      decide(
        database.db,
        { type: 'scam', id: conversation, action: 'dismiss', reason: 'oops' } as never,
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'already_decided' })
    expect(await seen(await signedIn(bob), conversation)).toHaveLength(0)
    expect(await stored(conversation)).toHaveLength(0)
    expect(await balanceOf(database.db, alice.member.id)).toBe(START)
    expect(await ledgerSum(database.db, alice.member.id)).toBe(START)
    const refunds = await database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, alice.member.id), eq(creditLedger.reason, 'refund')))
    expect(refunds).toHaveLength(1)
    const rows = await database.db
      .select()
      .from(sanctions)
      .where(eq(sanctions.memberId, alice.member.id))
    expect(rows.map((s) => [s.kind, s.itemType, s.itemId])).toEqual([
      ['warn', 'scam', conversation],
    ])
    // A warned sender may open the conversation again, checked again.
    expect((await post(alice.cookie, conversation, 'my whatsapp is +31 6 12345678')).status).toBe(
      201,
    )
    expect((await opening(conversation))?.status).toBe('held')
    expect(await seen(await signedIn(bob), conversation)).toHaveLength(0)
    await decide(
      database.db,
      {
        type: 'scam',
        id: conversation,
        action: 'warn',
        rule: 'spam_scam',
        reason: 'again',
      } as never,
      ctx,
    )
    expect((await post(alice.cookie, conversation, 'Sorry. Coffee on Sunday?')).status).toBe(201)
    expect((await seen(await signedIn(bob), conversation)).map((m) => m.text)).toEqual([
      'Sorry. Coffee on Sunday?',
    ])
    expect(await balanceOf(database.db, alice.member.id)).toBe(START - COST)
    expect(await ledgerSum(database.db, alice.member.id)).toBe(START - COST)
  })

  it(`the same first text to ${DUPLICATE_RECIPIENTS} members: the next is refused with 429, nothing stored or charged`, async () => {
    const alice = await sender()
    const texts = [
      'Hey there, you look lovely!',
      'hey there you look lovely',
      'Hey there, you look lovely!!',
    ]
    for (let i = 0; i < DUPLICATE_RECIPIENTS; i++) {
      const other = await addMember(database.db)
      const c = await chatWith(alice.cookie, other.id)
      expect((await post(alice.cookie, c, texts[i % texts.length] as string)).status).toBe(201)
    }
    const other = await addMember(database.db)
    const c = await chatWith(alice.cookie, other.id)
    const res = await post(alice.cookie, c, 'HEY there... you look lovely')
    expect(res.status).toBe(429)
    expect(((await res.json()) as { error: string }).error).toBe('duplicate_first_message')
    expect(await stored(c)).toHaveLength(0)
    expect(await balanceOf(database.db, alice.member.id)).toBe(START - DUPLICATE_RECIPIENTS * COST)
    // Another text goes out.
    expect((await post(alice.cookie, c, 'Hi, how was your weekend?')).status).toBe(201)
  })

  it(`an account younger than ${NEW_ACCOUNT_DAYS} days opens at most ${BURST_FIRST_MESSAGES} conversations an hour (429); an older one is not limited by it`, async () => {
    const young = await sender(2 * DAY)
    const old = await sender(30 * DAY)
    for (const who of [young, old]) {
      for (let i = 0; i < BURST_FIRST_MESSAGES; i++) {
        const other = await addMember(database.db)
        const c = await chatWith(who.cookie, other.id)
        expect((await post(who.cookie, c, `Hello number ${i}, nice profile`)).status).toBe(201)
      }
    }
    const a = await chatWith(young.cookie, (await addMember(database.db)).id)
    const res = await post(young.cookie, a, 'Hello again, nice profile')
    expect(res.status).toBe(429)
    expect(((await res.json()) as { error: string }).error).toBe('too_many_new_chats')
    expect(await stored(a)).toHaveLength(0)
    expect(await balanceOf(database.db, young.member.id)).toBe(START - BURST_FIRST_MESSAGES * COST)
    const b = await chatWith(old.cookie, (await addMember(database.db)).id)
    expect((await post(old.cookie, b, 'Hello again, nice profile')).status).toBe(201)
  })

  it(`a member reported by ${REPORTS_TO_HOLD} members has a first message held; by fewer, not`, async () => {
    const alice = await sender()
    const report = async () => {
      const reporter = await addMember(database.db)
      await database.db.insert(reports).values({
        reporterId: reporter.id,
        reportedId: alice.member.id,
        reason: 'spam_scam',
        text: 'x',
      })
    }
    for (let i = 0; i < REPORTS_TO_HOLD - 1; i++) await report()
    const c1 = await chatWith(alice.cookie, (await addMember(database.db)).id)
    expect((await post(alice.cookie, c1, 'Hello, how are you?')).status).toBe(201)
    expect((await opening(c1))?.status).toBe('delivered')
    await report()
    const c2 = await chatWith(alice.cookie, (await addMember(database.db)).id)
    expect((await post(alice.cookie, c2, 'Hello, how are you doing?')).status).toBe(201)
    const held = await opening(c2)
    expect(held?.status).toBe('held')
    expect(held?.signals).toBe('reports')
    expect(await stored(c2)).toHaveLength(0)
    // A reply in a conversation someone else opened is no first message.
    expect((await post(alice.cookie, c1, 'call me +31 6 12345678')).status).toBe(201)
  })
})
