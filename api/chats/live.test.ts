// Read marks and "is typing" (docs/live.md): read_at on every message of
// GET /api/messages.php, set when the recipient opens the conversation
// (PUT /api/chat.php) and poked to the sender live; both ways off when either
// member turned read receipts off. POST /api/typing.php pokes the other
// member, never stores anything, is throttled, rate-limited, 404 outside the
// member's conversations and 403 across a block.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { MessagesResponse, Poke, PrivacySettings, TypingResponse } from '../contract/index.ts'
import { credit } from '../credits/index.ts'
import { POKE_MESSAGE_MAX_BYTES, withMessage } from './messages.ts'
import { createEventBus, type EventBus } from '../events/bus.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { eventStream } from '../test/event-stream.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('read marks and typing on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let events: EventBus
  let a: MemberRow
  let b: MemberRow
  let c: MemberRow
  let cookieA: string
  let cookieB: string
  let cookieC: string
  let ab: number
  let ac: number

  beforeAll(async () => {
    database = await freshDatabase(engine)
    events = createEventBus(database.listen)
    app = createApi({ db: database.db, events, memberLimits: false })
    a = await addMember(database.db, { name: 'Anna', gender: 'female' })
    b = await addMember(database.db, { name: 'Bram', gender: 'male' })
    c = await addMember(database.db, { name: 'Cas', gender: 'male' })
    for (const m of [a, b, c])
      await database.db.transaction((tx) => credit(tx, m.id, 1000, 'bonus', 'test'))
    cookieA = await login(app, a.email, TEST_PASSWORD)
    cookieB = await login(app, b.email, TEST_PASSWORD)
    cookieC = await login(app, c.email, TEST_PASSWORD)
    ab = await start(cookieA, b.id)
    ac = await start(cookieA, c.id)
  })
  afterAll(async () => {
    await events?.close()
    await database?.close()
  })

  async function start(cookie: string, profile: number) {
    const res = await send(app, `/api/chat.php?profile=${profile}`, { cookie })
    expect(res.status).toBe(200)
    return ((await res.json()) as { id: number }).id
  }
  const say = async (cookie: string, conversation: number, text: string) => {
    const res = await send(app, '/api/messages.php', {
      method: 'POST',
      cookie,
      body: { conversation, text, client_id: randomUUID() },
    })
    expect(res.status).toBe(201)
  }
  const read = async (cookie: string, conversation: number) => {
    const res = await send(app, '/api/chat.php', { method: 'PUT', cookie, body: { conversation } })
    expect(res.status).toBe(200)
  }
  const page = async (cookie: string, conversation: number) => {
    const res = await send(app, `/api/messages.php?conversation=${conversation}`, { cookie })
    expect(res.status).toBe(200)
    return MessagesResponse.parse(await res.json()).messages
  }
  const privacy = async (cookie: string, body: unknown) => {
    const res = await send(app, '/api/privacy.php', { method: 'PUT', cookie, body })
    return res
  }
  const typing = (cookie: string, conversation: unknown) =>
    send(app, '/api/typing.php', { method: 'POST', cookie, body: { conversation } })

  it('read_at is null until the recipient opens the chat, then set on their messages only, for both sides', async () => {
    await say(cookieA, ab, 'Hi Bram')
    await say(cookieA, ab, 'Are you there?')
    expect((await page(cookieA, ab)).map((m) => m.read_at)).toEqual([null, null])
    // The sender opening the chat marks nothing of their own.
    await read(cookieA, ab)
    expect((await page(cookieA, ab)).map((m) => m.read_at)).toEqual([null, null])
    await read(cookieB, ab)
    const seenByA = await page(cookieA, ab)
    expect(seenByA.every((m) => m.read_at !== null)).toBe(true)
    expect(await page(cookieB, ab)).toEqual(seenByA)
    // B's answer stays unread until A opens the chat again; the older marks keep their time.
    await say(cookieB, ab, 'Yes!')
    const after = await page(cookieA, ab)
    expect(after.at(-1)!.read_at).toBeNull()
    expect(after.slice(0, 2).map((m) => m.read_at)).toEqual(seenByA.map((m) => m.read_at))
  })

  it("pokes the sender's open stream with `seen` when the recipient reads, and not when nothing was new", async () => {
    const res = await send(app, '/api/events.php', { cookie: cookieA })
    const stream = eventStream(res.body)
    await stream.untilText('event: ready')
    await say(cookieA, ab, 'Read this')
    await read(cookieB, ab)
    await stream.untilText('"type":"seen"')
    expect(stream.seen).toContain(`"type":"seen","conversation":${ab}`)
    await stream.cancel()
  })

  it("the recipient's `messages` poke carries the message as their pull answers it; the sender's does not", async () => {
    const streamB = eventStream((await send(app, '/api/events.php', { cookie: cookieB })).body)
    const streamA = eventStream((await send(app, '/api/events.php', { cookie: cookieA })).body)
    await streamB.untilText('event: ready')
    await streamA.untilText('event: ready')
    await say(cookieA, ab, 'Carried along, line one\nand two')
    await streamB.untilText('"type":"messages"')
    await streamA.untilText('"type":"messages"')
    const pokeOf = (seen: string) =>
      Poke.parse(JSON.parse(/event: poke\ndata: (.*)\n/.exec(seen)![1]!))
    const atB = pokeOf(streamB.seen)
    expect(atB.message).toEqual((await page(cookieB, ab)).at(-1))
    expect(atB.message?.text).toBe('Carried along, line one\nand two')
    expect(pokeOf(streamA.seen)).toEqual({ type: 'messages', conversation: ab })
    await streamA.cancel()
    await streamB.cancel()
  })

  it(`a poke carries its message only within ${POKE_MESSAGE_MAX_BYTES} bytes (a NOTIFY payload must stay under 8000)`, () => {
    expect(POKE_MESSAGE_MAX_BYTES).toBe(7000)
    const poke = { type: 'messages', conversation: 5 } as const
    const message = (text: string) => ({
      id: 9,
      conversation: 5,
      from: 1,
      text,
      sent_at: '2026-11-29T12:00:00.000Z',
      client_id: null,
      read_at: null,
    })
    expect(withMessage(poke, message('short'))).toEqual({ ...poke, message: message('short') })
    // Escaped in JSON, a quote takes two bytes: 3600 of them are past the limit.
    expect(withMessage(poke, message('"'.repeat(3_600)))).toEqual(poke)
    expect(withMessage(poke, message('"'.repeat(3_300)))).toHaveProperty('message')
  })

  it('read receipts off: that member marks nothing and sees no marks; the other sees none from them', async () => {
    const before = PrivacySettings.parse(
      await (await send(app, '/api/privacy.php', { cookie: cookieC })).json(),
    )
    expect(before).toEqual({
      read_receipts: true,
      browse_invisibly: false,
      hide_online: false,
      visit_push: false,
      verified_only: false,
      blur_photos: true,
    })
    const res = await privacy(cookieC, { read_receipts: false })
    expect(res.status).toBe(200)
    expect(PrivacySettings.parse(await res.json()).read_receipts).toBe(false)
    await say(cookieA, ac, 'Hello Cas')
    await read(cookieC, ac)
    expect((await page(cookieA, ac)).map((m) => m.read_at)).toEqual([null])
    // C's messages read by A (who has receipts on) still show no mark to either.
    await say(cookieC, ac, 'Hi Anna')
    await read(cookieA, ac)
    expect((await page(cookieC, ac)).map((m) => m.read_at)).toEqual([null, null])
    expect((await page(cookieA, ac)).map((m) => m.read_at)).toEqual([null, null])
    // Turned on again: the next read marks, both see it.
    await privacy(cookieC, { read_receipts: true })
    await read(cookieC, ac)
    expect((await page(cookieA, ac))[0]!.read_at).not.toBeNull()
  })

  it('refuses a bad privacy update with 400 naming the field, changing nothing', async () => {
    for (const body of [{ read_receipts: 'no' }, { hide_online: 1 }, { unknown: true }]) {
      const res = await privacy(cookieB, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    const res = await privacy(cookieB, { read_receipts: 'no' })
    expect(((await res.json()) as { field?: string }).field).toBe('read_receipts')
    expect(
      PrivacySettings.parse(await (await send(app, '/api/privacy.php', { cookie: cookieB })).json())
        .read_receipts,
    ).toBe(true)
    expect((await send(app, '/api/privacy.php')).status).toBe(403)
  })

  it('typing pokes the other member of the conversation, not the typist, and stores nothing', async () => {
    const res = await send(app, '/api/events.php', { cookie: cookieB })
    const stream = eventStream(res.body)
    await stream.untilText('event: ready')
    const answer = await typing(cookieA, ab)
    expect(answer.status).toBe(200)
    expect(TypingResponse.parse(await answer.json()).status).toBe('sent')
    await stream.untilText('"type":"typing"')
    expect(stream.seen).toContain(`"type":"typing","conversation":${ab}`)
    await stream.cancel()
  })

  it('lets one signal per member and conversation through per second, the rest are quiet', async () => {
    const first = TypingResponse.parse(await (await typing(cookieB, ab)).json())
    const second = TypingResponse.parse(await (await typing(cookieB, ab)).json())
    // The first may be quiet only if the previous test's signal was the same member's; it was A's.
    expect(first.status).toBe('sent')
    expect(second.status).toBe('quiet')
  })

  it('answers 404 for a conversation that is not the member’s, 400 for a bad one, 403 without a session', async () => {
    expect((await typing(cookieB, ac)).status).toBe(404)
    expect((await typing(cookieB, 987_654_321)).status).toBe(404)
    const bad = await typing(cookieB, 'x')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { field?: string }).field).toBe('conversation')
    expect((await typing('', ab)).status).toBe(403)
  })

  it('never signals across a block (either way): 403 blocked', async () => {
    const blocked = await send(app, '/api/blocks.php', {
      method: 'POST',
      cookie: cookieC,
      body: { profile: a.id },
    })
    expect(blocked.status).toBe(200)
    const res = await typing(cookieA, ac)
    expect(res.status).toBe(403)
    expect(((await res.json()) as { error: string }).error).toBe('blocked')
    expect((await typing(cookieC, ac)).status).toBe(403)
  })

  it('limits typing signals to 60 a minute per member (429 with Retry-After)', async () => {
    const d = await addMember(database.db, { name: 'Dirk' })
    const cookieD = await login(app, d.email, TEST_PASSWORD)
    const ad = await start(cookieD, a.id)
    let refused: Response | undefined
    for (let i = 0; i < 61; i++) {
      const res = await typing(cookieD, ad)
      if (res.status === 429) {
        refused = res
        expect(i).toBe(60)
        break
      }
      expect(res.status).toBe(200)
    }
    expect(refused?.headers.get('retry-after')).toBeTruthy()
  })
})
