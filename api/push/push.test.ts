// Push from event to browser (spec §4 push and install badge, §9): the job
// notifyMember makes, what the job does with each push service answer, and
// the local push service decrypting exactly what was sent.
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  blocks,
  conversationMembers,
  jobs,
  likes,
  pushSubscriptions,
} from '../../db/schema/index.ts'
import { badgeOf } from '../badge.ts'
import { conversationWith } from '../chats/conversations.ts'
import type { PushPayload } from '../contract/rules/push.ts'
import { createJobRunner, RetryAfter } from '../jobs/queue.ts'
import { type VapidKeys, vapidKeys } from '../settings/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMember, addMembers, type MemberRow } from '../test/seed.ts'
import {
  PUSH_JOB_KIND,
  type PushJobPayload,
  pushJobHandlers,
  type SendJobDeps,
  sendPushJob,
} from './job.ts'
import { type LocalPushService, startLocalPushService } from './local-push-service.ts'
import { enqueuePush, LIKE_PUSH, MESSAGE_PUSH, notifyMember, type PushJob } from './notify.ts'
import type { PushEvent } from './payload.ts'
import { createPushSender, type PushSender, RetryLater, vapidSubject } from './sender.ts'
import { saveSubscription } from './subscriptions.ts'

const SUBJECT = 'mailto:push@amora.example'

describeEngines('push on %s', (engine) => {
  let database: TestDatabase
  let service: LocalPushService
  let vapid: VapidKeys
  let sender: PushSender
  let logs: string[]
  let anna: MemberRow

  beforeAll(async () => {
    database = await freshDatabase(engine)
    service = await startLocalPushService()
    vapid = await vapidKeys(database.db, {})
    sender = createPushSender({ vapid, subject: SUBJECT, allowHttpOrigins: [service.origin] })
    anna = await addMember(database.db, { name: 'Anna', gender: 'female' })
  })
  afterAll(async () => {
    sender?.close()
    await service?.close()
    await database?.close()
  })
  beforeEach(() => {
    logs = []
  })

  const db = () => database.db
  const deps = (more: Partial<SendJobDeps> = {}): SendJobDeps => ({
    sender,
    log: (message) => logs.push(message),
    ...more,
  })
  /** A member with `devices` browsers subscribed, each bound to our VAPID key like a real one. */
  const memberWithDevices = async (devices = 1, spec: Parameters<typeof addMember>[1] = {}) => {
    const member = await addMember(db(), spec)
    const subscriptions = []
    for (let i = 0; i < devices; i++) {
      const subscription = service.subscribe({ applicationServerKey: vapid.publicKey })
      await saveSubscription(db(), member.id, subscription)
      subscriptions.push(subscription)
    }
    return { member, subscriptions }
  }
  const subscriptionRows = (memberId: number) =>
    db().select().from(pushSubscriptions).where(eq(pushSubscriptions.memberId, memberId))
  const messageEvent = (conversation: number, text = 'Hoi!', message?: number): PushEvent => ({
    kind: 'message',
    from: { id: anna.id, name: 'Anna' },
    conversation,
    text,
    ...(message === undefined ? {} : { message }),
  })
  const like = (): PushEvent => ({ kind: 'like', from: { id: anna.id, name: 'Anna' } })
  const payloadOf = (job: PushJob): PushPayload => JSON.parse(job.payload.payload)
  /** The message job for a fresh member with `devices` devices. */
  const oneJob = async (devices = 1) => {
    const { member, subscriptions } = await memberWithDevices(devices)
    const conversation = await conversationWith(db(), anna.id, member.id)
    const [job] = await notifyMember(db(), member.id, messageEvent(conversation), { badgeOf })
    return { member, subscriptions, subscription: subscriptions[0]!, job: job! }
  }
  const pushJobs = () =>
    db().select().from(jobs).where(eq(jobs.kind, PUSH_JOB_KIND)).orderBy(jobs.id)
  const delivered = (from: number) => service.deliveries.slice(from).map((d) => d.endpoint)

  it('badge = unread messages of listed chats + new likes (spec §4)', async () => {
    const me = await addMember(db())
    const [bob, carl, dora, erik, gone, blocker] = await addMembers(
      db(),
      Array.from({ length: 6 }, () => ({})),
    )
    const unread = async (other: MemberRow, count: number, hidden = false) => {
      const id = await conversationWith(db(), me.id, other.id)
      await db()
        .update(conversationMembers)
        .set({ unreadCount: count, hiddenAt: hidden ? new Date() : null })
        .where(
          and(eq(conversationMembers.conversationId, id), eq(conversationMembers.memberId, me.id)),
        )
    }
    await unread(bob!, 2)
    await unread(carl!, 1)
    await unread(dora!, 3, true) // removed from my list: not counted until a new message
    await unread(gone!, 5) // deleted below: the list no longer shows the chat
    await unread(blocker!, 7) // blocked below: hidden both ways
    await db()
      .insert(likes)
      .values([
        { likerId: dora!.id, likedId: me.id, isNew: true },
        { likerId: erik!.id, likedId: me.id, isNew: false }, // opened
        { likerId: gone!.id, likedId: me.id, isNew: true },
        { likerId: blocker!.id, likedId: me.id, isNew: true },
        { likerId: me.id, likedId: erik!.id, isNew: true }, // given, not received
      ])
    await db().execute(sql`UPDATE members SET deleted_at = now() WHERE id = ${gone!.id}`)
    await db().insert(blocks).values({ blockerId: blocker!.id, blockedId: me.id })
    expect(await badgeOf(db(), me.id)).toBe(2 + 1 + 1)
    // The payload carries it.
    await saveSubscription(db(), me.id, service.subscribe())
    const [job] = await notifyMember(db(), me.id, like(), { badgeOf })
    expect(payloadOf(job!).badge).toBe(4)
    expect(await badgeOf(db(), erik!.id)).toBe(1)
  })

  it("sends every device the payload byte for byte, in the member's language, with TTL 86400, urgency high and the chat's topic", async () => {
    const { member, subscriptions } = await memberWithDevices(2, { language: 'fr' })
    const conversation = await conversationWith(db(), anna.id, member.id)
    const before = service.deliveries.length
    const t0 = Date.now()
    const made = await notifyMember(db(), member.id, messageEvent(conversation, 'Salut 👋', 99), {
      badgeOf,
    })
    expect(made).toHaveLength(1) // one job fans out to every device
    const job = made[0]!
    expect(job.key).toBe('push:message:99') // one push per message, however often announced
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ status: 'done', sent: 2 })
    const got = service.deliveries.slice(before)
    expect(got.map((d) => d.endpoint).sort()).toEqual(subscriptions.map((s) => s.endpoint).sort())
    for (const d of got) {
      expect(d.payload.equals(Buffer.from(job.payload.payload, 'utf8'))).toBe(true)
      expect(d.ttl).toBe(86_400)
      expect(d.urgency).toBe('high')
      expect(d.topic).toBe(`chat-${conversation}`)
      // RFC 8292: for this push service, at most 24 h ahead, with our contact and key.
      expect(d.claims.aud).toBe(service.origin)
      expect(d.claims.sub).toBe(SUBJECT)
      expect(d.claims.exp).toBeGreaterThan(t0 / 1000)
      expect(d.claims.exp).toBeLessThanOrEqual(Date.now() / 1000 + 86_400)
      expect(d.vapidKey).toBe(vapid.publicKey)
    }
    expect(JSON.parse(got[0]!.payload.toString('utf8'))).toEqual({
      kind: 'message',
      title: 'Nouveau message de Anna',
      body: 'Salut 👋',
      url: `/chats/${conversation}`,
      open_url: `/login?redirect=%2Fchats%2F${conversation}`,
      badge: 0,
      tag: `chat-${conversation}`,
      conversation,
    })
  })

  it('sends a like with TTL 3600, urgency normal', async () => {
    expect(MESSAGE_PUSH).toEqual({ ttl: 86_400, urgency: 'high' })
    expect(LIKE_PUSH).toEqual({ ttl: 3_600, urgency: 'normal' })
    const { member } = await memberWithDevices(1, { language: 'nl' })
    const [job] = await notifyMember(db(), member.id, like(), { badgeOf })
    expect(job!.key).toBe(`push:like:${anna.id}:${member.id}`)
    expect(await sendPushJob(db(), job!.payload, deps())).toMatchObject({ sent: 1 })
    const d = service.deliveries.at(-1)!
    expect(d).toMatchObject({ ttl: 3600, urgency: 'normal', topic: 'likes' })
    expect(JSON.parse(d.payload.toString())).toMatchObject({
      title: 'Nieuwe like',
      body: 'Anna vindt je leuk.',
      url: '/likes',
    })
  })

  it('forgets a subscription the push service calls gone (410) or unknown (404)', async () => {
    const { member, subscriptions, job } = await oneJob(3)
    const before = service.deliveries.length
    service.unsubscribe(subscriptions[0]!.endpoint) // the service's own 410
    await db() // an endpoint the service never issued: 404
      .update(pushSubscriptions)
      .set({ endpoint: `${service.origin}/push/never-issued` })
      .where(eq(pushSubscriptions.endpoint, subscriptions[1]!.endpoint))
    const report = await sendPushJob(db(), job.payload, deps())
    expect(report).toMatchObject({ status: 'done', sent: 1, gone: 2, retried: 0 })
    const kept = (await subscriptionRows(member.id)).map((r) => r.endpoint)
    expect(kept).toEqual([subscriptions[2]!.endpoint])
    expect(delivered(before)).toEqual(kept)
    expect(
      service.requests
        .slice(-3)
        .map((r) => r.status)
        .sort(),
    ).toEqual([201, 404, 410])
    expect(await pushJobs()).toEqual([]) // nothing to retry
  })

  it('retries after the Retry-After of a 503 or 429, in seconds or as a date', async () => {
    const { member, job } = await oneJob()
    const before = service.deliveries.length
    service.failNext({ status: 503, retryAfter: '120' })
    const error = await sendPushJob(db(), job.payload, deps()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RetryLater)
    expect(error).toBeInstanceOf(RetryAfter) // the job runner's own delay
    expect((error as RetryLater).delayMs).toBe(120_000)
    expect((error as RetryLater).message).toContain('503')

    const now = Date.now()
    service.failNext({ status: 429, retryAfter: new Date(now + 90_000).toUTCString() })
    const dated = await sendPushJob(db(), job.payload, deps({ now: () => now })).catch((e) => e)
    expect(dated).toBeInstanceOf(RetryLater)
    // HTTP dates have whole seconds.
    expect((dated as RetryLater).delayMs).toBeGreaterThan(89_000)
    expect((dated as RetryLater).delayMs).toBeLessThanOrEqual(90_000)

    // No Retry-After: the queue's backoff for the attempt (8 s ± 20 % at the 3rd).
    service.failNext({ status: 500 })
    const plain = await sendPushJob(db(), job.payload, deps({ attempts: 3 })).catch((e) => e)
    expect((plain as RetryLater).delayMs).toBeGreaterThanOrEqual(6_400)
    expect((plain as RetryLater).delayMs).toBeLessThanOrEqual(9_600)

    expect(service.deliveries.length).toBe(before)
    expect(await subscriptionRows(member.id)).toHaveLength(1)
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ sent: 1 })
  })

  it('retries only the devices that need it, so none gets the message twice', async () => {
    const { subscriptions, job } = await oneJob(3)
    const before = service.deliveries.length
    const now = Date.now()
    service.failNext({ status: 503, retryAfter: '45' })
    const report = await sendPushJob(db(), job.payload, deps({ now: () => now, concurrency: 1 }))
    expect(report).toMatchObject({ sent: 2, retried: 1 })
    const [followUp] = await pushJobs()
    const retry = followUp!.payload as PushJobPayload
    expect(retry.subscriptionIds).toHaveLength(1)
    expect(retry.round).toBe(1)
    expect(followUp!.runAt.getTime()).toBe(now + 45_000)
    expect(await sendPushJob(db(), retry, deps())).toMatchObject({ sent: 1 })
    // Each device exactly once.
    expect(delivered(before).sort()).toEqual(subscriptions.map((s) => s.endpoint).sort())
    await db().delete(jobs).where(eq(jobs.kind, PUSH_JOB_KIND))
  })

  it('gives up when the wait would outlast the TTL, and sends only the TTL left', async () => {
    const { job } = await oneJob()
    service.failNext({ status: 503, retryAfter: String(86_400 + 60) })
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ sent: 0, expired: 1 })
    const later = job.payload.createdAt + 100_000
    expect(await sendPushJob(db(), job.payload, deps({ now: () => later }))).toMatchObject({
      sent: 1,
    })
    expect(service.deliveries.at(-1)!.ttl).toBe(86_400 - 100)
    const tooLate = job.payload.createdAt + 86_400_000
    const count = service.requests.length
    expect(await sendPushJob(db(), job.payload, deps({ now: () => tooLate }))).toMatchObject({
      status: 'expired',
      sent: 0,
    })
    expect(service.requests.length).toBe(count)
    expect(await pushJobs()).toEqual([])
  })

  it('logs 401/403 as a VAPID configuration error, once per job, and does not retry', async () => {
    const { member, job } = await oneJob(3)
    service.failNext({ status: 401 }, { status: 401 }, { status: 401 })
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ sent: 0, rejected: 3 })
    expect(logs).toEqual([expect.stringContaining('VAPID configuration error')])
    // A real refusal: a browser subscribed with another application server key.
    const foreign = service.subscribe({ applicationServerKey: 'B'.repeat(87) })
    await saveSubscription(db(), member.id, foreign)
    const before = service.deliveries.length
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ sent: 3, rejected: 1 })
    expect(service.requests.filter((r) => r.status === 403)).toHaveLength(1)
    expect(delivered(before)).not.toContain(foreign.endpoint)
    // The subscriptions stay: the fault is ours, not the browsers'.
    expect(await subscriptionRows(member.id)).toHaveLength(4)
    expect(await pushJobs()).toEqual([])
  })

  it('pushes nothing between blocked members, either way, even when blocked after the event', async () => {
    const { member, job } = await oneJob()
    const conversation = await conversationWith(db(), anna.id, member.id)
    await db().insert(blocks).values({ blockerId: member.id, blockedId: anna.id })
    expect(await notifyMember(db(), member.id, messageEvent(conversation), { badgeOf })).toEqual([])
    const count = service.requests.length
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ status: 'dropped' })
    expect(service.requests.length).toBe(count)
    await db().delete(blocks).where(eq(blocks.blockerId, member.id))
    await db().insert(blocks).values({ blockerId: anna.id, blockedId: member.id })
    expect(await notifyMember(db(), member.id, like(), { badgeOf })).toEqual([])
    await db().delete(blocks).where(eq(blocks.blockerId, anna.id))
    expect(await notifyMember(db(), member.id, like(), { badgeOf })).toHaveLength(1)
  })

  it('pushes nothing about or to a deleted account', async () => {
    const { member, job } = await oneJob()
    const ghost = await addMember(db())
    const conversation = await conversationWith(db(), ghost.id, member.id)
    await db().execute(sql`UPDATE members SET deleted_at = now() WHERE id = ${ghost.id}`)
    const fromGhost: PushEvent = {
      ...messageEvent(conversation),
      from: { id: ghost.id, name: 'x' },
    }
    expect(await notifyMember(db(), member.id, fromGhost, { badgeOf })).toEqual([])
    await db().execute(sql`UPDATE members SET deleted_at = now() WHERE id = ${member.id}`)
    expect(await notifyMember(db(), member.id, like(), { badgeOf })).toEqual([])
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ status: 'dropped' })
    // Nor to oneself, nor to a member without a device.
    expect(await notifyMember(db(), anna.id, like(), { badgeOf })).toEqual([])
    const bare = await addMember(db())
    expect(await notifyMember(db(), bare.id, like(), { badgeOf })).toEqual([])
  })

  it("never shows one member's news on a device another member took over", async () => {
    const { subscription, job } = await oneJob()
    const next = await addMember(db())
    await saveSubscription(db(), next.id, subscription) // same browser, new sign-in
    const count = service.requests.length
    expect(await sendPushJob(db(), job.payload, deps())).toMatchObject({ sent: 0 })
    expect(service.requests.length).toBe(count)
  })

  it('sends only to endpoints that pass the address check, asked once per host', async () => {
    const { job } = await oneJob(3)
    const count = service.requests.length
    const asked: string[] = []
    const refuse = deps({
      checkEndpoint: (endpoint) => {
        asked.push(endpoint)
        return false
      },
    })
    expect(await sendPushJob(db(), job.payload, refuse)).toMatchObject({ sent: 0, refused: 3 })
    expect(asked).toHaveLength(1)
    const strict = createPushSender({ vapid, subject: SUBJECT }) // no http allowed
    expect(await sendPushJob(db(), job.payload, deps({ sender: strict }))).toMatchObject({
      refused: 3,
    })
    strict.close()
    expect(service.requests.length).toBe(count)
    expect(logs).toHaveLength(2) // one line per job
  })

  it('runs in the job queue: one job per message, retried at the Retry-After when no device got it', async () => {
    const { member } = await memberWithDevices(1)
    const conversation = await conversationWith(db(), anna.id, member.id)
    const event = messageEvent(conversation, 'via the queue', 4242)
    expect(await enqueuePush(db(), member.id, event, { badgeOf })).toBe(1)
    expect(await enqueuePush(db(), member.id, event, { badgeOf })).toBe(1) // a replay adds no job
    expect(await pushJobs()).toHaveLength(1)
    let now = Date.now() + 1_000
    const runner = createJobRunner({
      db: db(),
      handlers: pushJobHandlers(db(), deps()),
      now: () => new Date(now),
      log: () => {},
    })
    const before = service.deliveries.length
    service.failNext({ status: 503, retryAfter: '30' })
    expect(await runner.runDue()).toBe(1)
    const [waiting] = await pushJobs()
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 })
    expect(waiting!.lastError).toContain('503')
    expect(waiting!.runAt.getTime()).toBe(now + 30_000)
    now += 30_000
    expect(await runner.runDue()).toBe(1)
    expect((await pushJobs()).map((j) => j.status)).toEqual(['done'])
    expect(delivered(before)).toHaveLength(1)
    await db().delete(jobs).where(eq(jobs.kind, PUSH_JOB_KIND))
  })
})

describe('push sender without a database', () => {
  it('keeps one VAPID JWT per push service until it nears expiry', async () => {
    const service = await startLocalPushService()
    const keys = { publicKey: '', privateKey: '' }
    const { generateVAPIDKeys } = (await import('web-push')).default
    Object.assign(keys, generateVAPIDKeys())
    let now = Date.now()
    const sender = createPushSender({
      vapid: keys,
      subject: SUBJECT,
      allowHttpOrigins: [service.origin],
      now: () => now,
    })
    const subscription = service.subscribe()
    const options = { ttl: 60, urgency: 'normal' as const }
    try {
      await sender.send(subscription, 'a', options)
      await sender.send(subscription, 'b', options)
      now += 11.5 * 3600_000 // within the last hour of the 12 h JWT: a new one
      await sender.send(subscription, 'c', options)
      const [a, b, c] = service.requests.slice(-3).map((r) => r.headers.authorization)
      expect(a).toBe(b)
      expect(c).not.toBe(a)
      expect(service.deliveries.map((d) => d.payload.toString())).toEqual(['a', 'b', 'c'])
    } finally {
      sender.close()
      await service.close()
    }
  })
})

describe('VAPID contact', () => {
  it('is VAPID_SUBJECT, else the https site address, else the mail sender', () => {
    expect(vapidSubject({ VAPID_SUBJECT: 'mailto:ops@x.example' })).toBe('mailto:ops@x.example')
    expect(vapidSubject({ PUBLIC_URL: 'https://amora.example' })).toBe('https://amora.example')
    expect(
      vapidSubject({ PUBLIC_URL: 'http://localhost:3000', MAIL_FROM: 'Amora <hi@a.example>' }),
    ).toBe('mailto:hi@a.example')
    expect(vapidSubject({})).toBe('mailto:no-reply@localhost')
  })
})
