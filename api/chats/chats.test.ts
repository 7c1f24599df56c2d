// GET /api/chats.php (spec §3 chat entry, §4 chat list) over the demo seed:
// shape, order, unread counts, and that a member sees only their own chats.
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { refreshNewestMessages } from '../../db/newest-message.ts'
import {
  conversationMembers,
  conversations,
  images,
  members,
  messages,
} from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { type ChatEntry, ChatsResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  seedDemoData,
  TEST_PASSWORD,
  testPasswordHash,
} from '../test/seed.ts'

describeEngines('chats on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let demoId: number
  let demoCookie: string
  let cleanup: () => Promise<void>

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    const seeded = await seedDemoData(database.db, 40)
    demoId = seeded.demoMemberId
    cleanup = seeded.cleanup
    demoCookie = await login(app, DEMO_EMAIL, DEMO_PASSWORD)
  })
  afterAll(async () => {
    await database?.close()
    await cleanup?.()
  })

  const chatsOf = async (cookie: string): Promise<ChatEntry[]> => {
    const res = await send(app, '/api/chats.php', { cookie })
    expect(res.status).toBe(200)
    return ChatsResponse.parse(await res.json()).chats
  }

  /** The conversations a member takes part in and has not hidden, from the tables. */
  const conversationIdsOf = async (memberId: number) =>
    (
      await database.db
        .select({ id: conversationMembers.conversationId })
        .from(conversationMembers)
        .where(
          and(eq(conversationMembers.memberId, memberId), isNull(conversationMembers.hiddenAt)),
        )
    )
      .map((r) => r.id)
      .sort((a, b) => a - b)

  /** Lets a seeded member log in with TEST_PASSWORD. */
  const loginAs = async (memberId: number) => {
    const passwordHash = await testPasswordHash()
    const [row] = await database.db
      .update(members)
      .set({ passwordHash })
      .where(eq(members.id, memberId))
      .returning({ email: members.email })
    return login(app, row!.email, TEST_PASSWORD)
  }

  /** A conversation between two members with one message from `a`. */
  const converse = async (a: number, b: number, body: string) => {
    const at = new Date()
    const [c] = await database.db
      .insert(conversations)
      .values({ memberLow: Math.min(a, b), memberHigh: Math.max(a, b), lastMessageAt: at })
      .returning({ id: conversations.id })
    await database.db.insert(conversationMembers).values([
      { conversationId: c!.id, memberId: a },
      { conversationId: c!.id, memberId: b, unreadCount: 1 },
    ])
    await database.db
      .insert(messages)
      .values({ conversationId: c!.id, senderId: a, body, createdAt: at })
    await refreshNewestMessages(database.db, [c!.id])
    return c!.id
  }

  it('answers 403 without a session', async () => {
    const res = await send(app, '/api/chats.php')
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'not_logged_in' })
  })

  it("lists the demo member's conversations as spec chat entries", async () => {
    const chats = await chatsOf(demoCookie)
    expect(chats.length).toBeGreaterThan(0)
    expect(chats.map((c) => c.conversation.id).sort((a, b) => a - b)).toEqual(
      await conversationIdsOf(demoId),
    )
    const rows = await database.db
      .select()
      .from(conversationMembers)
      .where(eq(conversationMembers.memberId, demoId))
    const unreadOf = new Map(rows.map((r) => [r.conversationId, r.unreadCount]))
    for (const chat of chats) {
      expect(chat.profile.id).not.toBe(demoId)
      expect(chat.num_unread_messages).toBe(unreadOf.get(chat.conversation.id))
      const [conversation] = await database.db
        .select()
        .from(conversations)
        .where(eq(conversations.id, chat.conversation.id))
      expect([conversation!.memberLow, conversation!.memberHigh].sort()).toEqual(
        [demoId, chat.profile.id].sort(),
      )
      expect(chat.last_message).not.toBeNull()
    }
    // The seed leaves some chats unread, so the badge has something to count.
    expect(chats.some((c) => c.num_unread_messages > 0)).toBe(true)
  })

  it('puts the newest conversation first', async () => {
    const chats = await chatsOf(demoCookie)
    const times = chats.map((c) => Date.parse(c.last_message!.created_at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('shows the newest message of each conversation, and whose it is', async () => {
    for (const chat of await chatsOf(demoCookie)) {
      const [newest] = await database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, chat.conversation.id))
        .orderBy(messages.id)
        .then((rows) => rows.slice(-1))
      expect(chat.last_message).toEqual({
        body: newest!.body,
        created_at: newest!.createdAt.toISOString(),
        from_me: newest!.senderId === demoId,
      })
    }
  })

  it("shows a chat partner's approved pictures only, never a pending one (it is for its owner)", async () => {
    const [chat] = await chatsOf(demoCookie)
    const partner = chat!.profile.id
    // A pending picture older than the approved ones, and one newer: with no
    // main picture set, a leaked older one would also become main_image.
    const picture = (n: number, status: string) => ({
      memberId: partner,
      filename: `chat-${partner}-${n}.jpg`,
      thumbFilename: `chat-${partner}-${n}_t.jpg`,
      status,
    })
    await database.db.delete(images).where(eq(images.memberId, partner))
    await database.db.update(members).set({ mainImageId: null }).where(eq(members.id, partner))
    const added = await database.db
      .insert(images)
      .values([
        picture(1, 'pending'),
        picture(2, 'approved'),
        picture(3, 'approved'),
        picture(4, 'pending'),
      ])
      .returning({ id: images.id, thumb: images.thumbFilename })
    const shown = (await chatsOf(demoCookie)).find((c) => c.profile.id === partner)!.profile
    expect(shown.images).toEqual([
      { id: added[1]!.id, thumb_filename: added[1]!.thumb },
      { id: added[2]!.id, thumb_filename: added[2]!.thumb },
    ])
    expect(shown.main_image).toEqual({ thumb_filename: added[1]!.thumb })
  })

  it("never lists other members' conversations (IDOR)", async () => {
    const demoChats = await chatsOf(demoCookie)
    const partner = demoChats[0]!.profile.id
    // Two live members who are neither the demo member nor one of his partners.
    const taken = new Set([demoId, ...demoChats.map((c) => c.profile.id)])
    const [a, b] = (
      await database.db.select({ id: members.id }).from(members).where(isNull(members.deletedAt))
    )
      .map((r) => r.id)
      .filter((id) => !taken.has(id))
    const partnerWithA = await converse(partner, a!, 'hello from the partner')
    const aWithB = await converse(a!, b!, 'a and b only')

    const partnerCookie = await loginAs(partner)
    const seen = (await chatsOf(partnerCookie)).map((c) => c.conversation.id)
    expect(seen.sort((x, y) => x - y)).toEqual(await conversationIdsOf(partner))
    expect(seen).toContain(demoChats[0]!.conversation.id)
    expect(seen).toContain(partnerWithA)
    expect(seen).not.toContain(aWithB)
    for (const other of demoChats.slice(1)) expect(seen).not.toContain(other.conversation.id)

    const demoSeen = (await chatsOf(demoCookie)).map((c) => c.conversation.id)
    expect(demoSeen).not.toContain(partnerWithA)
    expect(demoSeen).not.toContain(aWithB)
  })

  it('leaves out a conversation the member hid, and one whose partner left', async () => {
    const [hidden, withLeaver, ...rest] = await chatsOf(demoCookie)
    await database.db
      .update(conversationMembers)
      .set({ hiddenAt: new Date() })
      .where(
        and(
          eq(conversationMembers.conversationId, hidden!.conversation.id),
          eq(conversationMembers.memberId, demoId),
        ),
      )
    await database.db
      .update(members)
      .set({ deletedAt: new Date() })
      .where(eq(members.id, withLeaver!.profile.id))
    const ids = (await chatsOf(demoCookie)).map((c) => c.conversation.id)
    expect(ids).toEqual(rest.map((c) => c.conversation.id))
  })
})
