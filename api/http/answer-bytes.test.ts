// How the server encodes JSON answers: the encoding Accept-Encoding allows,
// their length, and the ETag of the polled reads (weak once compressed).
import { gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { acceptedEncoding, answerBytes, etag } from './answer-bytes.ts'

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
