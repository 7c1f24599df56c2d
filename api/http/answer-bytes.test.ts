// How the server encodes JSON answers: the encoding Accept-Encoding allows,
// their length, and the ETag of the polled reads (weak once compressed).
import { gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { acceptedEncoding, answerBytes, etag, jsonAsBytes } from './answer-bytes.ts'

describe('acceptedEncoding', () => {
  it('prefers brotli, then gzip', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br')
    expect(acceptedEncoding('gzip, deflate')).toBe('gzip')
    expect(acceptedEncoding('GZIP')).toBe('gzip')
  })

  it('never picks an encoding the client refused with q=0', () => {
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip')
    expect(acceptedEncoding('br;q=0, gzip;q=0')).toBeNull()
    expect(acceptedEncoding('*;q=0')).toBeNull()
  })

  it('sends as it is without a header, for identity only, or for encodings it does not make', () => {
    expect(acceptedEncoding(undefined)).toBeNull()
    expect(acceptedEncoding('')).toBeNull()
    expect(acceptedEncoding('identity')).toBeNull()
    expect(acceptedEncoding('deflate, zstd')).toBeNull()
  })

  it('takes a wildcard as brotli', () => {
    expect(acceptedEncoding('*')).toBe('br')
  })
})

describe('answerBytes and etag', () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `member ${i}` })) }
  const app = new Hono()
    .use(answerBytes({ threshold: 1024 }))
    .use(etag())
    .get('/big', (c) => c.json(big))
    .get('/small', (c) => c.json({ ok: true }))
  const get = (path: string, headers: Record<string, string> = {}) =>
    app.request(`http://localhost${path}`, { headers })

  it('gives a compressed answer a weak ETag that still answers 304 when sent back', async () => {
    const res = await get('/big', { 'accept-encoding': 'gzip' })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength))
    expect(JSON.parse(gunzipSync(bytes).toString())).toEqual(big)
    const tag = res.headers.get('etag')!
    expect(tag).toMatch(/^W\/"[0-9a-f]{40}"$/)
    const again = await get('/big', { 'accept-encoding': 'gzip', 'if-none-match': tag })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(tag)
    expect(again.headers.get('content-encoding')).toBeNull()
    expect(await again.text()).toBe('')
  })

  it('sends as it is below the threshold', async () => {
    const res = await get('/small', { 'accept-encoding': 'gzip, br' })
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBeNull()
    expect(res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]{40}"$/)
    expect(await res.json()).toEqual({ ok: true })
  })

  it('answers 200 with the body for an ETag that no longer matches', async () => {
    const res = await get('/big', { 'if-none-match': '"0000000000000000000000000000000000000000"' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(big)
  })
})

describe('jsonAsBytes (c.json answered as bytes, not read back)', () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `member ${i}` })) }
  const app = new Hono()
    .use(answerBytes({ threshold: 1024 }))
    .use(etag())
    .use(jsonAsBytes)
    .get('/big', (c) => c.json(big))
    .get('/created', (c) => {
      c.header('X-Before', 'set before the answer')
      return c.json({ id: 7 }, 201, { 'X-Extra': 'given with it' })
    })
    .get('/page', (c) => c.html(`<p>${'hello '.repeat(400)}</p>`))
  const plain = new Hono()
    .use(answerBytes({ threshold: 1024 }))
    .use(etag())
    .get('/big', (c) => c.json(big))
  const get = (on: Hono, path: string, headers: Record<string, string> = {}) =>
    on.request(`http://localhost${path}`, { headers })

  it("keeps c.json's status, its headers and those set before, with the JSON type", async () => {
    const res = await get(app, '/created')
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('x-before')).toBe('set before the answer')
    expect(res.headers.get('x-extra')).toBe('given with it')
    expect(res.headers.get('content-length')).toBe(String(JSON.stringify({ id: 7 }).length))
    expect(await res.json()).toEqual({ id: 7 })
  })

  it('gives the same bytes, ETag and compression as a JSON answer read back', async () => {
    const fast = await get(app, '/big', { 'accept-encoding': 'gzip' })
    const slow = await get(plain, '/big', { 'accept-encoding': 'gzip' })
    expect(fast.headers.get('etag')).toBe(slow.headers.get('etag'))
    expect(fast.headers.get('content-encoding')).toBe('gzip')
    expect(fast.headers.get('vary')).toBe('Accept-Encoding')
    const bytes = Buffer.from(await fast.arrayBuffer())
    expect(fast.headers.get('content-length')).toBe(String(bytes.byteLength))
    expect(JSON.parse(gunzipSync(bytes).toString())).toEqual(big)
    const again = await get(app, '/big', { 'if-none-match': fast.headers.get('etag')! })
    expect(again.status).toBe(304)
  })

  it('still reads and compresses an answer it did not make (HTML)', async () => {
    const res = await get(app, '/page', { 'accept-encoding': 'gzip' })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(gunzipSync(bytes).toString()).toBe(`<p>${'hello '.repeat(400)}</p>`)
  })
})
