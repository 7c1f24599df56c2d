// Photo verification on both databases: a member starts a request and gets
// a pose, sends a selfie (checked like any picture, stored privately: never
// served by /media, GET or HEAD), it waits in the moderation queue beside
// the member's photos, and a moderator approves it (the member is verified:
// `verified` in search and profile answers, `verified=1` finds them) or
// refuses it with a statement of reasons mailed in the member's language.
// Either way the selfie file is deleted at the decision. A member who takes
// first messages only from verified members gets none from anyone else
// (403 verified_only, nothing stored or charged, the same on a replay).
import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, mails, members, messages } from '../../db/schema/index.ts'
import {
  PrivacySettings,
  ProfileResponse,
  SearchResponse,
  VERIFICATION_POSES,
  VerificationStatus,
} from '../contract/index.ts'
import { QueueItemDetail, QueueResponse } from '../contract/operator/moderation.ts'
import { balanceOf, credit } from '../credits/index.ts'
import { servePictures } from '../images/serve.ts'
import { diskStore } from '../images/storage.ts'
import { type AccountsApi, accountsApi } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

const DAY = 86_400_000
/** The age the test's members have, so a search finds only them. */
const AGE = 77

describeEngines('photo verification on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let mediaDir: string
  let jpeg: Buffer
  let mod: { id: number; cookie: string }

  beforeAll(async () => {
    t = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-verification-'))
    api = accountsApi(t.db, { mediaDir, publicUrl: BASE })
    jpeg = await sharp({ create: { width: 400, height: 500, channels: 3, background: '#c0ffee' } })
      .jpeg()
      .toBuffer()
    mod = await staffSession(api.app, t.db, ['moderator'])
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await t?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  async function signedIn(over: Partial<MemberRow> = {}) {
    const m = await addMember(t.db, {
      age: AGE,
      signupDate: new Date(Date.now() - 30 * DAY),
      ...over,
    })
    return { m, cookie: await login(api.app, m.email, TEST_PASSWORD) }
  }

  const status = async (res: Response) => {
    expect(res.status).toBe(200)
    return VerificationStatus.parse(await res.json())
  }
  const start = (cookie: string) =>
    send(api.app, '/api/verification.php', { method: 'POST', cookie, body: {} })
  function upload(cookie: string, bytes: Uint8Array = jpeg) {
    const form = new FormData()
    form.append('file', new File([new Uint8Array(bytes)], 'selfie.jpg', { type: 'image/jpeg' }))
    return api.app.request(new URL('/api/verification_selfie.php', BASE).href, {
      method: 'POST',
      body: form,
      headers: { origin: BASE, cookie },
    })
  }
  const selfies = async () => (await readdir(mediaDir)).filter((f) => f.startsWith('selfie-'))
  const decide = (body: Record<string, unknown>) =>
    send(api.app, '/api/operator/decide.php', { method: 'POST', cookie: mod.cookie, body })
  const queueItem = async (id: number) => {
    const res = await send(api.app, `/api/operator/queue_item.php?type=verification&id=${id}`, {
      cookie: mod.cookie,
    })
    expect(res.status).toBe(200)
    return QueueItemDetail.parse(await res.json())
  }
  const queued = async (member: number) => {
    const res = await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })
    return QueueResponse.parse(await res.json()).items.find(
      (i) => i.type === 'verification' && i.member === member,
    )
  }
  const profileAs = async (viewer: string, id: number) =>
    ProfileResponse.parse(
      await (await send(api.app, `/api/profile.php?id=${id}`, { cookie: viewer })).json(),
    ).profile
  const search = (cookie: string, extra = '') =>
    send(api.app, `/api/search.php?gender=female&min_age=${AGE}&max_age=${AGE}${extra}`, {
      cookie,
    })

  /** A member with a selfie waiting, and its queue item's id. */
  async function pending() {
    const member = await signedIn()
    const form = new FormData()
    form.append('file', new File([new Uint8Array(jpeg)], 'me.jpg', { type: 'image/jpeg' }))
    const photo = await api.app.request(new URL('/api/profileimage.php', BASE).href, {
      method: 'POST',
      body: form,
      headers: { origin: BASE, cookie: member.cookie },
    })
    expect(photo.status).toBe(200)
    await status(await start(member.cookie))
    const sent = await status(await upload(member.cookie))
    expect(sent.state).toBe('pending')
    const item = await queued(member.m.id)
    if (!item) throw new Error('the selfie is not in the queue')
    return { ...member, item }
  }

  it('starts a request with a pose of the fixed list; a second start shows the same pose', async () => {
    const { cookie } = await signedIn()
    expect(await status(await send(api.app, '/api/verification.php', { cookie }))).toEqual({
      verified: false,
      state: 'none',
      pose: null,
      turn: null,
      reason: null,
      face_consent: false,
    })
    const first = await status(await start(cookie))
    expect(first.state).toBe('started')
    expect(VERIFICATION_POSES).toContain(first.pose)
    expect(VERIFICATION_POSES).toEqual([
      'hand_on_head',
      'thumb_up',
      'peace_sign',
      'hand_on_chin',
      'point_up',
    ])
    expect((await status(await start(cookie))).pose).toBe(first.pose)
    const anonymous = await send(api.app, '/api/verification.php')
    expect(anonymous.status).toBe(403)
  })

  it('refuses a selfie before a start (409), a body that is no picture (400 file) and a start with fields (400)', async () => {
    const { cookie } = await signedIn()
    const early = await upload(cookie)
    expect([early.status, (await early.json()).error]).toEqual([409, 'no_verification'])
    await status(await start(cookie))
    const bad = await upload(cookie, new TextEncoder().encode('not a picture'))
    expect(bad.status).toBe(400)
    expect((await bad.json()).field).toBe('file')
    const json = await send(api.app, '/api/verification_selfie.php', {
      method: 'POST',
      cookie,
      body: { file: 'x' },
    })
    expect(json.status).toBeGreaterThanOrEqual(400)
    expect(json.status).toBeLessThan(500)
    const extra = await send(api.app, '/api/verification.php', {
      method: 'POST',
      cookie,
      body: { pose: 'thumb_up' },
    })
    expect(extra.status).toBe(400)
    expect((await status(await send(api.app, '/api/verification.php', { cookie }))).state).toBe(
      'started',
    )
    expect(await selfies()).toEqual([])
  })

  it('keeps the selfie private: /media answers GET and HEAD with 404; staff see it in the queue item beside the photos', async () => {
    const { m, cookie, item } = await pending()
    const [name] = await selfies()
    expect(name).toMatch(/^selfie-[0-9a-f]{24}\.jpg$/)
    // /media as the server mounts it (api/server.ts): the same store, no session needed.
    const media = new Hono().use('/media/*', servePictures(diskStore(mediaDir)))
    for (const method of ['GET', 'HEAD'] as const) {
      for (const who of [cookie, mod.cookie, undefined]) {
        const res = await media.request(`/media/${name}`, {
          method,
          headers: who ? { cookie: who } : {},
        })
        expect(res.status).toBe(404)
      }
      // A profile picture of the same store is served: the 404 is the selfie's own.
      const photo = (await readdir(mediaDir)).find((f) => !f.startsWith('selfie-'))
      if (photo) expect((await media.request(`/media/${photo}`, { method })).status).toBe(200)
    }
    // A second selfie while one waits: 409, the first stays.
    const again = await upload(cookie)
    expect([again.status, (await again.json()).error]).toEqual([409, 'verification_pending'])
    const start2 = await start(cookie)
    expect([start2.status, (await start2.json()).error]).toEqual([409, 'verification_pending'])
    const detail = await queueItem(item.id)
    expect(detail.item.member).toBe(m.id)
    expect(detail.profile?.id).toBe(m.id)
    expect(detail.profile?.photos).toHaveLength(1)
    expect(detail.verification?.selfie).toMatch(/^data:image\/jpeg;base64,/)
    expect(VERIFICATION_POSES).toContain(detail.verification?.pose)
    // A member's session does not reach the console.
    const asMember = await send(
      api.app,
      `/api/operator/queue_item.php?type=verification&id=${item.id}`,
      {
        cookie,
      },
    )
    expect(asMember.status).toBe(404)
    // Decided, to leave no selfie behind for the next test.
    expect(
      (await decide({ type: 'verification', id: item.id, action: 'approve', reason: 'ok' })).status,
    ).toBe(200)
  })

  it('approves: the member is verified in profile and search answers, verified=1 finds them, the selfie is deleted', async () => {
    const { m, cookie, item } = await pending()
    const viewer = await signedIn({ gender: 'male' })
    expect((await profileAs(viewer.cookie, m.id)).verified).toBe(false)
    const before = SearchResponse.parse(await (await search(viewer.cookie, '&verified=1')).json())
    expect(before.profiles.map((p) => p.id)).not.toContain(m.id)
    const res = await decide({
      type: 'verification',
      id: item.id,
      action: 'approve',
      reason: 'Same person, pose taken',
    })
    expect(res.status).toBe(200)
    expect(await selfies()).toEqual([])
    expect((await profileAs(viewer.cookie, m.id)).verified).toBe(true)
    const found = SearchResponse.parse(await (await search(viewer.cookie, '&verified=1')).json())
    expect(found.profiles.map((p) => p.id)).toContain(m.id)
    expect(found.profiles.every((p) => p.verified === true)).toBe(true)
    expect(found.filters.verified).toBe(true)
    const everyone = SearchResponse.parse(await (await search(viewer.cookie, '&verified=0')).json())
    expect(everyone.profiles.every((p) => typeof p.verified === 'boolean')).toBe(true)
    expect(everyone.profiles.some((p) => !p.verified)).toBe(true)
    expect(await status(await send(api.app, '/api/verification.php', { cookie }))).toMatchObject({
      verified: true,
      state: 'approved',
      pose: null,
    })
    const twice = await decide({ type: 'verification', id: item.id, action: 'reject', reason: 'x' })
    expect([twice.status, (await twice.json()).error]).toEqual([409, 'already_decided'])
    const restart = await start(cookie)
    expect([restart.status, (await restart.json()).error]).toEqual([409, 'already_verified'])
    const detail = await queueItem(item.id)
    expect(detail.decision).toBe('approve')
    expect(detail.verification?.selfie).toBeNull()
    const audited = await t.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'moderation.approve_verification'),
          eq(auditLog.targetId, String(item.id)),
        ),
      )
    expect(audited).toHaveLength(1)
  })

  it('refuses with a statement of reasons mailed in the member language; not verified; the member may start again', async () => {
    const { m, cookie, item } = await pending()
    await t.db.update(members).set({ language: 'de' }).where(eq(members.id, m.id))
    const bad = await decide({ type: 'verification', id: item.id, action: 'dismiss', reason: 'x' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).field).toBe('action')
    const empty = await decide({ type: 'verification', id: item.id, action: 'reject', reason: ' ' })
    expect(empty.status).toBe(400)
    expect((await empty.json()).field).toBe('reason')
    const res = await decide({
      type: 'verification',
      id: item.id,
      action: 'reject',
      reason: 'Face hidden by the phone',
    })
    expect(res.status).toBe(200)
    expect(await selfies()).toEqual([])
    const viewer = await signedIn({ gender: 'male' })
    expect((await profileAs(viewer.cookie, m.id)).verified).toBe(false)
    expect(await status(await send(api.app, '/api/verification.php', { cookie }))).toEqual({
      verified: false,
      state: 'refused',
      pose: null,
      turn: null,
      reason: 'Face hidden by the phone',
      face_consent: false,
    })
    const [mail] = await t.db
      .select()
      .from(mails)
      .where(and(eq(mails.memberId, m.id), eq(mails.kind, 'verification_refused')))
    expect(mail?.text).toContain('Face hidden by the phone')
    expect(mail?.subject).toContain('Fotoverifizierung')
    expect(mail?.text).toContain(`${BASE}/verify`)
    expect((await status(await start(cookie))).state).toBe('started')
  })

  it('search refuses a bad verified value with 400 naming the field', async () => {
    const { cookie } = await signedIn()
    for (const v of ['2', 'yes', '']) {
      const res = await search(cookie, `&verified=${v}`)
      expect(res.status).toBe(400)
      expect((await res.json()).field).toBe('verified')
    }
  })

  it('deletes a waiting selfie with the account', async () => {
    const { cookie } = await signedIn()
    await status(await start(cookie))
    await status(await upload(cookie))
    expect(await selfies()).toHaveLength(1)
    const res = await send(api.app, '/api/user.php', {
      method: 'DELETE',
      cookie,
      body: { password: TEST_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(await selfies()).toEqual([])
  })

  describe('first messages only from verified members', () => {
    const COST = 10
    async function sender(verified: boolean) {
      const s = await signedIn({ verifiedAt: verified ? new Date() : null })
      await t.db.transaction((tx) => credit(tx, s.m.id, 100, 'bonus', 'test'))
      return s
    }
    async function chatWith(cookie: string, other: number) {
      const res = await send(api.app, `/api/chat.php?profile=${other}`, { cookie })
      expect(res.status).toBe(200)
      return ((await res.json()) as { id: number }).id
    }
    const post = (cookie: string, conversation: number, text: string, clientId = randomUUID()) =>
      send(api.app, '/api/messages.php', {
        method: 'POST',
        cookie,
        body: { conversation, text, client_id: clientId },
      })
    const stored = (conversation: number) =>
      t.db.select().from(messages).where(eq(messages.conversationId, conversation))

    it('refuses a first message from an unverified member with 403 verified_only: nothing stored or charged, also on a replay', async () => {
      const recipient = await sender(false)
      const on = await send(api.app, '/api/privacy.php', {
        method: 'PUT',
        cookie: recipient.cookie,
        body: { verified_only: true },
      })
      expect(PrivacySettings.parse(await on.json()).verified_only).toBe(true)
      const stranger = await sender(false)
      const conversation = await chatWith(stranger.cookie, recipient.m.id)
      const id = randomUUID()
      for (let i = 0; i < 2; i++) {
        const res = await post(stranger.cookie, conversation, 'Hello there', id)
        expect(res.status).toBe(403)
        expect(await res.json()).toMatchObject({ error: 'verified_only', field: 'conversation' })
      }
      expect(await stored(conversation)).toEqual([])
      expect(await balanceOf(t.db, stranger.m.id)).toBe(100)
      // A verified member writes first; a replay of that send gets its first answer.
      const verified = await sender(true)
      const conv2 = await chatWith(verified.cookie, recipient.m.id)
      const sendId = randomUUID()
      const ok = await post(verified.cookie, conv2, 'Hello from a verified member', sendId)
      expect(ok.status).toBe(201)
      const replay = await post(verified.cookie, conv2, 'Hello from a verified member', sendId)
      expect(replay.status).toBe(200)
      expect((await replay.json()).message.id).toBe((await ok.json()).message.id)
      expect(await stored(conv2)).toHaveLength(1)
      expect(await balanceOf(t.db, verified.m.id)).toBe(100 - COST)
    })

    it('lets the member with the setting write first, and the unverified member answer', async () => {
      const picky = await sender(false)
      await send(api.app, '/api/privacy.php', {
        method: 'PUT',
        cookie: picky.cookie,
        body: { verified_only: true },
      })
      const other = await sender(false)
      const conversation = await chatWith(picky.cookie, other.m.id)
      expect((await post(picky.cookie, conversation, 'Hi!')).status).toBe(201)
      expect((await post(other.cookie, conversation, 'Hi back')).status).toBe(201)
    })

    it('refuses a bad setting value with 400 naming the field', async () => {
      const { cookie } = await sender(false)
      const res = await send(api.app, '/api/privacy.php', {
        method: 'PUT',
        cookie,
        body: { verified_only: 'yes' },
      })
      expect(res.status).toBe(400)
      expect((await res.json()).field).toBe('verified_only')
    })
  })
})
