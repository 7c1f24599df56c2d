// Profile pictures: png/jpeg by their bytes, limits, re-encoding
// without metadata, server-made names, thumbnails, the main picture.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AccountUser, ApiError, IMAGE_MAX_BYTES, ProfileImagesResponse } from '../contract/index.ts'
import { type AccountsApi, accountsApi, freshEmail } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

interface Upload {
  bytes: Buffer
  name: string
  type: string
}

/** Does raw EXIF (as sharp's metadata().exif) hold a GPS IFD with a latitude? */
function hasGpsLatitude(exif: Buffer | undefined): boolean {
  if (!exif) return false
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') >= 0 ? exif.indexOf('Exif\0\0') + 6 : 0)
  const le = tiff.toString('latin1', 0, 2) === 'II'
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o))
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o))
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => ({
      tag: u16(ifd + 2 + i * 12),
      value: u32(ifd + 10 + i * 12),
    }))
  const gps = entries(u32(4)).find((e) => e.tag === 0x8825)
  return gps !== undefined && entries(gps.value).some((e) => e.tag === 0x0002)
}

/** A PNG whose header claims width × height (no real pixels: metadata is read first). */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(8 + data.length + 4)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), 8 + data.length)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c2185b' } })

describeEngines('profile pictures on %s', (engine) => {
  let database: TestDatabase
  let api: AccountsApi
  let mediaDir: string
  let cookie: string
  let jpeg: Buffer
  let png: Buffer
  let gpsJpeg: Buffer

  beforeAll(async () => {
    database = await freshDatabase(engine)
    mediaDir = await mkdtemp(join(tmpdir(), 'api-images-'))
    api = accountsApi(database.db, { mediaDir })
    const me = await addMember(database.db, { email: freshEmail('pics') })
    cookie = await login(api.app, me.email, TEST_PASSWORD)
    jpeg = await solid(400, 300).jpeg().toBuffer()
    png = await solid(300, 300).png().toBuffer()
    // A phone photo: taken sideways (orientation 6) with the place it was taken.
    const tagged = await solid(200, 100)
      .jpeg()
      .withExif({
        IFD0: { Copyright: 'someone' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '52/1 22/1 12/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '4/1 53/1 0/1',
        },
      })
      .toBuffer()
    gpsJpeg = await sharp(tagged).keepExif().withMetadata({ orientation: 6 }).toBuffer()
  })
  afterAll(async () => {
    await database?.close()
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
  })

  const upload = async (files: Upload[], as = cookie) => {
    const form = new FormData()
    for (const f of files)
      form.append('file', new File([new Uint8Array(f.bytes)], f.name, { type: f.type }))
    const res = await api.app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie: as },
    })
    expect(res.status).toBeLessThan(500)
    return res
  }
  const expectRefused = async (res: Response, status: number, error: string) => {
    expect(res.status).toBe(status)
    expect(ApiError.parse(await res.json())).toMatchObject({ error, field: 'file' })
  }

  it('stores a jpeg and a png under server-made names, with thumbnails; the first is main', async () => {
    const res = await upload([
      { bytes: jpeg, name: '../../etc/passwd.jpg', type: 'image/jpeg' },
      { bytes: png, name: 'me.png', type: 'image/png' },
    ])
    expect(res.status).toBe(200)
    const body = ProfileImagesResponse.parse(await res.json())
    expect(body.images).toHaveLength(2)
    expect(body.main_image?.id).toBe(body.images[0]!.id)
    for (const image of body.images) {
      expect(image.thumb_filename).toMatch(/^[0-9a-f]{24}_t\.jpg$/)
      const thumb = await sharp(await readFile(join(mediaDir, image.thumb_filename))).metadata()
      expect(thumb).toMatchObject({ format: 'jpeg', width: 160, height: 160 })
      const full = await sharp(
        await readFile(join(mediaDir, image.thumb_filename.replace('_t', ''))),
      ).metadata()
      expect(full.format).toBe('jpeg')
    }
    const user = AccountUser.parse(await (await send(api.app, '/api/user.php', { cookie })).json())
    expect(user.main_image?.thumb_filename).toBe(body.images[0]!.thumb_filename)
  })

  it('removes EXIF (GPS included) and applies the orientation first', async () => {
    const before = await sharp(gpsJpeg).metadata()
    expect(hasGpsLatitude(before.exif)).toBe(true)
    expect(before).toMatchObject({ width: 200, height: 100, orientation: 6 })
    const res = await upload([{ bytes: gpsJpeg, name: 'IMG_0001.JPG', type: 'image/jpeg' }])
    const { images } = ProfileImagesResponse.parse(await res.json())
    const stored = images.at(-1)!
    for (const file of [stored.thumb_filename.replace('_t', ''), stored.thumb_filename]) {
      const bytes = await readFile(join(mediaDir, file))
      const after = await sharp(bytes).metadata()
      expect(after.exif).toBeUndefined()
      expect(after.orientation).toBeUndefined()
      expect(bytes.includes('Exif\0\0')).toBe(false)
      if (!file.includes('_t')) expect(after).toMatchObject({ width: 100, height: 200 })
    }
  })

  it('drops bytes hidden after the picture (no polyglot survives)', async () => {
    const polyglot = Buffer.concat([jpeg, Buffer.from('<script>alert(1)</script>')])
    const res = await upload([{ bytes: polyglot, name: 'x.jpg', type: 'image/jpeg' }])
    expect(res.status).toBe(200)
    const { images } = ProfileImagesResponse.parse(await res.json())
    const bytes = await readFile(join(mediaDir, images.at(-1)!.thumb_filename.replace('_t', '')))
    expect(bytes.includes('<script>')).toBe(false)
  })

  it.each([
    [
      'a GIF',
      Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
      'a.gif',
      'image/gif',
    ],
    [
      'a GIF renamed .png',
      Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
      'a.png',
      'image/png',
    ],
    [
      'an SVG',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      ),
      'a.svg',
      'image/svg+xml',
    ],
    [
      'an SVG renamed .jpg',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      ),
      'a.jpg',
      'image/jpeg',
    ],
    [
      'an HTML file renamed .jpg',
      Buffer.from('<!doctype html><html><script>alert(1)</script></html>'),
      'photo.jpg',
      'image/jpeg',
    ],
    ['an empty file', Buffer.alloc(0), 'e.jpg', 'image/jpeg'],
    [
      'a truncated jpeg',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]),
      't.jpg',
      'image/jpeg',
    ],
  ])('refuses %s with 400 invalid_image', async (_, bytes, name, type) => {
    await expectRefused(await upload([{ bytes, name, type }]), 400, 'invalid_image')
  })

  it('refuses the whole request when one file is bad', async () => {
    const before = await readdir(mediaDir)
    const res = await upload([
      { bytes: jpeg, name: 'ok.jpg', type: 'image/jpeg' },
      { bytes: Buffer.from('<html></html>'), name: 'bad.jpg', type: 'image/jpeg' },
    ])
    await expectRefused(res, 400, 'invalid_image')
    expect(await readdir(mediaDir)).toEqual(before)
  })

  it('refuses more than 40 megapixels with 400 image_too_large', async () => {
    await expectRefused(
      await upload([{ bytes: pngHeader(8000, 6000), name: 'big.png', type: 'image/png' }]),
      400,
      'image_too_large',
    )
  })

  it('refuses a body over the size limit with 413 before reading it all', async () => {
    const big = Buffer.alloc(IMAGE_MAX_BYTES + 1, 7)
    jpeg.copy(big)
    await expectRefused(
      await upload([{ bytes: big, name: 'huge.jpg', type: 'image/jpeg' }]),
      413,
      'file_too_large',
    )
  })

  it('refuses a request without a file, and JSON instead of multipart', async () => {
    const form = new FormData()
    form.append('file', 'just text')
    const res = await api.app.request(`${BASE}/api/profileimage.php`, {
      method: 'POST',
      body: form,
      headers: { host: 'localhost', origin: BASE, cookie },
    })
    await expectRefused(res, 400, 'invalid_input')
    const json = await send(api.app, '/api/profileimage.php', {
      method: 'POST',
      cookie,
      body: { file: 'x' },
    })
    await expectRefused(json, 400, 'invalid_input')
  })

  it('answers 403 without a session, and 404 for another member’s picture', async () => {
    expect(
      (await upload([{ bytes: jpeg, name: 'a.jpg', type: 'image/jpeg' }], 'sid=nope')).status,
    ).toBe(403)
    const other = await addMember(database.db, { email: freshEmail('other') })
    const otherCookie = await login(api.app, other.email, TEST_PASSWORD)
    const mine = ProfileImagesResponse.parse(
      await (await send(api.app, '/api/profileimage.php', { cookie })).json(),
    )
    const id = mine.images[0]!.id
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await send(api.app, '/api/profileimage.php', {
        method,
        cookie: otherCookie,
        body: { id },
      })
      expect(res.status).toBe(404)
    }
  })

  it('makes another picture main, and promotes the oldest left when the main one goes', async () => {
    const list = ProfileImagesResponse.parse(
      await (await send(api.app, '/api/profileimage.php', { cookie })).json(),
    )
    const [first, second] = list.images
    const moved = await send(api.app, '/api/profileimage.php', {
      method: 'PUT',
      cookie,
      body: { id: second!.id },
    })
    expect(ProfileImagesResponse.parse(await moved.json()).main_image?.id).toBe(second!.id)
    const removed = await send(api.app, '/api/profileimage.php', {
      method: 'DELETE',
      cookie,
      body: { id: second!.id },
    })
    const after = ProfileImagesResponse.parse(await removed.json())
    expect(after.images.map((i) => i.id)).not.toContain(second!.id)
    expect(after.main_image?.id).toBe(first!.id)
    expect(await readdir(mediaDir)).not.toContain(second!.thumb_filename)
  })
})
