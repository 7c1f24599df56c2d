// GET /api/showcase.php: the guest home's member photos where logged-out
// search is closed (as by default): public, live members with a photo only,
// at most 8 (SHOWCASE_SIZE).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { images, members } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { ShowcaseResponse } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMembers } from '../test/seed.ts'
import { SHOWCASE_SIZE } from './showcase.ts'

describeEngines('the guest home showcase on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let withPhoto: number[]
  let deleted: number

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    const rows = await addMembers(
      t.db,
      Array.from({ length: 12 }, () => ({ gender: 'female' as const, country: 'NL' })),
    )
    // Ten with a photo (one of them deleted), two without.
    withPhoto = []
    for (const r of rows.slice(0, 10)) {
      const [img] = await t.db
        .insert(images)
        .values({ memberId: r.id, filename: `${r.id}.jpg`, thumbFilename: `${r.id}-t.jpg` })
        .returning()
      await t.db.update(members).set({ mainImageId: img!.id }).where(eq(members.id, r.id))
      withPhoto.push(r.id)
    }
    deleted = withPhoto[0]!
    await t.db.update(members).set({ deletedAt: new Date() }).where(eq(members.id, deleted))
  })
  afterAll(() => t.close())

  it('pins the size of the set: 8', () => {
    expect(SHOWCASE_SIZE).toBe(8)
  })

  it('answers a guest (no session) while logged-out search is closed', async () => {
    expect((await send(app, '/api/search.php')).status).toBe(403)
    const res = await send(app, '/api/showcase.php')
    expect(res.status).toBe(200)
    const body = ShowcaseResponse.parse(await res.json())
    expect(body.profiles).toHaveLength(8)
  })

  it('shows only live members with a photo', async () => {
    const body = ShowcaseResponse.parse(await (await send(app, '/api/showcase.php')).json())
    for (const p of body.profiles) {
      expect(withPhoto).toContain(p.id)
      expect(p.id).not.toBe(deleted)
      expect(p.main_image?.thumb_filename).toBeTruthy()
    }
  })
})
