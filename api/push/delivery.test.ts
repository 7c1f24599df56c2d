// The whole push path through the API, on both databases: a message from A to
// B reaches B's (local, RFC 8030) push service as one encrypted notification
// naming A with B's badge; a device's subscription lives as long as the
// session that posted it, so after B logs out of that device nothing more is
// sent to it (spec §4 push, §7 logout).
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { jobs, pushSubscriptions, sessions } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { badgeOf } from '../badge.ts'
import type { PushPayload } from '../contract/rules/push.ts'
import { credit } from '../credits/ledger.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { vapidKeys } from '../settings/index.ts'
import { fakeDns } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { pushEventJobHandlers } from './events.ts'
import { pushJobHandlers } from './job.ts'
import { type LocalPushService, startLocalPushService } from './local-push-service.ts'
import { createPushSender, type PushSender } from './sender.ts'

describeEngines('push delivery through the API on %s', (engine) => {
  let database: TestDatabase
  let service: LocalPushService
  let sender: PushSender
  let runner: JobRunner
  let app: Api
  let anna: MemberRow
  let bram: MemberRow
  let cookieA: string
  let conversation: number
  let applicationServerKey: string

  beforeAll(async () => {
    database = await freshDatabase(engine)
    service = await startLocalPushService()
    const vapid = await vapidKeys(database.db, {})
    applicationServerKey = vapid.publicKey
    sender = createPushSender({
      vapid,
      subject: 'mailto:push@amora.example',
      allowHttpOrigins: [service.origin],
    })
    runner = createJobRunner({ db: database.db, handlers: {}, log: () => {} })
    runner.register(pushJobHandlers(database.db, { sender, log: () => {} }))
    runner.register(pushEventJobHandlers(database.db, badgeOf))
    app = createApi({
      db: database.db,
      jobs: runner,
      accounts: {
        mailer: createMailer({ devListing: true }),
        lookupHost: fakeDns,
        pushHttpOrigins: [service.origin],
      },
    })
    anna = await addMember(database.db, { name: 'Anna', gender: 'female', country: 'NL' })
    bram = await addMember(database.db, { name: 'Bram', gender: 'male', language: 'nl' })
    cookieA = await login(app, anna.email, TEST_PASSWORD)
    await database.db.transaction((tx) => credit(tx, anna.id, 1000, 'bonus', 'test'))
    const res = await send(app, `/api/chat.php?profile=${bram.id}`, { cookie: cookieA })
    conversation = ((await res.json()) as { id: number }).id
  })
  afterAll(async () => {
    sender?.close()
    await service?.close()
    await database?.close()
  })

  /** Bram signs in on a browser and the app posts its subscription (spec §7 push=1). */
  async function bramsDevice() {
    const cookie = await login(app, bram.email, TEST_PASSWORD)
    const subscription = service.subscribe({ applicationServerKey })
    const res = await send(app, '/api/user.php?push=1', {
      method: 'POST',
      body: { subscription },
      cookie,
    })
    expect(res.status).toBe(200)
    return { cookie, subscription }
  }
  async function annaWrites(text: string) {
    const res = await send(app, '/api/messages.php', {
      method: 'POST',
      body: { conversation, text, client_id: randomUUID() },
      cookie: cookieA,
    })
    expect(res.status).toBe(201)
    // What the poke after the commit starts (the push event, then its push
    // job), run here to the end.
    while ((await runner.runDue()) > 0) {}
  }
  const bramsRows = () =>
    database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.memberId, bram.id))

  it('a message from A makes B’s push service receive one encrypted notification naming A, with B’s badge', async () => {
    const { subscription } = await bramsDevice()
    const before = service.deliveries.length
    await annaWrites('Zin in koffie?')
    const got = service.deliveries.slice(before)
    expect(got).toHaveLength(1)
    expect(got[0]!.endpoint).toBe(subscription.endpoint)
    const payload = JSON.parse(got[0]!.payload.toString()) as PushPayload
    expect(payload.title).toContain('Anna')
    expect(payload.body).toBe('Zin in koffie?')
    expect(payload.url).toBe(`/chats/${conversation}`)
    // Badge = Bram's unread messages (this one) + new likes (none).
    expect(payload.badge).toBe(1)
  })

  it('after B logs out of that device its subscription is gone and nothing more is sent to it', async () => {
    const { cookie, subscription } = await bramsDevice()
    expect((await bramsRows()).map((r) => r.endpoint)).toContain(subscription.endpoint)
    const logout = await send(app, '/api/logout.php', { cookie })
    expect(logout.status).toBe(200)
    expect((await bramsRows()).map((r) => r.endpoint)).not.toContain(subscription.endpoint)
    const before = service.deliveries.length
    await annaWrites('Hallo?')
    expect(service.deliveries.slice(before).map((d) => d.endpoint)).not.toContain(
      subscription.endpoint,
    )
  })

  it('a device whose session expired gets nothing, though its row is still there', async () => {
    await database.db.delete(pushSubscriptions).where(eq(pushSubscriptions.memberId, bram.id))
    const { subscription } = await bramsDevice()
    const [row] = await bramsRows()
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, row!.sessionHash!))
    const before = service.deliveries.length
    await annaWrites('Nog daar?')
    expect(service.deliveries.slice(before).map((d) => d.endpoint)).not.toContain(
      subscription.endpoint,
    )
    await database.db.delete(jobs)
  })

  const sentTo = (endpoint: string, from: number) =>
    service.deliveries.slice(from).filter((d) => d.endpoint === endpoint)

  it('a member looking at the site hears through the live stream: no push while a page is visible', async () => {
    const { cookie, subscription } = await bramsDevice()
    const visible = (v: 0 | 1) =>
      send(app, `/api/push-visibility.php?visible=${v}`, { method: 'POST', cookie })
    expect((await visible(1)).status).toBe(204)
    let before = service.deliveries.length
    await annaWrites('Ik zie je online')
    expect(sentTo(subscription.endpoint, before)).toHaveLength(0)
    // The page went hidden (its hidden report): pushes again.
    expect((await visible(0)).status).toBe(204)
    before = service.deliveries.length
    await annaWrites('Nu wel?')
    expect(sentTo(subscription.endpoint, before)).toHaveLength(1)
    expect(
      (await send(app, '/api/push-visibility.php?visible=2', { method: 'POST', cookie })).status,
    ).toBe(400)
  })

  it('what notifies is the member’s choice: messages off sends no message push', async () => {
    const { cookie, subscription } = await bramsDevice()
    const put = (body: unknown) => send(app, '/api/push.php', { method: 'PUT', body, cookie })
    expect(await (await send(app, '/api/push.php', { cookie })).json()).toEqual({
      messages: true,
      likes: true,
    })
    expect(await (await put({ messages: false })).json()).toEqual({ messages: false, likes: true })
    expect((await put({ messages: 'no' })).status).toBe(400)
    const before = service.deliveries.length
    await annaWrites('Stil?')
    expect(sentTo(subscription.endpoint, before)).toHaveLength(0)
    expect(await (await put({ messages: true })).json()).toEqual({ messages: true, likes: true })
  })

  it('the test notification reaches every device of the member, in their language', async () => {
    const { cookie, subscription } = await bramsDevice()
    const before = service.deliveries.length
    const res = await send(app, '/api/push-test.php', { method: 'POST', cookie })
    expect(await res.json()).toMatchObject({ status: 'queued' })
    while ((await runner.runDue()) > 0) {}
    const [got] = sentTo(subscription.endpoint, before)
    const payload = JSON.parse(got!.payload.toString()) as PushPayload
    expect(payload).toMatchObject({
      kind: 'test',
      title: 'Meldingen staan aan',
      url: '/notifications',
    })
  })

  it('push turned off on a device deletes that subscription only', async () => {
    const { cookie, subscription } = await bramsDevice()
    const other = await bramsDevice()
    const res = await send(app, '/api/push.php', {
      method: 'DELETE',
      body: { endpoint: subscription.endpoint },
      cookie,
    })
    expect(await res.json()).toEqual({ status: 'unsubscribed' })
    const endpoints = (await bramsRows()).map((r) => r.endpoint)
    expect(endpoints).not.toContain(subscription.endpoint)
    expect(endpoints).toContain(other.subscription.endpoint)
  })
})
