// Online now (docs/live.md): profiles in profile, chat and search answers
// carry last_active from the member's newest session use: `now` within 5
// minutes, `today` within a day, `week` within 7 days, else null; null for
// others when the member hides it. The thresholds are pinned by value.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { members, sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ChatsResponse, ProfileResponse, SearchResponse } from '../contract/index.ts'
import { lastActiveOf } from '../contract/rules/live.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'

const MIN = 60_000

describe('last active rule', () => {
  it('is now within 5 minutes, today within a day, week within 7 days, else null', () => {
    const now = Date.UTC(2026, 10, 27, 12)
    expect(lastActiveOf(now - 4 * MIN, now)).toBe('now')
    expect(lastActiveOf(now - 5 * MIN, now)).toBe('today')
    expect(lastActiveOf(now - 24 * 60 * MIN + 1, now)).toBe('today')
    expect(lastActiveOf(now - 24 * 60 * MIN, now)).toBe('week')
    expect(lastActiveOf(now - 7 * 24 * 60 * MIN + 1, now)).toBe('week')
    expect(lastActiveOf(now - 7 * 24 * 60 * MIN, now)).toBeNull()
  })
})

describeEngines('online now on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let viewer: MemberRow
  let other: MemberRow
  let cookie: string
  let otherCookie: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    app = createApi({ db: database.db })
    viewer = await addMember(database.db, { gender: 'male', country: 'NL' })
    other = await addMember(database.db, { gender: 'female', country: 'NL', name: 'Olga' })
    cookie = await login(app, viewer.email, TEST_PASSWORD)
    otherCookie = await login(app, other.email, TEST_PASSWORD)
  })
  afterAll(() => database?.close())

  /** Puts the other member's last session use and last activity `ago` ms back. */
  const lastSeen = async (ago: number) => {
    const at = new Date(Date.now() - ago)
    await database.db
      .update(sessions)
      .set({ lastSeenAt: at })
      .where(eq(sessions.memberId, other.id))
    await database.db.update(members).set({ lastActiveAt: at }).where(eq(members.id, other.id))
  }
  const profile = async () => {
    const res = await send(app, `/api/profile.php?id=${other.id}`, { cookie })
    expect(res.status).toBe(200)
    return ProfileResponse.parse(await res.json()).profile
  }

  it('answers now, today, week or null on the profile, from the session use', async () => {
    await lastSeen(MIN)
    expect((await profile()).last_active).toBe('now')
    await lastSeen(60 * MIN)
    expect((await profile()).last_active).toBe('today')
    await lastSeen(3 * 24 * 60 * MIN)
    expect((await profile()).last_active).toBe('week')
    await lastSeen(30 * 24 * 60 * MIN)
    expect((await profile()).last_active).toBeNull()
  })

  it('a session used just now makes the member online, whatever the older activity', async () => {
    await lastSeen(30 * 24 * 60 * MIN)
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date() })
      .where(eq(sessions.memberId, other.id))
    expect((await profile()).last_active).toBe('now')
  })

  it('carries it in the chat list and in search', async () => {
    await lastSeen(MIN)
    const chat = await send(app, `/api/chat.php?profile=${other.id}`, { cookie })
    expect(chat.status).toBe(200)
    const chats = ChatsResponse.parse(await (await send(app, '/api/chats.php', { cookie })).json())
    expect(chats.chats.find((c) => c.profile.id === other.id)?.profile.last_active).toBe('now')
    const found = SearchResponse.parse(
      await (await send(app, '/api/search.php?gender=female&country=NL', { cookie })).json(),
    )
    const tile = found.profiles.find((p) => p.id === other.id)
    expect(tile?.last_active).toBe('now')
  })

  it('answers null to others once the member hides it', async () => {
    await lastSeen(MIN)
    const res = await send(app, '/api/privacy.php', {
      method: 'PUT',
      cookie: otherCookie,
      body: { hide_online: true },
    })
    expect(res.status).toBe(200)
    expect((await profile()).last_active).toBeNull()
    await send(app, '/api/privacy.php', {
      method: 'PUT',
      cookie: otherCookie,
      body: { hide_online: false },
    })
    expect((await profile()).last_active).toBe('now')
  })
})
