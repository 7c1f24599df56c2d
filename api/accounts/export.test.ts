// Data requests on both databases: the member's own export (GDPR Art. 15/20)
// holds what the site keeps about them and nothing of anyone else's, without
// secrets, as a rate-limited download; staff export any member's file and
// delete an account on request, each audited with the reason.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  ageAssurance,
  ageRequests,
  auditLog,
  conversationMembers,
  conversations,
  faceDescriptors,
  images,
  likes,
  members,
  messages,
  orders,
  pushSubscriptions,
  reports,
  sessions,
  verifications,
} from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { credit } from '../credits/ledger.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

/** Exports a member may fetch in an hour (api/http/ratelimit.ts account_export), pinned. */
const EXPORTS_PER_HOUR = 5

describeEngines('data requests on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let ann: MemberRow
  let bob: MemberRow
  let cat: MemberRow
  let annCookie: string
  let bobCookie: string

  /** A conversation of two members with one message each way. */
  const chat = async (a: MemberRow, b: MemberRow, texts: [string, string]) => {
    const [low, high] = a.id < b.id ? [a, b] : [b, a]
    const [c] = await t.db
      .insert(conversations)
      .values({ memberLow: low.id, memberHigh: high.id })
      .returning()
    const id = c?.id as number
    await t.db.insert(conversationMembers).values([
      { conversationId: id, memberId: a.id },
      { conversationId: id, memberId: b.id },
    ])
    await t.db.insert(messages).values([
      { conversationId: id, senderId: a.id, body: texts[0] },
      { conversationId: id, senderId: b.id, body: texts[1] },
    ])
  }

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    ann = await addMember(t.db, {
      name: 'Ann Export',
      personal: 'I like maps',
      trafficsource: { network: 'adnet' },
      signupMeta: { lander: 'spring' },
    })
    bob = await addMember(t.db, { name: 'Bob Export' })
    cat = await addMember(t.db, { name: 'Cat Export' })
    await t.db
      .insert(images)
      .values({ memberId: ann.id, filename: 'ann-1.webp', thumbFilename: 'ann-1-t.webp' })
    await t.db.insert(likes).values([
      { likerId: ann.id, likedId: bob.id },
      { likerId: cat.id, likedId: ann.id },
      { likerId: bob.id, likedId: cat.id },
    ])
    await chat(ann, bob, ['Hello Bob, from Ann', 'Hi Ann, Bob here'])
    await chat(bob, cat, ['Bob to Cat: private', 'Cat to Bob: private too'])
    await credit(t.db, ann.id, 40, 'bonus', 'welcome')
    await t.db.insert(orders).values({
      publicId: 'ann-order-1',
      memberId: ann.id,
      clientId: randomUUID(),
      packageId: 'starter',
      method: 'ideal',
      currency: 'EUR',
      amount: 995,
      credits: 100,
      provider: 'local',
    })
    await t.db.insert(pushSubscriptions).values({
      memberId: ann.id,
      endpoint: 'https://push.example.net/send/abc',
      p256dh: 'SECRET-P256DH-KEY',
      auth: 'SECRET-AUTH',
    })
    await t.db
      .insert(reports)
      .values({ reporterId: ann.id, reportedId: cat.id, reason: 'spam', text: 'sells things' })
    annCookie = await login(app, ann.email, TEST_PASSWORD)
    bobCookie = await login(app, bob.email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  // biome-ignore lint/suspicious/noExplicitAny: the test reads a JSON document by its documented members
  type Doc = Record<string, any>

  const exportOf = async (cookie: string) => {
    const res = await send(app, '/api/account_export.php', { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="my-data-\d{4}-\d\d-\d\d\.json"$/,
    )
    const text = await res.text()
    return { text, data: JSON.parse(text) as Doc }
  }

  it('gives the member a file of everything the site holds about them', async () => {
    const { data, text } = await exportOf(annCookie)
    expect(data.format).toBe(1)
    expect(data.account).toMatchObject({ id: ann.id, email: ann.email, credits: 40 })
    expect(data.profile).toMatchObject({ name: 'Ann Export', personal: 'I like maps' })
    expect(data.photos).toEqual([
      expect.objectContaining({
        url: 'http://localhost/media/ann-1.webp',
        thumbnail_url: 'http://localhost/media/ann-1-t.webp',
      }),
    ])
    expect(data.likes_given).toEqual([
      expect.objectContaining({ member: { id: bob.id, name: 'Bob Export' } }),
    ])
    expect(data.likes_received).toEqual([
      expect.objectContaining({ member: { id: cat.id, name: 'Cat Export' } }),
    ])
    expect(data.conversations).toHaveLength(1)
    expect(
      data.conversations[0].messages.map((m: { direction: string; body: string }) => [
        m.direction,
        m.body,
      ]),
    ).toEqual([
      ['sent', 'Hello Bob, from Ann'],
      ['received', 'Hi Ann, Bob here'],
    ])
    expect(data.credit_ledger).toEqual([
      expect.objectContaining({ delta: 40, reason: 'bonus', balance_after: 40 }),
    ])
    expect(data.orders).toEqual([
      expect.objectContaining({ id: 'ann-order-1', amount_minor: 995, credits: 100 }),
    ])
    expect(data.sessions).toHaveLength(1)
    expect(data.push_subscriptions).toEqual([
      expect.objectContaining({ push_service: 'https://push.example.net' }),
    ])
    expect(data.reports_made).toEqual([
      expect.objectContaining({ reported_member: cat.id, reason: 'spam', text: 'sells things' }),
    ])
    expect(data.sign_up).toEqual({
      trafficsource: { network: 'adnet' },
      signup_meta: { lander: 'spring' },
    })
    // No secrets: push keys, the password hash, session tokens.
    for (const secret of ['SECRET-P256DH-KEY', 'SECRET-AUTH', ann.passwordHash])
      expect(text).not.toContain(secret)
    const [s] = await t.db.select().from(sessions).where(eq(sessions.memberId, ann.id))
    expect(text).not.toContain(s?.tokenHash)
  })

  it('lists the age check (result, time, provider) and the photo verification (verified_at, requests), never the selfie', async () => {
    const at = new Date('2026-03-01T10:00:00.000Z')
    const later = new Date('2026-03-02T10:00:00.000Z')
    expect((await exportOf(bobCookie)).data).toMatchObject({
      age_assurance: { result: null, requests: [] },
      photo_verification: { verified_at: null, requests: [] },
    })
    await t.db.insert(ageRequests).values({
      id: 'export-age-request',
      memberId: bob.id,
      provider: 'eu-av',
      nonce: 'EXPORT-NONCE-SECRET',
      createdAt: at,
      expiresAt: new Date(at.getTime() + 600_000),
      state: 'passed',
      answeredAt: at,
    })
    await t.db
      .insert(ageAssurance)
      .values({ memberId: bob.id, result: 'over_18', provider: 'eu-av', assuredAt: at })
    await t.db.update(members).set({ verifiedAt: later }).where(eq(members.id, bob.id))
    // A refused request (its selfie deleted at the decision) and a pending one.
    await t.db.insert(verifications).values([
      {
        memberId: bob.id,
        pose: 0,
        status: 'refused',
        selfie: null,
        createdAt: at,
        submittedAt: at,
        decidedAt: at,
        reason: 'Your face is not visible',
      },
      { memberId: bob.id, pose: 1, status: 'pending', selfie: 'selfie-bob.webp', createdAt: later },
    ])
    const { data, text } = await exportOf(bobCookie)
    expect(data.age_assurance).toEqual({
      result: { result: 'over_18', assured_at: '2026-03-01T10:00:00.000Z', provider: 'eu-av' },
      requests: [
        {
          provider: 'eu-av',
          state: 'passed',
          created_at: '2026-03-01T10:00:00.000Z',
          expires_at: '2026-03-01T10:10:00.000Z',
          answered_at: '2026-03-01T10:00:00.000Z',
        },
      ],
    })
    expect(text).not.toContain('EXPORT-NONCE-SECRET')
    expect(data.photo_verification.verified_at).toBe('2026-03-02T10:00:00.000Z')
    expect(data.photo_verification.requests).toEqual([
      expect.objectContaining({
        state: 'refused',
        decided_at: '2026-03-01T10:00:00.000Z',
        reason: 'Your face is not visible',
        selfie_held: false,
      }),
      expect.objectContaining({
        state: 'pending',
        decided_at: null,
        reason: null,
        selfie_held: true,
      }),
    ])
    // Neither the selfie nor its file name is part of the document.
    expect(text).not.toContain('selfie-bob')
    // A kept face descriptor is listed with its time, never its numbers.
    await t.db
      .insert(faceDescriptors)
      .values({ memberId: bob.id, descriptor: [0.123456, 0.654321], createdAt: later })
    const kept = await exportOf(bobCookie)
    expect(kept.data.photo_verification.face_descriptor).toEqual({
      kept_since: '2026-03-02T10:00:00.000Z',
    })
    expect(kept.text).not.toContain('0.123456')
    // Another member's export holds none of it.
    const { data: annData } = await exportOf(annCookie)
    expect(annData.age_assurance).toEqual({ result: null, requests: [] })
    expect(annData.photo_verification).toEqual({
      verified_at: null,
      face_descriptor: null,
      requests: [],
    })
  })

  it('holds only the member’s own data: nothing of conversations and likes between others', async () => {
    const { data, text } = await exportOf(bobCookie)
    expect(data.account.id).toBe(bob.id)
    expect(data.conversations).toHaveLength(2)
    const { text: annText } = await exportOf(annCookie)
    for (const other of ['Bob to Cat: private', 'Cat to Bob: private too'])
      expect(annText).not.toContain(other)
    expect(text).not.toContain(ann.email)
    expect(text).not.toContain('SECRET-AUTH')
    expect(data.reports_made).toEqual([])
    // Another member's id in the query changes nothing: there is no such parameter.
    const res = await send(app, `/api/account_export.php?id=${ann.id}`, { cookie: bobCookie })
    expect(JSON.parse(await res.text()).account.id).toBe(bob.id)
  })

  it('needs a member session and is rate-limited per member', async () => {
    expect((await send(app, '/api/account_export.php')).status).toBe(403)
    const m = await addMember(t.db)
    const cookie = await login(app, m.email, TEST_PASSWORD)
    for (let i = 0; i < EXPORTS_PER_HOUR; i++)
      expect((await send(app, '/api/account_export.php', { cookie })).status).toBe(200)
    const limited = await send(app, '/api/account_export.php', { cookie })
    expect(limited.status).toBe(429)
  })

  it('exports a member’s file for support staff with a reason, audited; other roles get 403', async () => {
    const support = await staffSession(app, t.db, ['support'])
    const path = `/api/operator/member_export.php?id=${ann.id}`
    const noReason = await send(app, path, { cookie: support.cookie })
    expect(noReason.status).toBe(400)
    expect((await noReason.json()).field).toBe('reason')
    const res = await send(app, `${path}&reason=${encodeURIComponent('Art. 15 request by mail')}`, {
      cookie: support.cookie,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="member-${ann.id}-data.json"`,
    )
    const data = (await res.json()) as Doc
    expect(data.account.email).toBe(ann.email)
    expect(data.conversations).toHaveLength(1)
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.export'), eq(auditLog.targetId, String(ann.id))))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ staffId: support.id, reason: 'Art. 15 request by mail' })
    const finance = await staffSession(app, t.db, ['finance'])
    expect(
      (await send(app, `${path}&reason=x`, { cookie: finance.cookie })).status,
      'finance lacks members.data',
    ).toBe(403)
  })

  it('deletes an account on request like the member’s own deletion, audited', async () => {
    const support = await staffSession(app, t.db, ['support'])
    const m = await addMember(t.db)
    const cookie = await login(app, m.email, TEST_PASSWORD)
    await t.db.insert(likes).values({ likerId: m.id, likedId: bob.id })
    const del = (body: Record<string, unknown>) =>
      send(app, '/api/operator/member_delete.php', {
        method: 'POST',
        body,
        cookie: support.cookie,
      })
    expect((await del({ member_id: m.id })).status).toBe(400)
    const res = await del({ member_id: m.id, reason: 'asked by mail to delete' })
    expect(res.status).toBe(200)
    // Signed out everywhere, cannot sign in, the address reads as deleted, likes gone.
    expect((await send(app, '/api/user.php', { cookie })).status).toBe(403)
    const again = await send(app, '/api/login.php', {
      method: 'POST',
      body: { email: m.email, password: TEST_PASSWORD },
    })
    expect(again.status).not.toBe(200)
    expect(await t.db.select().from(sessions).where(eq(sessions.memberId, m.id))).toEqual([])
    expect(await t.db.select().from(likes).where(eq(likes.likerId, m.id))).toEqual([])
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.delete'), eq(auditLog.targetId, String(m.id))))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ staffId: support.id, reason: 'asked by mail to delete' })
    expect((await del({ member_id: 999_999_999, reason: 'x' })).status).toBe(404)
  })
})
