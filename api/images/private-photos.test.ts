// Private photos: the owner marks a picture private (never the main one);
// others see a locked tile, unlock it once for `private_photo_credits` (one
// debit whatever the replays or the races), 402 with nothing stored when
// short; /media refuses the files to everyone else (GET and HEAD); guests,
// search and lists never see them; the owner sees who unlocked; the export
// holds them.

import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { creditLedger, photoUnlocks } from '../../db/schema/index.ts'
import { setBlock } from '../blocks/index.ts'
import {
  ApiError,
  InsufficientCredits,
  PhotoUnlocksResponse,
  ProfileImagesResponse,
  ProfileResponse,
  UnlockPhotoResponse,
} from '../contract/index.ts'
import { balanceOf, credit, ledgerSum } from '../credits/index.ts'
import { DEFAULT_SETTINGS } from '../settings/index.ts'
import { rowsOf } from '../shared/rows.ts'
import { type AccountsApi, accountsApi, freshEmail } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { approvedImagesSql, guestPictureSql, imagesOf, photosExport } from './index.ts'
import { servePictures } from './serve.ts'
import { diskStore } from './storage.ts'

it('pins the default price of an unlock: 50 credits', () => {
  expect(DEFAULT_SETTINGS.private_photo_credits).toBe(50)
})

describeEngines('private photos on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let mediaDir: string
  let media: Hono
  let owner: { id: number; cookie: string }
  let mainId: number
  let privateId: number
  let privateThumb: string

  const member = async (prefix: string, credits = 0) => {
    const m = await addMember(database.db, { email: freshEmail(prefix) })
    if (credits > 0) await credit(database.db, m.id, credits, 'bonus', 'test')
    return { id: m.id, cookie: await login(api.app, m.email, TEST_PASSWORD) }
  }
  const unlock = (cookie: string, id: unknown = privateId) =>
    send(api.app, '/api/photounlock.php', { method: 'POST', cookie, body: { id } })
  const privacy = (cookie: string, body: unknown) =>
    send(api.app, '/api/privatephoto.php', { method: 'PUT', cookie, body })
  const profileOf = async (cookie?: string) =>
    ProfileResponse.parse(
      await (await send(api.app, `/api/profile.php?id=${owner.id}`, { cookie })).json(),
    ).profile
  const fetchMedia = (name: string, method: 'GET' | 'HEAD', cookie?: string) =>
    media.request(`${BASE}/media/${name}`, {
      method,
      headers: { host: 'localhost', ...(cookie ? { cookie } : {}) },
    })
  const unlockRows = async (viewer: number) =>
    database.db
      .select()
      .from(photoUnlocks)
      .where(and(eq(photoUnlocks.viewerId, viewer), eq(photoUnlocks.imageId, privateId)))
  const unlockLedger = async (viewer: number) =>
    database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, viewer), eq(creditLedger.reason, 'unlock')))

  beforeAll(async () => {
    database = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-private-'))
    api = accountsApi(database.db, { mediaDir })
    media = new Hono()
      .use('/media/*', servePictures(diskStore(mediaDir), { db: database.db }))
      .get('/media/*', (c) => c.notFound())
    owner = await member('owner')
    const jpeg = await sharp({
      create: { width: 300, height: 300, channels: 3, background: '#3366cc' },
    })
      .jpeg()
      .toBuffer()
    const form = new FormData()
    for (const name of ['a.jpg', 'b.jpg'])
      form.append('file', new File([new Uint8Array(jpeg)], name, { type: 'image/jpeg' }))
    const res = await api.app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie: owner.cookie },
    })
    const body = ProfileImagesResponse.parse(await res.json())
    mainId = body.main_image!.id
    privateId = body.images.find((i) => i.id !== mainId)!.id
  })
  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  describe('marking a picture private', () => {
    it('refuses bad input with 400 naming the field', async () => {
      for (const [body, field] of [
        [{ id: 'x', private: true }, 'id'],
        [{ id: privateId, private: 'yes' }, 'private'],
        [{ id: privateId }, 'private'],
      ] as const) {
        const res = await privacy(owner.cookie, body)
        expect(res.status).toBe(400)
        expect(ApiError.parse(await res.json()).field).toBe(field)
      }
    })

    it('answers 404 for another member’s picture, and 403 without a session', async () => {
      const other = await member('stranger')
      expect((await privacy(other.cookie, { id: privateId, private: true })).status).toBe(404)
      expect((await privacy('sid=nope', { id: privateId, private: true })).status).toBe(403)
    })

    it('refuses the main picture with 409 photo_main', async () => {
      const res = await privacy(owner.cookie, { id: mainId, private: true })
      expect(res.status).toBe(409)
      expect(ApiError.parse(await res.json())).toMatchObject({ error: 'photo_main', field: 'id' })
    })

    it('marks another private under new file names; the old files go', async () => {
      const before = ProfileImagesResponse.parse(
        await (await send(api.app, '/api/profileimage.php', { cookie: owner.cookie })).json(),
      ).images.find((i) => i.id === privateId)!
      const res = await privacy(owner.cookie, { id: privateId, private: true })
      expect(res.status).toBe(200)
      const body = ProfileImagesResponse.parse(await res.json())
      const mine = body.images.find((i) => i.id === privateId)!
      expect(mine.private).toBe(true)
      expect(mine.thumb_filename).toMatch(/^p-[0-9a-f]{24}_t\.jpg$/)
      expect(body.main_image?.id).toBe(mainId)
      privateThumb = mine.thumb_filename
      const files = await readdir(mediaDir)
      expect(files).toContain(privateThumb)
      expect(files).not.toContain(before.thumb_filename)
      // Asking again changes nothing.
      const again = ProfileImagesResponse.parse(
        await (await privacy(owner.cookie, { id: privateId, private: true })).json(),
      )
      expect(again.images.find((i) => i.id === privateId)!.thumb_filename).toBe(privateThumb)
    })

    it('never makes a private picture the main one (409 photo_private)', async () => {
      const res = await send(api.app, '/api/profileimage.php', {
        method: 'PUT',
        cookie: owner.cookie,
        body: { id: privateId },
      })
      expect(res.status).toBe(409)
      expect(ApiError.parse(await res.json())).toMatchObject({ error: 'photo_private' })
    })
  })

  describe('what others see before an unlock', () => {
    it('the profile answer: a locked tile, never the picture; guests learn nothing', async () => {
      const viewer = await member('looker')
      const seen = await profileOf(viewer.cookie)
      expect(seen.images.map((i) => i.id)).toEqual([mainId])
      expect(seen.locked_photos).toEqual([{ id: privateId }])
      expect(JSON.stringify(seen)).not.toContain(privateThumb.replace('_t', ''))
      // A guest sees reviewed pictures only: these uploads wait for a moderator.
      const own = await profileOf(owner.cookie)
      expect(own.locked_photos).toEqual([])
      expect(own.images.find((i) => i.id === privateId)?.private).toBe(true)
      const guest = await profileOf()
      expect(guest.images.map((i) => i.id)).not.toContain(privateId)
      expect(guest.locked_photos).toEqual([])
    })

    it('lists, search tiles, landers and the showcase never hold it', async () => {
      const lists = await imagesOf(database.db, [owner.id])
      expect(lists.get(owner.id)?.map((i) => i.id)).toEqual([mainId])
      const guests = await imagesOf(database.db, [owner.id], { guest: true })
      expect(guests.get(owner.id)?.map((i) => i.id) ?? []).not.toContain(privateId)
      const [row] = await rowsOf(
        database.db,
        sql`SELECT ${approvedImagesSql(sql`${owner.id}::bigint`)} AS images`,
        z.object({ images: z.array(z.object({ id: z.coerce.number() })) }),
      )
      expect(row!.images.map((i) => i.id)).toEqual([mainId])
    })

    it('a member with only a private picture is no guest showcase member', async () => {
      const lone = await addMember(database.db, { email: freshEmail('lone') })
      await database.db.execute(
        sql`INSERT INTO images (member_id, filename, thumb_filename, private) VALUES (${lone.id}, 'p-x.jpg', 'p-x_t.jpg', true)`,
      )
      const [row] = await rowsOf(
        database.db,
        sql`SELECT ${guestPictureSql(sql`${lone.id}::bigint`)} AS pictured`,
        z.object({ pictured: z.boolean() }),
      )
      expect(row!.pictured).toBe(false)
    })

    it('the files: staff (the moderation queue) get them', async () => {
      const staffMedia = new Hono()
        .use(
          '/media/*',
          servePictures(diskStore(mediaDir), { db: database.db, staff: async () => true }),
        )
        .get('/media/*', (c) => c.notFound())
      const res = await staffMedia.request(`${BASE}/media/${privateThumb}`, {
        headers: { host: 'localhost' },
      })
      expect(res.status).toBe(200)
      // Staff get no file that is no private picture's.
      const none = await staffMedia.request(`${BASE}/media/p-${'0'.repeat(24)}_t.jpg`, {
        headers: { host: 'localhost' },
      })
      expect(none.status).toBe(404)
    })

    it('the files: 404 to another member and to a guest, GET and HEAD; 200 to the owner', async () => {
      const viewer = await member('peeker')
      const full = privateThumb.replace('_t', '')
      for (const name of [privateThumb, full]) {
        for (const method of ['GET', 'HEAD'] as const) {
          expect((await fetchMedia(name, method, viewer.cookie)).status).toBe(404)
          expect((await fetchMedia(name, method)).status).toBe(404)
          const own = await fetchMedia(name, method, owner.cookie)
          expect(own.status).toBe(200)
          expect(own.headers.get('cache-control')).toBe('private, no-cache')
        }
      }
    })
  })

  describe('unlocking', () => {
    it('402 with nothing stored when the balance is short; the body names balance and price', async () => {
      const poor = await member('poor', 49)
      const res = await unlock(poor.cookie)
      expect(res.status).toBe(402)
      expect(InsufficientCredits.parse(await res.json())).toEqual({
        error: 'insufficient_credits',
        credits: 49,
        cost: 50,
      })
      expect(await unlockRows(poor.id)).toHaveLength(0)
      expect(await unlockLedger(poor.id)).toHaveLength(0)
      expect(await balanceOf(database.db, poor.id)).toBe(49)
    })

    it('refuses a bad id with 400 naming it, and 404 for a public or own picture', async () => {
      const viewer = await member('picky', 200)
      const bad = await unlock(viewer.cookie, 'one')
      expect(bad.status).toBe(400)
      expect(ApiError.parse(await bad.json()).field).toBe('id')
      expect((await unlock(viewer.cookie, mainId)).status).toBe(404)
      expect((await unlock(owner.cookie, privateId)).status).toBe(404)
      expect(await balanceOf(database.db, viewer.id)).toBe(200)
    })

    it('404 with nothing charged when either member blocked the other', async () => {
      for (const direction of ['owner blocked viewer', 'viewer blocked owner'] as const) {
        const viewer = await member('blocked', 200)
        const [blocker, blocked] =
          direction === 'owner blocked viewer' ? [owner.id, viewer.id] : [viewer.id, owner.id]
        await setBlock(database.db, blocker, blocked, true)
        const res = await unlock(viewer.cookie)
        expect(res.status, direction).toBe(404)
        expect(await unlockRows(viewer.id)).toHaveLength(0)
        expect(await balanceOf(database.db, viewer.id)).toBe(200)
        await setBlock(database.db, blocker, blocked, false)
      }
    })

    it('charges 50 once: the same request again charges nothing', async () => {
      const viewer = await member('payer', 120)
      const first = UnlockPhotoResponse.parse(await (await unlock(viewer.cookie)).json())
      expect(first).toMatchObject({ credits: 70, charged: 50, image: { id: privateId } })
      const again = UnlockPhotoResponse.parse(await (await unlock(viewer.cookie)).json())
      expect(again).toMatchObject({ credits: 70, charged: 0 })
      expect(await balanceOf(database.db, viewer.id)).toBe(70)
      const ledger = await unlockLedger(viewer.id)
      expect(ledger).toHaveLength(1)
      expect(ledger[0]).toMatchObject({ delta: -50, reference: `unlock:${privateId}:${viewer.id}` })
      expect(await ledgerSum(database.db, viewer.id)).toBe(70)
      expect(await unlockRows(viewer.id)).toHaveLength(1)
    })

    it('charges once under 5 concurrent unlocks', async () => {
      const viewer = await member('racer', 100)
      const answers = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const res = await unlock(viewer.cookie)
          expect(res.status).toBe(200)
          return UnlockPhotoResponse.parse(await res.json())
        }),
      )
      expect(answers.filter((a) => a.charged === 50)).toHaveLength(1)
      expect(answers.filter((a) => a.charged === 0)).toHaveLength(4)
      expect(await balanceOf(database.db, viewer.id)).toBe(50)
      expect(await unlockLedger(viewer.id)).toHaveLength(1)
      expect(await ledgerSum(database.db, viewer.id)).toBe(50)
      expect(await unlockRows(viewer.id)).toHaveLength(1)
    })

    it('the unlocked viewer gets the picture: in the profile answer and from /media', async () => {
      const viewer = await member('fan', 50)
      expect((await unlock(viewer.cookie)).status).toBe(200)
      expect(await balanceOf(database.db, viewer.id)).toBe(0)
      const seen = await profileOf(viewer.cookie)
      expect(seen.locked_photos).toEqual([])
      expect(seen.images.find((i) => i.id === privateId)).toMatchObject({
        thumb_filename: privateThumb,
        private: true,
      })
      expect(seen.main_image?.thumb_filename).not.toBe(privateThumb)
      for (const name of [privateThumb, privateThumb.replace('_t', '')]) {
        for (const method of ['GET', 'HEAD'] as const) {
          expect((await fetchMedia(name, method, viewer.cookie)).status).toBe(200)
        }
      }
    })

    it('the owner sees who unlocked, by name', async () => {
      const res = await send(api.app, '/api/photounlock.php', { cookie: owner.cookie })
      const { unlocks } = PhotoUnlocksResponse.parse(await res.json())
      expect(unlocks.length).toBe(3)
      expect(unlocks.every((u) => u.image_id === privateId)).toBe(true)
      const stranger = await member('nobody')
      const none = PhotoUnlocksResponse.parse(
        await (await send(api.app, '/api/photounlock.php', { cookie: stranger.cookie })).json(),
      )
      expect(none.unlocks).toEqual([])
    })

    it('the export holds the private picture and who unlocked it', async () => {
      const photos = await photosExport(database.db, owner.id, {
        base: BASE,
        mainImageId: mainId,
      })
      const mine = photos.find((p) => p.id === privateId)!
      expect(mine.private).toBe(true)
      expect(mine.unlocked_by).toHaveLength(3)
      expect(photos.find((p) => p.id === mainId)).toMatchObject({ private: false, unlocked_by: [] })
    })
  })

  describe('public again, and gone', () => {
    it('public again: new plain names, everyone sees it; private again: unlocks still hold', async () => {
      const viewer = await member('late', 0)
      const res = ProfileImagesResponse.parse(
        await (await privacy(owner.cookie, { id: privateId, private: false })).json(),
      )
      const shown = res.images.find((i) => i.id === privateId)!
      expect(shown.private).toBeUndefined()
      expect(shown.thumb_filename).toMatch(/^[0-9a-f]{24}_t\.jpg$/)
      expect((await fetchMedia(privateThumb, 'GET', owner.cookie)).status).toBe(404)
      expect((await profileOf(viewer.cookie)).images.map((i) => i.id)).toContain(privateId)
      const back = ProfileImagesResponse.parse(
        await (await privacy(owner.cookie, { id: privateId, private: true })).json(),
      )
      privateThumb = back.images.find((i) => i.id === privateId)!.thumb_filename
      expect((await profileOf(viewer.cookie)).locked_photos).toEqual([{ id: privateId }])
      const unlocked = await database.db
        .select()
        .from(photoUnlocks)
        .where(eq(photoUnlocks.imageId, privateId))
      expect(unlocked).toHaveLength(3)
    })

    it('a viewer’s deleted account takes their unlocks; a deleted picture takes its unlocks', async () => {
      const viewer = await member('leaver', 50)
      expect((await unlock(viewer.cookie)).status).toBe(200)
      const gone = await send(api.app, '/api/user.php', {
        method: 'DELETE',
        cookie: viewer.cookie,
        body: { password: TEST_PASSWORD },
      })
      expect(gone.status).toBe(200)
      expect(await unlockRows(viewer.id)).toHaveLength(0)
      const removed = await send(api.app, '/api/profileimage.php', {
        method: 'DELETE',
        cookie: owner.cookie,
        body: { id: privateId },
      })
      expect(removed.status).toBe(200)
      const left = await database.db
        .select()
        .from(photoUnlocks)
        .where(eq(photoUnlocks.imageId, privateId))
      expect(left).toHaveLength(0)
    })
  })
})
