// One upload request stores all of its pictures or none (api/images/images.ts
// saveImages): no row without its file, no file without its row, no
// half-written file, and the per-member limit holds for uploads at once.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { count, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { images, members } from '../../db/schema/index.ts'
import { ApiError, IMAGE_MAX_PER_MEMBER } from '../contract/index.ts'
import { type AccountsApi, accountsApi, freshEmail } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

describeEngines('atomic uploads on %s', (engine) => {
  let t: TestDatabase
  let api: AccountsApi
  let mediaDir: string
  let jpeg: Buffer

  beforeAll(async () => {
    t = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-upload-atomic-'))
    api = accountsApi(t.db, { mediaDir })
    jpeg = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#3949ab' } })
      .jpeg()
      .toBuffer()
  })
  afterAll(async () => {
    await t?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  /** POSTs `n` pictures in one request; any status (a fault may be a 500). */
  const upload = (cookie: string, n: number) => {
    const form = new FormData()
    for (let i = 0; i < n; i++) {
      form.append('file', new File([new Uint8Array(jpeg)], `p${i}.jpg`, { type: 'image/jpeg' }))
    }
    return api.app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie },
    })
  }
  const newMember = async () => {
    const row = await addMember(t.db, { email: freshEmail('pics') })
    return { id: row.id, cookie: await login(api.app, row.email, TEST_PASSWORD) }
  }
  const rowsOf = async (memberId: number) =>
    (await t.db.select({ n: count() }).from(images).where(eq(images.memberId, memberId)))[0]!.n

  it('leaves no row and no file when storing fails after the first picture', async () => {
    const member = await newMember()
    // A fault on the second row of this member's pictures, from inside the database.
    for (const statement of [
      'CREATE TABLE upload_faults (n int NOT NULL)',
      'INSERT INTO upload_faults VALUES (0)',
      `CREATE FUNCTION fail_second_image() RETURNS trigger AS $$
       BEGIN
         UPDATE upload_faults SET n = n + 1;
         IF (SELECT n FROM upload_faults) >= 2 THEN RAISE EXCEPTION 'injected fault'; END IF;
         RETURN NEW;
       END $$ LANGUAGE plpgsql`,
      `CREATE TRIGGER images_fault BEFORE INSERT ON images FOR EACH ROW
       WHEN (NEW.member_id = ${member.id}) EXECUTE FUNCTION fail_second_image()`,
    ]) {
      await t.db.execute(sql.raw(statement))
    }
    try {
      const before = await readdir(mediaDir)
      const res = await upload(member.cookie, 3)
      await res.arrayBuffer()
      expect(res.status).not.toBe(200)
      expect(await rowsOf(member.id)).toBe(0)
      // Neither pictures nor thumbnails nor temporary files stay behind.
      expect(await readdir(mediaDir)).toEqual(before)
      const [row] = await t.db
        .select({ main: members.mainImageId })
        .from(members)
        .where(eq(members.id, member.id))
      expect(row?.main).toBeNull()
    } finally {
      for (const statement of [
        'DROP TRIGGER images_fault ON images',
        'DROP FUNCTION fail_second_image()',
        'DROP TABLE upload_faults',
      ]) {
        await t.db.execute(sql.raw(statement))
      }
    }
    // The same request succeeds once the fault is gone, files and rows in step.
    const ok = await upload(member.cookie, 3)
    expect(ok.status).toBe(200)
    expect(await rowsOf(member.id)).toBe(3)
  })

  it(`keeps ${IMAGE_MAX_PER_MEMBER} pictures a member for uploads at once`, async () => {
    expect(IMAGE_MAX_PER_MEMBER).toBe(20)
    const member = await newMember()
    // 10 pictures already (rows only; the limit counts rows).
    await t.db.insert(images).values(
      Array.from({ length: 10 }, (_, i) => ({
        memberId: member.id,
        filename: `old${i}.jpg`,
        thumbFilename: `old${i}_t.jpg`,
      })),
    )
    const before = new Set(await readdir(mediaDir))
    const answers = await Promise.all([upload(member.cookie, 6), upload(member.cookie, 6)])
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 400])
    const refused = answers.find((r) => r.status === 400)!
    expect(ApiError.parse(await refused.json())).toMatchObject({
      error: 'too_many_images',
      field: 'file',
    })
    expect(await rowsOf(member.id)).toBe(16)
    // Exactly the accepted request's 6 pictures and 6 thumbnails were added.
    const added = (await readdir(mediaDir)).filter((f) => !before.has(f))
    expect(added).toHaveLength(12)
  })
})
