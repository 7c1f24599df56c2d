// Photo pre-moderation and removed photos' files, on both databases. With
// the site's photo_premoderation setting on (per host), a new photo is
// pending: its owner sees it marked, nobody else sees it anywhere (profile,
// lander cards, the main picture), it waits in the one moderation queue with
// its profile, and a moderator approves it (visible, main if none) or
// rejects it (removed, statement of reasons, appealable); both audited.
// Whenever a photo goes (rejection, a moderator's removal, the member's own
// delete, account deletion by the member or by staff) its files leave the
// media directory after the commit; the media.delete job deletes what a
// request left behind, and nothing outside the directory. Without
// pre-moderation a new photo is shown to members at once but to no guest
// (profile, search, the home's showcase, landers) until a moderator
// reviewed it from the same queue.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  auditLog,
  images,
  jobs,
  mails,
  members,
  reports,
  sanctions,
  siteSettings,
} from '../../db/schema/index.ts'
import {
  LanderMembersResponse,
  ProfileImagesResponse,
  ProfileResponse,
  User,
} from '../contract/index.ts'
import { QueueItemDetail, QueueResponse } from '../contract/operator/moderation.ts'
import { MEDIA_DELETE_JOB, mediaJobHandlers } from '../images/media.ts'
import { diskStore } from '../images/storage.ts'
import { createJobRunner, enqueue } from '../jobs/queue.ts'
import { type AccountsApi, accountsApi } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

/** The host whose site pre-moderates photos; any other host does not. */
const REVIEWED = 'http://pm.example'
/** A host whose site lets guests search (and does not pre-moderate photos). */
const OPEN = 'http://open.example'

describeEngines('photo pre-moderation and removed files on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let mediaDir: string
  let jpeg: Buffer
  let serial = 0
  let mod: { id: number; cookie: string }

  beforeAll(async () => {
    t = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-photo-review-'))
    api = accountsApi(t.db, { mediaDir, siteHosts: ['pm.example', 'open.example', 'localhost'] })
    await t.db.insert(siteSettings).values({
      key: 'sites',
      value: {
        'pm.example': { photo_premoderation: true },
        'open.example': { logged_out_search: 'all' },
      },
    })
    jpeg = await sharp({
      create: { width: 300, height: 300, channels: 3, background: '#3949ab' },
    })
      .jpeg()
      .toBuffer()
    mod = await staffSession(api.app, t.db, ['moderator'])
  })
  afterAll(async () => {
    await api?.mailer.idle()
    await t?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  const member = (over: Partial<MemberRow> = {}) =>
    addMember(t.db, {
      email: `pr-${engine}-${++serial}@example.com`,
      name: `Pat ${serial}`,
      ...over,
    })

  async function signedIn(base = BASE) {
    const m = await member()
    return { m, cookie: await login(api.app, m.email, TEST_PASSWORD, base) }
  }

  async function upload(cookie: string, base = BASE) {
    const form = new FormData()
    form.append('file', new File([new Uint8Array(jpeg)], 'me.jpg', { type: 'image/jpeg' }))
    const url = new URL('/api/profileimage.php', base)
    const res = await api.app.request(url.href, {
      method: 'POST',
      body: form,
      headers: { host: url.host, origin: url.origin, cookie },
    })
    expect(res.status).toBe(200)
    return ProfileImagesResponse.parse(await res.json())
  }

  const filesOf = (thumb: string) => [thumb, thumb.replace('_t.jpg', '.jpg')]
  const onDisk = async () => new Set(await readdir(mediaDir))
  const decide = (body: Record<string, unknown>) =>
    send(api.app, '/api/operator/decide.php', { method: 'POST', cookie: mod.cookie, body })
  const profileAs = async (viewer: string, id: number) =>
    ProfileResponse.parse(
      await (await send(api.app, `/api/profile.php?id=${id}`, { cookie: viewer })).json(),
    ).profile
  const auditOf = (action: string, targetId: number) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))))

  it('stores photos as visible where the site does not pre-moderate', async () => {
    const { cookie } = await signedIn()
    const mine = await upload(cookie)
    expect(mine.images.map((i) => i.pending)).toEqual([undefined])
    expect(mine.main_image?.id).toBe(mine.images[0]?.id)
  })

  it('without pre-moderation, shows a new photo to members at once and to guests only once a moderator reviewed it', async () => {
    // The most recently active member: first in a guest's search and the showcase.
    const m = await member({ lastActiveAt: new Date() })
    const cookie = await login(api.app, m.email, TEST_PASSWORD)
    const photo = (await upload(cookie)).images[0]!
    const thumb = photo.thumb_filename
    const [row] = await t.db.select().from(images).where(eq(images.id, photo.id))
    expect([row?.status, row?.reviewed]).toEqual(['approved', false])
    /** Every answer a logged-out visitor (or a search engine, a prerendered page) gets. */
    const guestAnswers = async () => {
      const answers = await Promise.all([
        send(api.app, `/api/profile.php?id=${m.id}`),
        send(api.app, '/api/search.php', { base: OPEN }),
        send(api.app, '/api/showcase.php'),
        send(api.app, `/api/lander_members.php?member=${m.id}`),
        send(api.app, '/api/lander_members.php'),
      ])
      for (const a of answers) expect(a.status).toBe(200)
      return Promise.all(answers.map((a) => a.text()))
    }
    for (const body of await guestAnswers()) expect(body).not.toContain(thumb)
    const guestProfile = ProfileResponse.parse(
      await (await send(api.app, `/api/profile.php?id=${m.id}`)).json(),
    ).profile
    expect([guestProfile.images, guestProfile.main_image]).toEqual([[], null])
    // A member who is logged in sees it at once, as the main picture.
    const other = await signedIn()
    const seen = await profileAs(other.cookie, m.id)
    expect(seen.images).toEqual([{ id: photo.id, thumb_filename: thumb }])
    expect(seen.main_image).toEqual({ thumb_filename: thumb })
    // It waits in the moderation queue (post-moderation).
    const list = QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })).json(),
    )
    expect(list.items).toContainEqual(
      expect.objectContaining({ type: 'photo', id: photo.id, member: m.id }),
    )
    const ok = await decide({ type: 'photo', id: photo.id, action: 'approve', reason: 'fine' })
    expect(ok.status).toBe(200)
    const [after] = await t.db.select().from(images).where(eq(images.id, photo.id))
    expect([after?.status, after?.reviewed]).toEqual(['approved', true])
    for (const body of await guestAnswers()) expect(body).toContain(thumb)
    const again = await decide({ type: 'photo', id: photo.id, action: 'approve', reason: 'fine' })
    expect([again.status, (await again.json()).error]).toEqual([409, 'already_decided'])
  })

  it('holds a new photo as pending: only its owner sees it, marked; nobody else anywhere', async () => {
    const { m, cookie } = await signedIn(REVIEWED)
    const mine = await upload(cookie, REVIEWED)
    const [photo] = mine.images
    expect(photo?.pending).toBe(true)
    expect(mine.main_image).toBeNull()
    const user = User.parse(
      await (await send(api.app, '/api/user.php', { cookie, base: REVIEWED })).json(),
    )
    expect(user.profile.images).toEqual([photo])
    expect(user.main_image).toBeNull()
    // It cannot be made the main picture (others would see it) before approval.
    const main = await send(api.app, '/api/profileimage.php', {
      method: 'PUT',
      cookie,
      base: REVIEWED,
      body: { id: photo?.id },
    })
    expect([main.status, (await main.json()).error]).toEqual([409, 'photo_pending'])
    const other = await signedIn()
    const seen = await profileAs(other.cookie, m.id)
    expect([seen.images, seen.main_image]).toEqual([[], null])
    const lander = LanderMembersResponse.parse(
      await (await send(api.app, `/api/lander_members.php?member=${m.id}`)).json(),
    )
    expect(lander.member).toBeNull()
    expect(JSON.stringify(lander)).not.toContain(photo?.thumb_filename)
    // The files exist: the owner's own page shows the picture.
    for (const f of filesOf(photo?.thumb_filename ?? '')) expect(await onDisk()).toContain(f)
  })

  it('puts the pending photo in the one queue with its profile; approving shows it to everyone, audited, once', async () => {
    const { m, cookie } = await signedIn(REVIEWED)
    const photo = (await upload(cookie, REVIEWED)).images[0]!
    const list = QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })).json(),
    )
    expect(list.items).toContainEqual(
      expect.objectContaining({ type: 'photo', id: photo.id, member: m.id, overdue: false }),
    )
    const detail = QueueItemDetail.parse(
      await (
        await send(api.app, `/api/operator/queue_item.php?type=photo&id=${photo.id}`, {
          cookie: mod.cookie,
        })
      ).json(),
    )
    expect(detail.photo).toEqual({
      id: photo.id,
      url: `/media/${photo.thumb_filename.replace('_t.jpg', '.jpg')}`,
      thumb_url: `/media/${photo.thumb_filename}`,
      match: null,
      face_match: null,
    })
    expect(detail.profile?.photos).toEqual([
      { id: photo.id, url: `/media/${photo.thumb_filename}`, main: false, pending: true },
    ])
    expect(detail.decision).toBeNull()
    // A photo is approved or rejected, nothing else; those actions are for photos only.
    const warn = await decide({ type: 'photo', id: photo.id, action: 'warn', reason: 'x' })
    expect([warn.status, (await warn.json()).field]).toEqual([400, 'action'])
    const ok = await decide({ type: 'photo', id: photo.id, action: 'approve', reason: 'fine' })
    expect(ok.status).toBe(200)
    const again = await decide({ type: 'photo', id: photo.id, action: 'approve', reason: 'fine' })
    expect([again.status, (await again.json()).error]).toEqual([409, 'already_decided'])
    const other = await signedIn()
    const seen = await profileAs(other.cookie, m.id)
    expect(seen.images).toEqual([{ id: photo.id, thumb_filename: photo.thumb_filename }])
    expect(seen.main_image).toEqual({ thumb_filename: photo.thumb_filename })
    const after = QueueResponse.parse(
      await (await send(api.app, '/api/operator/queue.php', { cookie: mod.cookie })).json(),
    )
    expect(after.items.some((i) => i.type === 'photo' && i.id === photo.id)).toBe(false)
    const [row] = await auditOf('moderation.approve_photo', photo.id)
    expect(row).toMatchObject({ staffId: mod.id, targetType: 'photo', reason: 'fine' })
    expect(row?.details).toMatchObject({ member: m.id, sanction: null })
  })

  it('rejecting removes the photo and its files, sends a statement of reasons the member can appeal, audited', async () => {
    const { m, cookie } = await signedIn(REVIEWED)
    const photo = (await upload(cookie, REVIEWED)).images[0]!
    const noRule = await decide({ type: 'photo', id: photo.id, action: 'reject', reason: 'nude' })
    expect([noRule.status, (await noRule.json()).field]).toEqual([400, 'rule'])
    const res = await send(api.app, '/api/operator/decide.php', {
      method: 'POST',
      cookie: mod.cookie,
      base: REVIEWED,
      body: {
        type: 'photo',
        id: photo.id,
        action: 'reject',
        rule: 'explicit_content',
        reason: 'Nudity is not allowed in profile photos.',
      },
    })
    expect(res.status).toBe(200)
    expect(await t.db.select().from(images).where(eq(images.id, photo.id))).toEqual([])
    const disk = await onDisk()
    for (const f of filesOf(photo.thumb_filename)) expect(disk.has(f)).toBe(false)
    const [sanction] = await t.db.select().from(sanctions).where(eq(sanctions.memberId, m.id))
    expect(sanction).toMatchObject({
      kind: 'remove_photo',
      rule: 'explicit_content',
      itemType: 'photo',
      itemId: photo.id,
    })
    const [mail] = await t.db.select().from(mails).where(eq(mails.to, m.email))
    expect(mail?.kind).toBe('statement_of_reasons')
    expect(mail?.text).toContain('/appeal?token=')
    const [row] = await auditOf('moderation.reject_photo', photo.id)
    expect(row?.details).toMatchObject({ member: m.id, rule: 'explicit_content' })
    expect(row?.details.sanction).toBe(sanction?.id)
  })

  it("deletes the files of a photo a moderator removes on a report, and of the member's own delete", async () => {
    const reporter = await member()
    const { m, cookie } = await signedIn()
    const a = (await upload(cookie)).images[0]
    const b = (await upload(cookie)).images[1]
    const [report] = await t.db
      .insert(reports)
      .values({ reporterId: reporter.id, reportedId: m.id, reason: 'fake', text: 'stolen photo' })
      .returning()
    const res = await decide({
      type: 'report',
      id: report!.id,
      action: 'remove_photo',
      rule: 'fake_profile',
      reason: 'A stolen photo.',
      photo: a!.id,
    })
    expect(res.status).toBe(200)
    for (const f of filesOf(a!.thumb_filename)) expect((await onDisk()).has(f)).toBe(false)
    const own = await send(api.app, '/api/profileimage.php', {
      method: 'DELETE',
      cookie,
      body: { id: b!.id },
    })
    expect(own.status).toBe(200)
    for (const f of filesOf(b!.thumb_filename)) expect((await onDisk()).has(f)).toBe(false)
  })

  it('deletes every picture of an account deleted by its member or by staff, rows and files', async () => {
    const self = await signedIn()
    const mine = await upload(self.cookie)
    const gone = await send(api.app, '/api/user.php', {
      method: 'DELETE',
      cookie: self.cookie,
      body: { password: TEST_PASSWORD },
    })
    expect(gone.status).toBe(200)
    const other = await signedIn()
    const theirs = await upload(other.cookie)
    const admin = await staffSession(api.app, t.db, ['support'])
    const byStaff = await send(api.app, '/api/operator/member_delete.php', {
      method: 'POST',
      cookie: admin.cookie,
      body: { member_id: other.m.id, reason: 'The member asked by mail.' },
    })
    expect(byStaff.status).toBe(200)
    for (const who of [self.m, other.m]) {
      expect(await t.db.select().from(images).where(eq(images.memberId, who.id))).toEqual([])
      const [row] = await t.db
        .select({ main: members.mainImageId })
        .from(members)
        .where(eq(members.id, who.id))
      expect(row?.main).toBeNull()
    }
    const disk = await onDisk()
    for (const img of [...mine.images, ...theirs.images])
      for (const f of filesOf(img.thumb_filename)) expect(disk.has(f)).toBe(false)
  })

  it('the media.delete job deletes files a request left behind, and nothing outside the media directory', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'api-photo-outside-'))
    await writeFile(join(outside, 'keep.jpg'), 'x')
    await writeFile(join(mediaDir, 'left_t.jpg'), 'x')
    await writeFile(join(mediaDir, 'left.jpg'), 'x')
    await t.db.delete(jobs)
    await enqueue(t.db, {
      kind: MEDIA_DELETE_JOB,
      payload: { files: ['left.jpg', 'left_t.jpg', 'gone-already.jpg', `../${outside}/keep.jpg`] },
    })
    const runner = createJobRunner({ db: t.db, handlers: mediaJobHandlers(diskStore(mediaDir)) })
    expect(await runner.runDue()).toBe(1)
    const disk = await onDisk()
    expect([disk.has('left.jpg'), disk.has('left_t.jpg')]).toEqual([false, false])
    expect(await readdir(outside)).toEqual(['keep.jpg'])
    const [job] = await t.db.select().from(jobs).orderBy(asc(jobs.id))
    expect(job?.status).toBe('done')
    await rm(outside, { recursive: true, force: true })
  })
})
