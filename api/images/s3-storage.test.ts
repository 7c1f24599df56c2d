// Pictures in S3-compatible object storage, on both databases, against a real
// S3-protocol server (s3rver, started here: api/test/s3.ts), reached through
// the AWS SDK configured by the standard variables, as api/start.ts does.
// Two app instances (own server, own store client; on PostgreSQL their own
// connection pool too) share one database and one bucket, as processes on
// two machines would: what one stores the other serves, exports and deletes.
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { asc, eq, inArray } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase } from '../../db/client.ts'
import { images, jobs as jobRows, members } from '../../db/schema/index.ts'
import { seedDemo } from '../../db/seed/seed.ts'
import type { Api } from '../app.ts'
import { loadStorageConfig } from '../config.ts'
import { ProfileImagesResponse } from '../contract/index.ts'
import { BACKOFF_MAX_MS, createJobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { createServer } from '../server.ts'
import { fakeDns, freshEmail } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { startS3, TEST_BUCKET, type TestS3, useEnv } from '../test/s3.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { MEDIA_DELETE_JOB, mediaJobHandlers } from './media.ts'
import { type PictureStore, storeOf } from './storage.ts'

/** A port nothing listens on: a store there never answers. */
async function closedPort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describeEngines('pictures in S3 object storage on %s', (engine) => {
  let s3: TestS3
  let restoreEnv: () => void
  let database: TestDatabase
  /** The second instance's database handle: its own pool on PostgreSQL. */
  let secondDb: TestDatabase['db']
  let closeSecond: () => Promise<void>
  let dist: string
  let one: Api
  /** Instance one's job runner (an upload pokes it: the photo face job, api/images/face.ts). */
  let oneJobs: ReturnType<typeof createJobRunner>
  let two: Api
  let sdk: S3Client
  let jpeg: Buffer

  /** The bucket as the SDK lists it, not as the app's store says. */
  const bucketKeys = async () => {
    const keys: string[] = []
    let token: string | undefined
    do {
      const page = await sdk.send(
        new ListObjectsV2Command({
          Bucket: TEST_BUCKET,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      )
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key)
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return new Set(keys)
  }
  const objectBytes = async (key: string) => {
    const out = await sdk.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key: key }))
    return Buffer.from(await out.Body!.transformToByteArray())
  }

  /** A store as api/start.ts makes it from the environment. */
  const configuredStore = () => storeOf(loadStorageConfig(process.env))
  const instance = (
    db: TestDatabase['db'],
    pictures: PictureStore,
    jobs?: ReturnType<typeof createJobRunner>,
  ) =>
    createServer({
      db,
      distDir: dist,
      pictures,
      ...(jobs ? { jobs } : {}),
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: true,
        lookupHost: fakeDns,
      },
    }) as unknown as Api

  const upload = async (app: Api, cookie: string, n = 1) => {
    const form = new FormData()
    for (let i = 0; i < n; i++) {
      form.append('file', new File([new Uint8Array(jpeg)], `p${i}.jpg`, { type: 'image/jpeg' }))
    }
    const res = await app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie },
    })
    expect(res.status).toBe(200)
    return ProfileImagesResponse.parse(await res.json())
  }
  /** A member signed in on both instances (one session each). */
  const member = async () => {
    const row = await addMember(database.db, { email: freshEmail('s3') })
    return {
      id: row.id,
      cookieOne: await login(one, row.email, TEST_PASSWORD),
      cookieTwo: await login(two, row.email, TEST_PASSWORD),
    }
  }
  const filesOfRows = (memberId: number) =>
    database.db
      .select({ filename: images.filename, thumb: images.thumbFilename })
      .from(images)
      .where(eq(images.memberId, memberId))
      .orderBy(asc(images.id))
  const picture = (app: Api, name: string, headers: Record<string, string> = {}) =>
    app.request(`${BASE}/media/${name}`, { headers: { host: 'localhost', ...headers } })

  beforeAll(async () => {
    s3 = await startS3()
    // The SDK reads the credentials and checksum settings from the environment.
    restoreEnv = useEnv(s3.env)
    database = await freshDatabase(engine)
    if (engine === 'postgres') {
      const opened = await openDatabase({ kind: 'postgres', url: database.url! })
      secondDb = opened.db
      closeSecond = () => opened.close()
    } else {
      secondDb = database.db
      closeSecond = async () => {}
    }
    dist = await mkdtemp(join(tmpdir(), 'dist-s3-'))
    oneJobs = createJobRunner({ db: database.db, handlers: {} })
    one = instance(database.db, configuredStore(), oneJobs)
    two = instance(secondDb, configuredStore())
    sdk = new S3Client({
      endpoint: s3.env.AWS_ENDPOINT_URL_S3!,
      forcePathStyle: true,
      region: 'us-east-1',
    })
    jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3949ab' } })
      .jpeg()
      .toBuffer()
  })
  afterAll(async () => {
    await oneJobs?.stop()
    sdk?.destroy()
    await closeSecond?.()
    await database?.close()
    if (dist) await rm(dist, { recursive: true, force: true })
    await s3?.stop()
    restoreEnv?.()
  })

  it('reads the bucket and the endpoint from the standard variables, path-style', () => {
    expect(loadStorageConfig(s3.env)).toEqual({
      kind: 's3',
      bucket: TEST_BUCKET,
      endpoint: s3.env.AWS_ENDPOINT_URL_S3,
      region: 'us-east-1',
    })
    expect(configuredStore().description).toBe(
      `S3 bucket ${TEST_BUCKET} at ${s3.env.AWS_ENDPOINT_URL_S3}`,
    )
  })

  it('serves a picture uploaded through one instance from the other, thumbnail too, immutable with an ETag', async () => {
    const m = await member()
    const before = await bucketKeys()
    const answer = await upload(one, m.cookieOne)
    const [row] = await filesOfRows(m.id)
    expect(answer.images.map((i) => i.thumb_filename)).toEqual([row!.thumb])
    const added = [...(await bucketKeys())].filter((k) => !before.has(k)).sort()
    expect(added).toEqual([row!.filename, row!.thumb].sort())
    for (const name of [row!.filename, row!.thumb]) {
      const res = await picture(two, name)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/jpeg')
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const body = Buffer.from(await res.arrayBuffer())
      expect(body.equals(await objectBytes(name))).toBe(true)
      expect([body[0], body[1]]).toEqual([0xff, 0xd8])
      const etag = res.headers.get('etag')
      expect(etag).toMatch(/^"[^"]+"$/)
      // The same validator from either instance: a revalidation is a 304 anywhere.
      expect((await picture(one, name)).headers.get('etag')).toBe(etag)
      const head = await one.request(`${BASE}/media/${name}`, {
        method: 'HEAD',
        headers: { host: 'localhost' },
      })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-length')).toBe(String(body.length))
      expect((await head.arrayBuffer()).byteLength).toBe(0)
      const again = await picture(one, name, { 'if-none-match': etag! })
      expect(again.status).toBe(304)
      expect((await again.arrayBuffer()).byteLength).toBe(0)
    }
    // The thumbnail is the variant: a 160 px square.
    const thumb = await sharp(await objectBytes(row!.thumb)).metadata()
    expect([thumb.width, thumb.height]).toEqual([160, 160])
    expect((await picture(two, 'nothing-here.jpg')).status).toBe(404)
  })

  it('deleting a picture through the second instance removes every object of it from the bucket', async () => {
    const m = await member()
    const answer = await upload(one, m.cookieOne)
    const [row] = await filesOfRows(m.id)
    const keys = await bucketKeys()
    expect([keys.has(row!.filename), keys.has(row!.thumb)]).toEqual([true, true])
    const res = await send(two, '/api/profileimage.php', {
      method: 'DELETE',
      cookie: m.cookieTwo,
      body: { id: answer.images[0]!.id },
    })
    expect(res.status).toBe(200)
    const after = await bucketKeys()
    expect([after.has(row!.filename), after.has(row!.thumb)]).toEqual([false, false])
    expect((await picture(one, row!.filename)).status).toBe(404)
    expect((await picture(one, row!.thumb)).status).toBe(404)
  })

  it('deleting an account removes all its objects from the bucket', async () => {
    const m = await member()
    await upload(one, m.cookieOne, 2)
    await upload(two, m.cookieTwo, 1)
    const files = (await filesOfRows(m.id)).flatMap((r) => [r.filename, r.thumb])
    expect(files).toHaveLength(6)
    const keys = await bucketKeys()
    expect(files.filter((f) => keys.has(f))).toEqual(files)
    const res = await send(two, '/api/user.php', {
      method: 'DELETE',
      cookie: m.cookieTwo,
      body: { password: TEST_PASSWORD },
    })
    expect(res.status).toBe(200)
    const after = await bucketKeys()
    expect(files.filter((f) => after.has(f))).toEqual([])
  })

  it('a deletion the store did not take is finished by the media.delete job, retried later', async () => {
    const m = await member()
    const answer = await upload(one, m.cookieOne)
    // The upload's own job round (its face check) ends first: instance one's
    // runner, whose store answers, must not be the one to take the deletion.
    await oneJobs.idle()
    const [row] = await filesOfRows(m.id)
    // A third instance whose store does not answer (its endpoint is a closed port).
    const restore = useEnv({ AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${await closedPort()}` })
    const deadStore = configuredStore()
    restore()
    const deadJobs = createJobRunner({ db: secondDb, handlers: {}, log: () => {} })
    const dead = instance(secondDb, deadStore, deadJobs)
    const cookie = await login(dead, (await memberEmail(m.id))!, TEST_PASSWORD)
    const res = await send(dead, '/api/profileimage.php', {
      method: 'DELETE',
      cookie,
      body: { id: answer.images[0]!.id },
    })
    expect(res.status).toBe(200)
    // The row is gone at once; the poked job failed against the same store, so it waits to retry.
    expect(await filesOfRows(m.id)).toEqual([])
    await deadJobs.idle()
    const keys = await bucketKeys()
    expect([keys.has(row!.filename), keys.has(row!.thumb)]).toEqual([true, true])
    // Any instance's runner takes the job once it is due again, and deletes both objects.
    const later = createJobRunner({
      db: database.db,
      handlers: mediaJobHandlers(configuredStore()),
      now: () => new Date(Date.now() + 2 * BACKOFF_MAX_MS),
    })
    expect(await later.runDue()).toBeGreaterThanOrEqual(1)
    const after = await bucketKeys()
    expect([after.has(row!.filename), after.has(row!.thumb)]).toEqual([false, false])
    const [job] = await database.db
      .select()
      .from(jobRows)
      .where(eq(jobRows.kind, MEDIA_DELETE_JOB))
      .orderBy(asc(jobRows.id))
      .then((rows) => rows.filter((j) => JSON.stringify(j.payload).includes(row!.filename)))
    expect(job?.status).toBe('done')
    expect(job?.attempts).toBeGreaterThanOrEqual(2)
  })

  it('a store that does not answer makes an upload and an export 503 (storage_unavailable), storing no row', async () => {
    const m = await member()
    await upload(one, m.cookieOne)
    const restore = useEnv({ AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${await closedPort()}` })
    const deadStore = configuredStore()
    restore()
    const dead = instance(secondDb, deadStore)
    const form = new FormData()
    form.append('file', new File([new Uint8Array(jpeg)], 'p.jpg', { type: 'image/jpeg' }))
    const res = await dead.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie: m.cookieTwo },
    })
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ error: 'storage_unavailable' })
    expect(await filesOfRows(m.id)).toHaveLength(1)
    const exported = await dead.request(`${BASE}/api/account_export.php`, {
      headers: { host: 'localhost', cookie: m.cookieTwo },
    })
    expect(exported.status).toBe(503)
    const [row] = await filesOfRows(m.id)
    const served = await picture(dead, row!.filename)
    expect(served.status).toBe(503)
    expect(served.headers.get('cache-control') ?? '').not.toContain('immutable')
  })

  const memberEmail = async (id: number) =>
    (await database.db.select({ email: members.email }).from(members).where(eq(members.id, id)))[0]
      ?.email

  it("the export holds the member's pictures, read from the bucket by the other instance", async () => {
    const m = await member()
    await upload(one, m.cookieOne)
    const [row] = await filesOfRows(m.id)
    const res = await send(two, '/api/account_export.php', { cookie: m.cookieTwo })
    expect(res.status).toBe(200)
    const data = (await res.json()) as { photos: { url: string; picture: string | null }[] }
    expect(data.photos).toHaveLength(1)
    expect(data.photos[0]!.url).toBe(`http://localhost/media/${row!.filename}`)
    const prefix = 'data:image/jpeg;base64,'
    expect(data.photos[0]!.picture?.startsWith(prefix)).toBe(true)
    const bytes = Buffer.from(data.photos[0]!.picture!.slice(prefix.length), 'base64')
    expect(bytes.equals(await objectBytes(row!.filename))).toBe(true)
  })

  it('the demo seed puts its pictures in the bucket, and a second run puts none', async () => {
    const hashPassword = async (p: string) => `test-hash:${p}`
    const seed = (db: TestDatabase['db']) =>
      seedDemo(db, { pictures: configuredStore(), members: 6, hashPassword, random: 7 })
    const before = await bucketKeys()
    const imageIdsBefore = new Set(
      (await database.db.select({ id: images.id }).from(images)).map((r) => r.id),
    )
    // On PostgreSQL two instances seed at once (the start-up lock: one seeds,
    // the other finds it done); PGlite is one process.
    const results =
      engine === 'postgres'
        ? await Promise.all([seed(database.db), seed(secondDb)])
        : [await seed(database.db)]
    expect(new Set(results.map((r) => r.demoMemberId)).size).toBe(1)
    const seeded = (await database.db.select().from(images)).filter(
      (r) => !imageIdsBefore.has(r.id),
    )
    expect(seeded.length).toBeGreaterThanOrEqual(7)
    const afterSeed = await bucketKeys()
    const added = [...afterSeed].filter((k) => !before.has(k)).sort()
    expect(added).toEqual(seeded.flatMap((r) => [r.filename, r.thumbFilename]).sort())
    // A demo picture is served by the instance that did not seed.
    const demoMain = await database.db
      .select({ filename: images.filename })
      .from(images)
      .innerJoin(members, eq(members.mainImageId, images.id))
      .where(inArray(members.id, [results[0]!.demoMemberId]))
    expect((await picture(two, demoMain[0]!.filename)).status).toBe(200)
    // Started again: the demo is there, nothing is rendered or put.
    await seed(secondDb)
    expect([...(await bucketKeys())].sort()).toEqual([...afterSeed].sort())
  })
})
