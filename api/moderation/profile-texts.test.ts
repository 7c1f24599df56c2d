// Profile texts held for review, on both databases (docs/law.md, "Profile
// texts held for review"): a new name, profile text or note that fires a
// scam signal of first messages (a link, a phone number, an address, a
// messenger, a payment) is not published; others keep seeing the previous
// text, the member's account names what waits, and it is in the moderation
// queue until a moderator approves (published) or rejects it (dropped, with
// a remove_text sanction: a statement of reasons).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { members, sanctions } from '../../db/schema/index.ts'
import { AccountUser, ProfileResponse } from '../contract/index.ts'
import { QueueItemDetail, QueueResponse } from '../contract/operator/moderation.ts'
import { type AccountsApi, accountsApi } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

describeEngines('profile texts held for review on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let mod: { id: number; cookie: string }
  let viewer: string
  let serial = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
    api = accountsApi(t.db)
    mod = await staffSession(api.app, t.db, ['moderator'])
    const v = await addMember(t.db, { email: `ptv-${engine}@example.com` })
    viewer = await login(api.app, v.email, TEST_PASSWORD)
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await t?.close()
  })

  async function member() {
    const m = await addMember(t.db, {
      email: `pt-${engine}-${++serial}@example.com`,
      name: `Robin ${serial}`,
      personal: 'I like long walks.',
    })
    return { m, cookie: await login(api.app, m.email, TEST_PASSWORD) }
  }
  const put = (cookie: string, profile: Record<string, unknown>) =>
    send(api.app, '/api/user.php', { method: 'PUT', cookie, body: { profile } })
  const seen = async (id: number) =>
    ProfileResponse.parse(
      await (await send(api.app, `/api/profile.php?id=${id}`, { cookie: viewer })).json(),
    ).profile
  const queued = async (member: number) =>
    QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })).json(),
    ).items.filter((i) => i.type === 'profile_text' && i.member === member)
  const decide = (body: Record<string, unknown>) =>
    send(api.app, '/api/operator/decide.php', { method: 'POST', cookie: mod.cookie, body })

  it('a text with a phone number or a link is held: others see the old one, the member is told', async () => {
    const { m, cookie } = await member()
    const res = await put(cookie, { personal: 'Call me on +31 6 1234 5678', name: 'www.robin.com' })
    expect(res.status).toBe(200)
    const own = AccountUser.parse(await res.json())
    expect(own.account.texts_in_review).toEqual(['name', 'personal'])
    // The held texts are not published.
    expect(own.profile.personal).toBe('I like long walks.')
    expect(await seen(m.id)).toMatchObject({
      name: `Robin ${serial}`,
      personal: 'I like long walks.',
    })
    const [item] = await queued(m.id)
    expect(item?.summary).toBe('link, phone')
    const detail = QueueItemDetail.parse(
      await (
        await send(api.app, `/api/operator/queue_item.php?type=profile_text&id=${item!.id}`, {
          cookie: mod.cookie,
        })
      ).json(),
    )
    expect(detail.text).toBe('name: www.robin.com\npersonal: Call me on +31 6 1234 5678')
  })

  it('a clean text is published at once and nothing waits', async () => {
    const { m, cookie } = await member()
    const res = await put(cookie, { personal: 'Cooking, cycling and old films.' })
    expect(AccountUser.parse(await res.json()).account.texts_in_review).toEqual([])
    expect((await seen(m.id)).personal).toBe('Cooking, cycling and old films.')
    expect(await queued(m.id)).toEqual([])
  })

  it('a clean text sent after a held one withdraws the held one', async () => {
    const { m, cookie } = await member()
    await put(cookie, { personal: 'Add me on telegram' })
    expect(await queued(m.id)).toHaveLength(1)
    const res = await put(cookie, { personal: 'Just ask me here.' })
    expect(AccountUser.parse(await res.json()).account.texts_in_review).toEqual([])
    expect(await queued(m.id)).toEqual([])
    expect((await seen(m.id)).personal).toBe('Just ask me here.')
  })

  it('approve publishes the held text; deciding twice is 409', async () => {
    const { m, cookie } = await member()
    await put(cookie, { personal: 'My blog: robin.io' })
    const [item] = await queued(m.id)
    const ok = await decide({
      type: 'profile_text',
      id: item!.id,
      action: 'approve',
      reason: 'a hobby blog',
    })
    expect(ok.status).toBe(200)
    expect((await seen(m.id)).personal).toBe('My blog: robin.io')
    const own = AccountUser.parse(await (await send(api.app, '/api/user.php', { cookie })).json())
    expect(own.account.texts_in_review).toEqual([])
    const again = await decide({
      type: 'profile_text',
      id: item!.id,
      action: 'approve',
      reason: 'x',
    })
    expect([again.status, (await again.json()).error]).toEqual([409, 'already_decided'])
  })

  it('reject drops the held text with a remove_text sanction; the old text stays', async () => {
    const { m, cookie } = await member()
    await put(cookie, { personal: 'Send me money via western union' })
    const [item] = await queued(m.id)
    const noRule = await decide({
      type: 'profile_text',
      id: item!.id,
      action: 'reject',
      reason: 'scam',
    })
    expect([noRule.status, (await noRule.json()).field]).toEqual([400, 'rule'])
    const res = await decide({
      type: 'profile_text',
      id: item!.id,
      action: 'reject',
      rule: 'spam_scam',
      reason: 'asks for money',
    })
    expect(res.status).toBe(200)
    expect((await seen(m.id)).personal).toBe('I like long walks.')
    const rows = await t.db.select().from(sanctions).where(eq(sanctions.memberId, m.id))
    expect(rows.map((s) => [s.kind, s.itemType, s.itemId])).toEqual([
      ['remove_text', 'profile_text', item!.id],
    ])
    const [row] = await t.db.select().from(members).where(eq(members.id, m.id))
    expect(row?.personal).toBe('I like long walks.')
    expect(await queued(m.id)).toEqual([])
  })
})
