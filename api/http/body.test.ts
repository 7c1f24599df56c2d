// Which bodies the API reads (api/http/body.ts): JSON everywhere, multipart
// only on the picture upload; anything else is a 415 before the body is read.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { ApiError } from '../contract/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { BASE, login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

/** A body of `total` bytes in 16 KB chunks that counts how much of it was pulled. */
function countingBody(total: number) {
  const chunk = new Uint8Array(16 * 1024).fill(0x61)
  let pulled = 0
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) return controller.close()
        pulled += chunk.length
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, pulled: () => pulled }
}

describeEngines('request bodies on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let cookie: string
  let email: string

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db })
    email = (await addMember(t.db, { email: 'bodies@example.com' })).email
    cookie = await login(app, email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  const unsupported = async (res: Response) => {
    expect(res.status).toBe(415)
    expect(ApiError.parse(await res.json())).toMatchObject({
      error: 'unsupported_media_type',
      field: 'body',
    })
  }

  it.each([
    ['POST', '/api/login.php'],
    ['POST', '/api/user.php?new=1'],
    ['POST', '/api/reset_password.php'],
    ['PUT', '/api/user.php'],
    ['POST', '/api/likes.php'],
    ['PUT', '/api/profileimage.php'],
  ] as const)(
    'refuses multipart to %s %s with 415 before reading the body',
    async (method, path) => {
      const body = countingBody(8 * 1024 * 1024)
      const res = await app.request(`${BASE}${path}`, {
        method,
        body: body.stream,
        // @ts-expect-error Node's fetch needs duplex for a stream body (not in the DOM types)
        duplex: 'half',
        headers: {
          host: 'localhost',
          origin: BASE,
          cookie,
          'content-type': 'multipart/form-data; boundary=----x',
        },
      })
      await unsupported(res)
      // Nothing past the first chunk the stream offers by itself.
      expect(body.pulled()).toBeLessThanOrEqual(16 * 1024)
    },
  )

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'text/html',
    'application/xml',
    'application/octet-stream',
  ])('refuses a %s body with 415', async (contentType) => {
    const res = await send(app, '/api/login.php', {
      method: 'POST',
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
      contentType,
    })
    await unsupported(res)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it('refuses a body without Content-Type with 415', async () => {
    const res = await send(app, '/api/login.php', {
      method: 'POST',
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
      contentType: null,
      headers: { 'content-length': '60' },
    })
    await unsupported(res)
  })

  it('takes JSON with parameters and +json types, and body-less POSTs', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      const res = await send(app, '/api/login.php', {
        method: 'POST',
        body: { email, password: TEST_PASSWORD },
        contentType,
      })
      expect(res.status, contentType).toBe(200)
    }
    const beacon = await send(app, '/api/page-hidden.php', { method: 'POST', cookie })
    expect(beacon.status).toBe(204)
  })
})
