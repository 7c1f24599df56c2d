// Stolen or reused photos (docs/trust.md): the same photo on two accounts is
// flagged in the moderation queue with the other account; a copy of a banned
// account's photo is held; a member's own pictures never match each other.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sanctions } from '../../db/schema/index.ts'
import { ProfileImagesResponse } from '../contract/index.ts'
import { QueueItemDetail, QueueResponse } from '../contract/operator/moderation.ts'
import { type AccountsApi, accountsApi } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

/**
 * A photo-like picture made of coloured discs on a background, the same for
 * the same `seed` (a small linear congruential generator).
 */
function picture(seed: number, width = 600, height = 800): Promise<Buffer> {
  let x = seed
  const r = () => {
    x = (x * 1103515245 + 12345) % 2147483648
    return x / 2147483648
  }
  const colour = () =>
    `rgb(${Math.floor(r() * 255)},${Math.floor(r() * 255)},${Math.floor(r() * 255)})`
  const discs = Array.from(
    { length: 12 },
    () =>
      `<circle cx="${r() * width}" cy="${r() * height}" r="${40 + r() * 160}" fill="${colour()}"/>`,
  ).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${colour()}"/>${discs}</svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer()
}

describeEngines('the same photo on two accounts on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let mediaDir: string
  let moderator: Awaited<ReturnType<typeof staffSession>>
  let original: Buffer

  beforeAll(async () => {
    database = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-photo-match-'))
    api = accountsApi(database.db, { mediaDir })
    moderator = await staffSession(api.app, database.db, ['moderator'])
    original = await picture(1)
  })
  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  const member = async () => {
    const row = await addMember(database.db, {})
    return { row, cookie: await login(api.app, row.email, TEST_PASSWORD) }
  }

  /** Uploads one picture as the member; the stored picture (the newest). */
  const upload = async (as: { cookie: string }, bytes: Buffer) => {
    const form = new FormData()
    form.append('file', new File([new Uint8Array(bytes)], 'me.jpg', { type: 'image/jpeg' }))
    const res = await api.app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie: as.cookie },
    })
    expect(res.status).toBe(200)
    const { images } = ProfileImagesResponse.parse(await res.json())
    const newest = images.at(-1)
    if (!newest) throw new Error('no picture stored')
    return newest
  }

  const queueEntry = async (photoId: number) => {
    const res = await send(api.app, '/api/operator/queue.php', { cookie: moderator.cookie })
    expect(res.status).toBe(200)
    const { items } = QueueResponse.parse(await res.json())
    return items.find((i) => i.type === 'photo' && i.id === photoId)
  }

  const queueItem = async (photoId: number) => {
    const res = await send(api.app, `/api/operator/queue_item.php?type=photo&id=${photoId}`, {
      cookie: moderator.cookie,
    })
    expect(res.status).toBe(200)
    return QueueItemDetail.parse(await res.json())
  }

  const ban = async (m: MemberRow) => {
    await database.db.insert(sanctions).values({
      memberId: m.id,
      kind: 'ban',
      rule: 'scam',
      reason: 'Stolen photos.',
      staffId: moderator.id,
      appealTokenHash: `test-${m.id}`,
    })
  }

  it('an identical photo on another account is queued naming the account and its photo', async () => {
    const a = await member()
    const b = await member()
    const first = await upload(a, original)
    const copy = await upload(b, original)
    expect(copy.pending).toBeUndefined()
    expect(await queueEntry(copy.id)).toMatchObject({
      summary: `same_photo:${a.row.id}`,
      member: b.row.id,
    })
    const detail = await queueItem(copy.id)
    expect(detail.photo?.match).toEqual({
      member: a.row.id,
      photo: first.id,
      thumb_url: `/media/${first.thumb_filename}`,
      banned: false,
    })
  })

  it('a resized and recompressed copy matches too', async () => {
    const a = await member()
    const b = await member()
    await upload(a, await picture(2))
    const reencoded = await sharp(await picture(2))
      .resize(420)
      .jpeg({ quality: 50 })
      .toBuffer()
    const copy = await upload(b, reencoded)
    expect((await queueEntry(copy.id))?.summary).toBe(`same_photo:${a.row.id}`)
    expect((await queueItem(copy.id)).photo?.match?.member).toBe(a.row.id)
  })

  it('a different photo is queued as a plain new photo, with no match', async () => {
    const b = await member()
    const other = await upload(b, await picture(3))
    expect((await queueEntry(other.id))?.summary).toBe('photo')
    expect((await queueItem(other.id)).photo?.match).toBeNull()
  })

  it("a member's own copies of a photo never match each other", async () => {
    const c = await member()
    const bytes = await picture(4)
    await upload(c, bytes)
    const again = await upload(c, bytes)
    expect((await queueEntry(again.id))?.summary).toBe('photo')
    expect((await queueItem(again.id)).photo?.match).toBeNull()
  })

  it("a copy of a banned account's photo is held: pending, hidden from members and guests", async () => {
    const banned = await member()
    const bytes = await picture(5)
    await upload(banned, bytes)
    await ban(banned.row)
    const d = await member()
    const held = await upload(d, await sharp(bytes).resize(500).jpeg({ quality: 70 }).toBuffer())
    expect(held.pending).toBe(true)
    expect((await queueItem(held.id)).photo?.match).toMatchObject({
      member: banned.row.id,
      banned: true,
    })
    const viewer = await member()
    const seenBy = async (cookie?: string) =>
      JSON.stringify(
        await (await send(api.app, `/api/profile.php?id=${d.row.id}`, { cookie })).json(),
      )
    expect(await seenBy(viewer.cookie)).not.toContain(held.thumb_filename)
    expect(await seenBy()).not.toContain(held.thumb_filename)
    // Not the main picture either, though it is the member's first.
    const own = ProfileImagesResponse.parse(
      await (await send(api.app, '/api/profileimage.php', { cookie: d.cookie })).json(),
    )
    expect(own.main_image).toBeNull()
  })

  it('a photo of an account that is not banned is flagged but not held', async () => {
    const a = await member()
    const bytes = await picture(6)
    await upload(a, bytes)
    const b = await member()
    const copy = await upload(b, bytes)
    expect(copy.pending).toBeUndefined()
    const own = ProfileImagesResponse.parse(
      await (await send(api.app, '/api/profileimage.php', { cookie: b.cookie })).json(),
    )
    expect(own.main_image?.id).toBe(copy.id)
  })
})
