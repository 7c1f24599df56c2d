// Face match in photo verification: the machine reads the selfie (one face,
// the head turned the way asked) and compares it with the member's approved
// photos; `face_match = auto` approves a clear match, `assist` leaves every
// request to a moderator with the scores; without the member's consent no
// face is processed; the kept descriptor goes when consent is withdrawn and
// with the account; the same face behind another account is flagged.
// The faces are cut from a picture the @vladmandic/human package ships
// (api/test/sample-faces.ts). Inference is slow on a small machine, so the
// checks are few and each reads as few pictures as it can.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  faceDescriptors,
  images,
  members,
  sanctions,
  siteSettings,
  verifications,
} from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { VerificationStatus } from '../contract/index.ts'
import { QueueItemDetail } from '../contract/operator/moderation.ts'
import { AuditResponse } from '../contract/operator/staff.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { bannedMemberSql } from '../moderation/index.ts'
import { DEFAULT_SETTINGS, forgetOperatorSettings } from '../settings/index.ts'
import { fakeDns } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { sampleFace } from '../test/sample-faces.ts'
import { addMember, pictureRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'
import { scaled } from '../test/time-scale.ts'
import { sameFace } from './face-job.ts'
import {
  AUTO_SIMILARITY,
  MIN_TURN_YAW,
  modelUrls,
  poseMatches,
  readFace,
  similarities,
  similarity,
  stopFaceWorker,
} from './face-match.ts'

/** A man looking to his own right (grid cell 0,14), a different man (0,17, frontal), a woman (2,1). */
const MAN = [0, 14] as const
const FRONTAL = [0, 17] as const
const WOMAN = [2, 1] as const
/** The same picture resized, brightened and re-encoded: a profile photo for the tests. */
const AUGMENTED = { scale: 0.7, brightness: 1.2, quality: 60 }
/** A grey picture without a face. */
const BLANK = { width: 200, height: 200, channels: 3, background: '#808080' } as const
/** Inference takes seconds a picture on a small, busy machine. */
const INFERENCE = scaled(180_000)

describe('face reading', () => {
  it('pins the thresholds: auto at 0.85 similarity, a head turned at least 0.25 rad', () => {
    expect(AUTO_SIMILARITY).toBe(0.85)
    expect(MIN_TURN_YAW).toBe(0.25)
  })

  it(
    'checks the head turn: the face passes "right", its mirror image and a frontal face do not',
    async () => {
      const face = await readFace(await sampleFace(...MAN))
      const mirror = await readFace(await sampleFace(...MAN, { mirror: true }))
      const frontal = await readFace(await sampleFace(...FRONTAL))
      expect(face.faces).toBe(1)
      expect(poseMatches('right', face.yaw)).toBe(true)
      expect(poseMatches('left', face.yaw)).toBe(false)
      expect(poseMatches('right', mirror.yaw)).toBe(false)
      expect(poseMatches('left', mirror.yaw)).toBe(true)
      expect(poseMatches('right', frontal.yaw)).toBe(false)
      expect(poseMatches('left', frontal.yaw)).toBe(false)
    },
    INFERENCE,
  )

  it(
    'an augmented copy matches above the threshold, a different face stays below',
    async () => {
      const face = await readFace(await sampleFace(...MAN))
      const copy = await readFace(await sampleFace(...MAN, AUGMENTED))
      const other = await readFace(await sampleFace(...WOMAN))
      if (!face.descriptor || !copy.descriptor || !other.descriptor) throw new Error('no face')
      expect(face.descriptor).toHaveLength(1024)
      expect(await similarity(face.descriptor, copy.descriptor)).toBeGreaterThanOrEqual(
        AUTO_SIMILARITY,
      )
      expect(await similarity(face.descriptor, other.descriptor)).toBeLessThan(AUTO_SIMILARITY)
    },
    INFERENCE,
  )

  it(
    'loads its models from the package on disk, never from the network',
    async () => {
      await readFace(await sampleFace(...WOMAN))
      const urls = await modelUrls()
      expect(urls.length).toBeGreaterThan(0)
      for (const url of urls) expect(url).toMatch(/^file:\/\/.*\/@vladmandic\/human\/models\//)
    },
    INFERENCE,
  )
})

describe('the face worker', () => {
  it(
    'reads in a worker thread: the engine is never loaded on this thread',
    async () => {
      const face = await readFace(await sampleFace(...MAN))
      expect(face.faces).toBe(1)
      const loaded = Object.keys(createRequire(import.meta.url).cache)
      expect(loaded.some((f) => f.includes('@vladmandic/human'))).toBe(false)
      expect(loaded.some((f) => f.includes('@tensorflow'))).toBe(false)
    },
    INFERENCE,
  )

  it(
    'answers requests sent at once in turn, each with its own reading',
    async () => {
      const [man, woman, again, none] = await Promise.all([
        readFace(await sampleFace(...MAN)),
        readFace(await sampleFace(...WOMAN)),
        readFace(await sampleFace(...MAN)),
        readFace(await sharp({ create: BLANK }).jpeg().toBuffer()),
      ])
      expect(again).toEqual(man)
      expect(man.faces).toBe(1)
      expect(woman.faces).toBe(1)
      expect(none).toEqual({ faces: 0, yaw: null, pitch: null, roll: null, descriptor: null })
      if (!man.descriptor || !woman.descriptor) throw new Error('no face')
      expect(await similarity(man.descriptor, man.descriptor)).toBe(1)
      expect(await similarities(man.descriptor, [woman.descriptor, man.descriptor])).toEqual([
        await similarity(man.descriptor, woman.descriptor),
        1,
      ])
    },
    INFERENCE,
  )

  it(
    'a stopped worker fails the request that waited; the next reading starts a new one',
    async () => {
      const picture = await sampleFace(...WOMAN)
      const { descriptor } = await readFace(picture)
      if (!descriptor) throw new Error('no face')
      await stopFaceWorker()
      // A new worker loads tsx and the engine before it answers anything:
      // the request is still waiting when the worker is stopped.
      const waited = similarities(descriptor, [descriptor])
      await stopFaceWorker()
      await expect(waited).rejects.toThrow(/face match: the worker stopped/)
      expect((await readFace(picture)).descriptor).toEqual(descriptor)
    },
    INFERENCE,
  )
})

describeEngines('face match in photo verification on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let jobs: JobRunner
  let mediaDir: string
  let mod: { id: number; cookie: string }
  let admin: { id: number; cookie: string }

  beforeAll(async () => {
    t = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-face-match-'))
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
    mod = await staffSession(app, t.db, ['moderator'])
    admin = await staffSession(app, t.db, ['admin'])
  })
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

  /** A member whose one approved profile photo is `photo`, signed in. */
  async function memberWithPhoto(photo: Buffer) {
    const m = await addMember(t.db, {})
    const row = pictureRow('face-', m.id, 1)
    const { writeFile } = await import('node:fs/promises')
    await writeFile(join(mediaDir, row.filename), photo)
    await writeFile(join(mediaDir, row.thumbFilename), photo)
    await t.db.insert(images).values(row)
    return { m, cookie: await login(app, m.email, TEST_PASSWORD) }
  }

  /** Starts a request (turn set to `right`, as the test's face is turned) and sends `selfie`; the face job runs. */
  async function verify(cookie: string, memberId: number, selfie: Buffer, consent: boolean) {
    const started = await send(app, '/api/verification.php', {
      method: 'POST',
      cookie,
      body: { face_consent: consent },
    })
    expect(VerificationStatus.parse(await started.json()).face_consent).toBe(consent)
    await t.db
      .update(verifications)
      .set({ turn: 1 })
      .where(and(eq(verifications.memberId, memberId), eq(verifications.status, 'started')))
    const form = new FormData()
    form.append('file', new File([new Uint8Array(selfie)], 'selfie.jpg', { type: 'image/jpeg' }))
    const res = await app.request(new URL('/api/verification_selfie.php', BASE).href, {
      method: 'POST',
      body: form,
      headers: { origin: BASE, cookie },
    })
    expect(res.status).toBe(200)
    await jobs.idle()
    await jobs.runDue()
    const [row] = await t.db
      .select()
      .from(verifications)
      .where(eq(verifications.memberId, memberId))
    if (!row) throw new Error('no request')
    return row
  }

  const kept = async (memberId: number) =>
    (await t.db.select().from(faceDescriptors).where(eq(faceDescriptors.memberId, memberId))).length
  const verifiedAt = async (memberId: number) =>
    (await t.db.select().from(members).where(eq(members.id, memberId)))[0]?.verifiedAt ?? null
  const queueItem = async (id: number) => {
    const res = await send(app, `/api/operator/queue_item.php?type=verification&id=${id}`, {
      cookie: mod.cookie,
    })
    expect(res.status).toBe(200)
    return QueueItemDetail.parse(await res.json())
  }

  /** The console's audit log of one verification request, as an admin sees it. */
  const auditOf = async (id: number) => {
    const res = await send(
      app,
      `/api/operator/audit.php?target_type=verification&target_id=${id}`,
      {
        cookie: admin.cookie,
      },
    )
    expect(res.status).toBe(200)
    return AuditResponse.parse(await res.json()).entries
  }

  it('pins the default: assist', () => {
    expect(DEFAULT_SETTINGS.face_match).toBe('assist')
  })

  it(
    'without consent no face is processed: the request waits for a moderator, no scores',
    async () => {
      await setFaceMatch('auto')
      const { m, cookie } = await memberWithPhoto(await sampleFace(...MAN, AUGMENTED))
      const row = await verify(cookie, m.id, await sampleFace(...MAN), false)
      expect(row.status).toBe('pending')
      expect(row.faceCheckedAt).toBeNull()
      expect(row.faceDescriptor).toBeNull()
      expect((await queueItem(row.id)).verification?.face).toBeNull()
      expect(await verifiedAt(m.id)).toBeNull()
    },
    INFERENCE,
  )

  it(
    'face_match off: even with consent no face is processed',
    async () => {
      await setFaceMatch('off')
      const { m, cookie } = await memberWithPhoto(await sampleFace(...MAN, AUGMENTED))
      const row = await verify(cookie, m.id, await sampleFace(...MAN), true)
      expect(row.status).toBe('pending')
      expect(row.faceConsent).toBe(true)
      expect(row.faceCheckedAt).toBeNull()
    },
    INFERENCE,
  )

  it(
    'assist: a clear match still waits for a moderator, who sees the scores; approval keeps the descriptor',
    async () => {
      await setFaceMatch('assist')
      const { m, cookie } = await memberWithPhoto(await sampleFace(...MAN, AUGMENTED))
      const row = await verify(cookie, m.id, await sampleFace(...MAN), true)
      expect(row.status).toBe('pending')
      const face = (await queueItem(row.id)).verification?.face
      expect(face?.faces).toBe(1)
      expect(face?.pose_ok).toBe(true)
      expect(face?.photos).toBe(1)
      expect(face?.similarity).toBeGreaterThanOrEqual(AUTO_SIMILARITY)
      expect(face?.auto).toBe(false)
      expect(await kept(m.id)).toBe(0)
      const res = await send(app, '/api/operator/decide.php', {
        method: 'POST',
        cookie: mod.cookie,
        body: { type: 'verification', id: row.id, action: 'approve', reason: 'same person' },
      })
      expect(res.status).toBe(200)
      expect(await kept(m.id)).toBe(1)
      expect((await auditOf(row.id)).map((e) => [e.staff?.id, e.action])).toEqual([
        [mod.id, 'moderation.approve_verification'],
      ])
    },
    INFERENCE,
  )

  it(
    'auto: a clear match with the pose right is approved without a person; withdrawal deletes the descriptor',
    async () => {
      await setFaceMatch('auto')
      const { m, cookie } = await memberWithPhoto(await sampleFace(...WOMAN, AUGMENTED))
      // The woman's face is frontal: the pose fails, so auto leaves it to a moderator.
      const frontal = await verify(cookie, m.id, await sampleFace(...WOMAN), true)
      expect(frontal.status).toBe('pending')
      expect(frontal.facePoseOk).toBe(false)
      expect(frontal.faceSimilarity).toBeGreaterThanOrEqual(AUTO_SIMILARITY)

      const man = await memberWithPhoto(await sampleFace(...MAN, AUGMENTED))
      // The same face is kept for the member approved in the assist test.
      const flagged = await verify(man.cookie, man.m.id, await sampleFace(...MAN), true)
      expect(flagged.status).toBe('pending')
      expect(flagged.faceSameAs).not.toBeNull()
      expect((await queueItem(flagged.id)).verification?.face?.same_as?.member).toBe(
        flagged.faceSameAs,
      )

      // With the other account gone, the same selfie is approved by the machine.
      await t.db.delete(faceDescriptors)
      await t.db.delete(verifications).where(eq(verifications.memberId, man.m.id))
      const selfies = async () => (await readdir(mediaDir)).filter((f) => f.startsWith('selfie-'))
      const before = await selfies()
      const approved = await verify(man.cookie, man.m.id, await sampleFace(...MAN), true)
      expect(approved.status).toBe('approved')
      expect(approved.faceAuto).toBe(true)
      expect(approved.selfie).toBeNull()
      expect(await verifiedAt(man.m.id)).not.toBeNull()
      expect(await kept(man.m.id)).toBe(1)
      // The console's audit log shows the approval: by the machine, with its scores.
      const log = await auditOf(approved.id)
      expect(log).toHaveLength(1)
      expect(log[0]).toMatchObject({
        staff: null,
        action: 'machine.approve_verification',
        target_type: 'verification',
        target_id: String(approved.id),
        details: { member: man.m.id, faces: 1, pose_ok: true, photos: 1, threshold: 0.85 },
      })
      expect(log[0]?.details.similarity).toBe(approved.faceSimilarity)
      // The requests left to a moderator have no machine entry.
      expect(await auditOf(frontal.id)).toEqual([])
      expect(await auditOf(flagged.id)).toEqual([])
      // The machine's approval deletes the selfie as a moderator's does.
      expect(await selfies()).toEqual(before)

      const withdrawn = await send(app, '/api/verification_face.php', {
        method: 'DELETE',
        cookie: man.cookie,
      })
      expect(VerificationStatus.parse(await withdrawn.json()).face_consent).toBe(false)
      expect(await kept(man.m.id)).toBe(0)
      expect(await verifiedAt(man.m.id)).not.toBeNull()
    },
    INFERENCE,
  )

  it('account deletion deletes the kept descriptor', async () => {
    const { m, cookie } = await memberWithPhoto(await sampleFace(...MAN, AUGMENTED))
    await t.db.insert(faceDescriptors).values({ memberId: m.id, descriptor: [0.5, 0.25] })
    const res = await send(app, '/api/user.php', {
      method: 'DELETE',
      cookie,
      body: { password: TEST_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect(await kept(m.id)).toBe(0)
  })

  it(
    "flags a banned account's face first, and the moderator sees the ban",
    async () => {
      await setFaceMatch('assist')
      await t.db.delete(faceDescriptors)
      const exact = (await readFace(await sampleFace(...MAN))).descriptor!
      const alike = (await readFace(await sampleFace(...MAN, AUGMENTED))).descriptor!
      // The exact face on an account in good standing, a copy on a banned one.
      const standing = await addMember(t.db, {})
      const banned = await addMember(t.db, {})
      await t.db.insert(faceDescriptors).values([
        { memberId: standing.id, descriptor: exact },
        { memberId: banned.id, descriptor: alike },
      ])
      await t.db.insert(sanctions).values({
        memberId: banned.id,
        kind: 'ban',
        rule: 'scam',
        reason: 'Ban evasion test.',
        staffId: mod.id,
        appealTokenHash: `face-test-${banned.id}`,
      })
      const newcomer = await addMember(t.db, {})
      // Without the ban rule the closest face wins; with it, the banned one comes first.
      expect((await sameFace(t.db, newcomer.id, exact))?.member).toBe(standing.id)
      expect(await sameFace(t.db, newcomer.id, exact, bannedMemberSql)).toMatchObject({
        member: banned.id,
        banned: true,
      })

      const { m, cookie } = await memberWithPhoto(await sampleFace(...MAN, AUGMENTED))
      const row = await verify(cookie, m.id, await sampleFace(...MAN), true)
      expect(row.faceSameAs).toBe(banned.id)
      expect((await queueItem(row.id)).verification?.face?.same_as).toMatchObject({
        member: banned.id,
        banned: true,
      })
    },
    INFERENCE,
  )
})
