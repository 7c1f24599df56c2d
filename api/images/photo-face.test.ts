// The same face on another account (docs/trust.md): a new profile photo whose
// face is the one kept for a consenting verified member of another account
// goes to the moderation queue naming that account (a banned account's
// first, and then the photo is hidden); another face or no face puts nothing
// there; the photo's own descriptor is never stored; with face_match off no
// face is read. The faces are cut from a picture the @vladmandic/human
// package ships (api/test/sample-faces.ts).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  faceDescriptors,
  images,
  jobs as jobRows,
  members,
  sanctions,
  siteSettings,
} from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ProfileImagesResponse } from '../contract/index.ts'
import { QueueItemDetail, QueueResponse } from '../contract/operator/moderation.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { forgetOperatorSettings } from '../settings/index.ts'
import { fakeDns } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { sampleFace } from '../test/sample-faces.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'
import { scaled } from '../test/time-scale.ts'
import { readFace } from '../verification/face-match.ts'
import { type FaceMatch, photoFaceJobHandlers } from './face.ts'
import { PHOTO_FACE_JOB } from './images.ts'
import { diskStore } from './storage.ts'

/** A man (grid cell 0,14) and a woman (2,1); the profile photo is a resized, re-encoded copy. */
const MAN = [0, 14] as const
const WOMAN = [2, 1] as const
const AUGMENTED = { scale: 0.7, brightness: 1.2, quality: 60 }
/** Inference takes seconds a picture on a small, busy machine. */
const INFERENCE = scaled(180_000)

describeEngines('the same face on another account on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let jobs: JobRunner
  let mediaDir: string
  let moderator: Awaited<ReturnType<typeof staffSession>>
  let manFace: number[]
  /** A consenting verified member whose kept face is the man's. */
  let keeper: MemberRow

  beforeAll(async () => {
    t = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-photo-face-'))
    jobs = createJobRunner({ db: t.db, handlers: {} })
    app = createApi({
      db: t.db,
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: true,
        publicUrl: BASE,
        lookupHost: fakeDns,
      },
      mediaDir,
      jobs,
    })
    moderator = await staffSession(app, t.db, ['moderator'])
    const reading = await readFace(await sampleFace(...MAN))
    if (!reading.descriptor) throw new Error('no face')
    manFace = reading.descriptor
    keeper = await addMember(t.db, { verifiedAt: new Date() })
    await t.db.insert(faceDescriptors).values({ memberId: keeper.id, descriptor: manFace })
  }, INFERENCE)
  afterAll(async () => {
    await jobs?.stop()
    await t?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  async function setFaceMatch(value: 'auto' | 'assist' | 'off') {
    await t.db
      .insert(siteSettings)
      .values({ key: 'face_match', value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value } })
    forgetOperatorSettings(t.db)
  }

  const member = async (spec: Parameters<typeof addMember>[1] = {}) => {
    const row = await addMember(t.db, spec)
    return { row, cookie: await login(app, row.email, TEST_PASSWORD) }
  }

  /** Uploads one picture as the member and lets the jobs run; the stored picture. */
  const upload = async (as: { cookie: string }, bytes: Buffer) => {
    const form = new FormData()
    form.append('file', new File([new Uint8Array(bytes)], 'me.jpg', { type: 'image/jpeg' }))
    const res = await app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { origin: BASE, cookie: as.cookie },
    })
    expect(res.status).toBe(200)
    const { images: list } = ProfileImagesResponse.parse(await res.json())
    await jobs.idle()
    await jobs.runDue()
    const newest = list.at(-1)
    if (!newest) throw new Error('no picture stored')
    return newest
  }

  const queueEntry = async (photoId: number) => {
    const res = await send(app, '/api/operator/queue.php', { cookie: moderator.cookie })
    expect(res.status).toBe(200)
    const { items } = QueueResponse.parse(await res.json())
    return items.find((i) => i.type === 'photo' && i.id === photoId)
  }

  const queueItem = async (photoId: number) => {
    const res = await send(app, `/api/operator/queue_item.php?type=photo&id=${photoId}`, {
      cookie: moderator.cookie,
    })
    expect(res.status).toBe(200)
    return QueueItemDetail.parse(await res.json())
  }

  const keptFaces = async () =>
    (await t.db.select({ id: faceDescriptors.memberId }).from(faceDescriptors)).map((r) => r.id)

  const imageRow = async (id: number) =>
    (await t.db.select().from(images).where(eq(images.id, id)))[0]

  it(
    "a photo of the face kept for another account is queued naming that account; the photo's descriptor is not kept",
    async () => {
      await setFaceMatch('assist')
      const b = await member()
      const photo = await upload(b, await sampleFace(...MAN, AUGMENTED))
      expect((await queueEntry(photo.id))?.summary).toBe(`same_face:${keeper.id}`)
      const detail = await queueItem(photo.id)
      // Both accounts: the uploader's profile, the account whose face it is.
      expect(detail.profile?.id).toBe(b.row.id)
      expect(detail.photo?.face_match).toMatchObject({ member: keeper.id, banned: false })
      expect(detail.photo?.face_match?.similarity).toBeGreaterThanOrEqual(0.7)
      // Flagged, not hidden: the account in good standing may be a look-alike.
      expect((await imageRow(photo.id))?.status).toBe('approved')
      expect(await keptFaces()).toEqual([keeper.id])
    },
    INFERENCE,
  )

  it(
    'a photo of another face puts no face match in the queue',
    async () => {
      const b = await member()
      const photo = await upload(b, await sampleFace(...WOMAN, AUGMENTED))
      expect((await queueEntry(photo.id))?.summary).toBe('photo')
      expect((await queueItem(photo.id)).photo?.face_match).toBeNull()
      expect((await imageRow(photo.id))?.faceMatchMemberId).toBeNull()
    },
    INFERENCE,
  )

  it(
    'a photo with no face puts no face match in the queue',
    async () => {
      const b = await member()
      const landscape = await sharp({
        create: { width: 400, height: 300, channels: 3, background: '#3a7bd5' },
      })
        .composite([
          {
            input: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect y="200" width="400" height="100" fill="#2e7d32"/><circle cx="320" cy="60" r="30" fill="#ffeb3b"/></svg>',
            ),
          },
        ])
        .jpeg()
        .toBuffer()
      const photo = await upload(b, landscape)
      expect((await queueEntry(photo.id))?.summary).toBe('photo')
      expect((await imageRow(photo.id))?.faceMatchMemberId).toBeNull()
    },
    INFERENCE,
  )

  it(
    "the member's own kept face is no match",
    async () => {
      const own = { row: keeper, cookie: await login(app, keeper.email, TEST_PASSWORD) }
      const photo = await upload(own, await sampleFace(...MAN, AUGMENTED))
      expect((await imageRow(photo.id))?.faceMatchMemberId).toBeNull()
    },
    INFERENCE,
  )

  it(
    'face_match off: no face is read, no check is queued',
    async () => {
      await setFaceMatch('off')
      const before = await t.db.select().from(jobRows).where(eq(jobRows.kind, PHOTO_FACE_JOB))
      const b = await member()
      // Another photo of the face than the ones uploaded before (not the same photo: api/images/match.ts).
      const bordered = await sharp(await sampleFace(...MAN))
        .extend({ left: 160, background: '#204080' })
        .jpeg()
        .toBuffer()
      const photo = await upload(b, bordered)
      const after = await t.db.select().from(jobRows).where(eq(jobRows.kind, PHOTO_FACE_JOB))
      expect(after.length).toBe(before.length)
      expect((await queueEntry(photo.id))?.summary).toBe('photo')
      await setFaceMatch('assist')
    },
    INFERENCE,
  )

  it(
    "a banned account's face comes first, and the photo is hidden until a moderator decides",
    async () => {
      const alike = (await readFace(await sampleFace(...MAN, AUGMENTED))).descriptor
      if (!alike) throw new Error('no face')
      const banned = await addMember(t.db, { verifiedAt: new Date() })
      await t.db.insert(faceDescriptors).values({ memberId: banned.id, descriptor: alike })
      await t.db.insert(sanctions).values({
        memberId: banned.id,
        kind: 'ban',
        rule: 'scam',
        reason: 'Ban evasion test.',
        staffId: moderator.id,
        appealTokenHash: `photo-face-${banned.id}`,
      })
      const b = await member()
      // Its first picture: the main one, until the check hides it. Mirrored:
      // another photo of the face than the ones uploaded before.
      const photo = await upload(b, await sampleFace(...MAN, { mirror: true }))
      expect((await queueEntry(photo.id))?.summary).toBe(`same_face:${banned.id}`)
      expect((await queueItem(photo.id)).photo?.face_match).toMatchObject({
        member: banned.id,
        banned: true,
      })
      expect((await imageRow(photo.id))?.status).toBe('pending')
      const [row] = await t.db.select().from(members).where(eq(members.id, b.row.id))
      expect(row?.mainImageId).toBeNull()
    },
    INFERENCE,
  )

  it('a photo a moderator saw before the check is back in the queue when it matches', async () => {
    const b = await member()
    const [img] = await t.db
      .insert(images)
      .values({
        memberId: b.row.id,
        filename: 'face-seen.jpg',
        thumbFilename: 'face-seen_t.jpg',
        reviewed: true,
      })
      .returning()
    if (!img) throw new Error('no row')
    const store = diskStore(mediaDir)
    await store.put(img.filename, await sampleFace(...MAN), 'image/jpeg')
    // A stand-in check: the rule here is what the job does with a match.
    const match: FaceMatch = { member: keeper.id, similarity: 0.9, banned: false }
    const handlers = photoFaceJobHandlers(t.db, store, async (_, picture) =>
      (await picture()) ? match : null,
    )
    await handlers[PHOTO_FACE_JOB]?.({ ids: [img.id] }, {} as never)
    expect(await imageRow(img.id)).toMatchObject({
      reviewed: false,
      status: 'approved',
      faceMatchMemberId: keeper.id,
      faceMatchScore: 0.9,
    })
    expect((await queueEntry(img.id))?.summary).toBe(`same_face:${keeper.id}`)
  })
})
