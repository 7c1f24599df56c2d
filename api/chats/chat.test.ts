// GET /api/chat.php?profile= (spec §7): the conversation with a member, made
// on first use, the same one ever after (also for two first requests at
// once), shown again when the member had hidden it; 400/404 on bad targets.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { conversationMembers, conversations } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ApiError, ChatStartResponse, ChatsResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, addMembers, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('chat start on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let me: MemberRow
  let cookie: string
  let others: MemberRow[]
  let gone: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    me = await addMember(database.db, { gender: 'male' })
    others = await addMembers(
      database.db,
      Array.from({ length: 4 }, () => ({})),
    )
    gone = await addMember(database.db, { deletedAt: new Date() })
    cookie = await login(app, me.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  const other = (i: number) => others[i]!
  const start = async (profile: number, as = cookie) => {
    const res = await send(app, `/api/chat.php?profile=${profile}`, { cookie: as })
    expect(res.status).toBe(200)
    return ChatStartResponse.parse(await res.json()).id
  }
  const membersOf = async (conversationId: number) =>
    database.db
      .select()
      .from(conversationMembers)
      .where(eq(conversationMembers.conversationId, conversationId))
  const expectError = async (path: string, status: number, as?: string) => {
    const res = await send(app, path, { cookie: as })
    expect(res.status, path).toBe(status)
    return ApiError.parse(await res.json())
  }

  it('answers 403 without a session (spec §8)', async () => {
    expect((await expectError(`/api/chat.php?profile=${other(0).id}`, 403)).error).toBe(
      'not_logged_in',
    )
  })

  it('makes the conversation on first use, with both members, then returns the same one', async () => {
    const id = await start(other(0).id)
    const [row] = await database.db.select().from(conversations).where(eq(conversations.id, id))
    expect([row!.memberLow, row!.memberHigh]).toEqual([me.id, other(0).id].sort((a, b) => a - b))
    expect((await membersOf(id)).map((m) => m.memberId).sort((a, b) => a - b)).toEqual(
      [me.id, other(0).id].sort((a, b) => a - b),
    )
    expect(await start(other(0).id)).toBe(id)
    // The other side reaches the same conversation.
    expect(await start(me.id, await login(app, other(0).email, TEST_PASSWORD))).toBe(id)
    expect(await membersOf(id)).toHaveLength(2)
    // It is in my chat list now, without messages yet.
    const chats = ChatsResponse.parse(
      await (await send(app, '/api/chats.php', { cookie })).json(),
    ).chats
    expect(chats.find((c) => c.conversation.id === id)).toMatchObject({
      profile: { id: other(0).id },
      last_message: null,
    })
  })

  it('makes one conversation for two first requests at once', async () => {
    const ids = await Promise.all([start(other(1).id), start(other(1).id), start(other(1).id)])
    expect(new Set(ids).size).toBe(1)
    const rows = await database.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.memberLow, Math.min(me.id, other(1).id)),
          eq(conversations.memberHigh, Math.max(me.id, other(1).id)),
        ),
      )
    expect(rows).toHaveLength(1)
    expect(await membersOf(ids[0]!)).toHaveLength(2)
  })

  it('shows a chat the member had hidden again, leaving the other side as it was', async () => {
    const id = await start(other(2).id)
    const hiddenAt = new Date()
    await database.db
      .update(conversationMembers)
      .set({ hiddenAt })
      .where(eq(conversationMembers.conversationId, id))
    expect(await start(other(2).id)).toBe(id)
    const rows = await membersOf(id)
    expect(rows.find((r) => r.memberId === me.id)?.hiddenAt).toBeNull()
    expect(rows.find((r) => r.memberId === other(2).id)?.hiddenAt).toEqual(hiddenAt)
  })

  it('refuses a chat with yourself (400 profile)', async () => {
    const body = await expectError(`/api/chat.php?profile=${me.id}`, 400, cookie)
    expect(body).toMatchObject({ error: 'invalid_input', field: 'profile' })
  })

  it('answers unknown and deleted members with the same 404, creating nothing', async () => {
    const before = (await database.db.select().from(conversations)).length
    for (const id of [gone.id, 987_654_321]) {
      expect(await expectError(`/api/chat.php?profile=${id}`, 404, cookie)).toEqual({
        error: 'not_found',
        message: 'not_found',
      })
    }
    expect(await database.db.select().from(conversations)).toHaveLength(before)
  })

  it('answers a bad profile parameter with 400 naming it', async () => {
    for (const q of ['', 'profile=', 'profile=x', 'profile=-4', 'profile=0', 'profile=2.5']) {
      const body = await expectError(`/api/chat.php?${q}`, 400, cookie)
      expect(body).toMatchObject({ error: 'invalid_input', field: 'profile' })
    }
  })
})
