// JSON and HTML answers are read once, as bytes, and finished without web
// streams: the ETag of the polled reads is a SHA-1 of those bytes, and the
// server compresses them in one synchronous call and gives them their
// Content-Length. Reading a Response's body again, teeing it for a digest or
// piping it through a CompressionStream costs more CPU per request than the
// hashing and compressing themselves (for a 20 KB chats list: gzip 0.05 ms,
// the stream plumbing several times that), and the API's own work per
// request is what limits it (docs/performance.md, "API against raw pg"). For the same
// reason the answer's headers are changed where they are, not copied into a
// new Response: @hono/node-server writes a Response whose body is bytes or a
// string straight to the socket, and only turns it into a web Response (with
// a ReadableStream) when something asks for its body or replaces it.
import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'

/** Bytes of Responses made here: the next middleware takes them without reading the body. */
const known = new WeakMap<Response, Uint8Array>()

/** A Response of `body` whose bytes `answerAsBytes` hands out without reading it. */
function bytesResponse(body: Uint8Array, init: ResponseInit): Response {
  // A Buffer from zlib or a copy of an answer: bytes in memory either way.
  const res = new Response(body as Uint8Array<ArrayBuffer>, init)
  known.set(res, body)
  return res
}

/**
 * The bytes of the context's answer. One that is not ours yet (c.html, a
 * Response made elsewhere) is read once and replaced by its bytes, so the
 * middleware after this one finds them too.
 */
async function answerAsBytes(c: Context): Promise<Uint8Array> {
  const res = c.res
  const hit = known.get(res)
  if (hit) return hit
  const bytes = new Uint8Array(await res.arrayBuffer())
  replaceAnswer(c, bytesResponse(bytes, { status: res.status, headers: res.headers }))
  return bytes
}

/**
 * `c.json` for the rest of the request answers with the JSON's bytes, known
 * to `etag` and `answerBytes` without reading the Response back. The same
 * answer as hono's own `c.json` (status, headers set before, Content-Type).
 */
export const jsonAsBytes: MiddlewareHandler = async (c, next) => {
  // c.body's overloads, as one signature: hono's c.json passes its arguments on the same way.
  const body = c.body as unknown as (
    data: Uint8Array,
    arg?: number | ResponseInit,
    headers?: Record<string, string>,
  ) => Response
  c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>) => {
    const bytes = Buffer.from(JSON.stringify(object))
    const res = body(bytes, arg, { 'Content-Type': 'application/json', ...headers })
    known.set(res, bytes)
    return res
  }) as unknown as typeof c.json
  await next()
}

/**
 * Replaces the context's answer. Assigning over an existing one would copy
 * its headers back over the new ones (Content-Length among them), so the old
 * one is dropped first.
 */
function replaceAnswer(c: Context, res: Response): void {
  c.res = undefined
  c.res = res
}

/** JSON and HTML: what the app builds in memory (files and the event stream are left alone). */
const BUFFERED_TYPE = /^(application\/json|text\/html)/i
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i

/** Headers a 304 keeps (RFC 9110 §15.4.5); the rest describe a body it does not have. */
const KEPT_ON_304: readonly string[] = [
  'cache-control',
  'content-location',
  'date',
  'etag',
  'expires',
  'vary',
]

const etagMatches = (etag: string, ifNoneMatch: string | undefined) =>
  ifNoneMatch !== undefined &&
  (ifNoneMatch.trim() === '*' ||
    (ifNoneMatch.match(/"[^"]*"/g) ?? ([] as string[])).includes(etag.replace(/^W\//, '')))

/**
 * Fields of a polled answer that change by themselves as time passes, not
 * because anything happened: a profile's `last_active` ("now" turns "today"
 * minutes after the member left). The ETag leaves them out, so an idle
 * member's poll of an unchanged list answers 304; the list's copy then keeps
 * the older value until something real changes it (or the live stream,
 * while it is up, has the list fetched again).
 */
const SELF_CHANGING = new Set(['last_active'])

/** The bytes the ETag names: the JSON without its self-changing fields. */
function validatedBytes(body: Uint8Array, json: boolean): Uint8Array | string {
  if (!json) return body
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  if (![...SELF_CHANGING].some((field) => text.includes(`"${field}"`))) return body
  return JSON.stringify(JSON.parse(text), (key, value) =>
    SELF_CHANGING.has(key) ? undefined : value,
  )
}

/**
 * The ETag of a GET's 200 answer (a weak one, from a SHA-1 of its JSON
 * without its self-changing fields), and 304 without a body when the
 * request's If-None-Match names it.
 */
export function etag(): MiddlewareHandler {
  return async (c, next) => {
    const ifNoneMatch = c.req.header('if-none-match')
    await next()
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || c.res.status !== 200) return
    const type = c.res.headers.get('content-type') ?? ''
    if (!BUFFERED_TYPE.test(type)) return
    const body = await answerAsBytes(c)
    // Weak: it names the JSON, whichever encoding carries it (the 200 and the
    // 304 then say the same, compressed or not).
    const validated = validatedBytes(body, /^application\/json/i.test(type))
    const tag = `W/"${createHash('sha1').update(validated).digest('hex')}"`
    if (etagMatches(tag, ifNoneMatch)) {
      const headers = new Headers(c.res.headers)
      headers.set('etag', tag)
      for (const name of [...headers.keys()]) if (!KEPT_ON_304.includes(name)) headers.delete(name)
      replaceAnswer(c, new Response(null, { status: 304, headers }))
      return
    }
    c.res.headers.set('etag', tag)
  }
}

/** Brotli at quality 4 compresses JSON about a third smaller than gzip, at the same CPU. */
const BROTLI_QUALITY = 4

/** The best encoding the request accepts: brotli, else gzip, else none (q=0 refuses). */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null
  const q = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    q.set(name, weight === undefined ? 1 : Number(weight))
  }
  const of = (name: string) => q.get(name) ?? q.get('*') ?? 0
  if (of('br') > 0) return 'br'
  if (of('gzip') > 0) return 'gzip'
  return null
}

/**
 * JSON and HTML answers with their Content-Length, compressed when at least
 * `threshold` bytes and the client accepts it (with `Vary: Accept-Encoding`
 * then, compressed or not). A strong ETag becomes weak once compressed: the
 * bytes on the wire are no longer the ones it names. Anything else (built
 * files, which come precompressed; the event stream; pictures) passes as it is.
 */
export function answerBytes({ threshold }: { threshold: number }): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const res = c.res
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304) return
    if (!BUFFERED_TYPE.test(res.headers.get('content-type') ?? '')) return
    if (res.headers.has('content-encoding')) return
    // (Asking an answer not made here for its body turns it into a stream; it is read next anyway.)
    if (!known.has(res) && res.body === null) return
    const body = await answerAsBytes(c)
    // Changed in place: the answer stays one that is written without a stream.
    const headers = c.res.headers
    let sent = body
    if (body.byteLength >= threshold && !NO_TRANSFORM.test(headers.get('cache-control') ?? '')) {
      const vary = headers.get('vary')
      if (vary !== '*' && !(vary && VARY_ACCEPT_ENCODING.test(vary)))
        headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
      const encoding = acceptedEncoding(c.req.header('accept-encoding'))
      if (encoding) {
        sent =
          encoding === 'br'
            ? brotliCompressSync(body, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
                },
              })
            : gzipSync(body)
        headers.set('content-encoding', encoding)
        // A strong ETag names these bytes exactly; compressed, they are others.
        const tag = headers.get('etag')
        if (tag && !tag.startsWith('W/')) headers.set('etag', `W/${tag}`)
      }
    }
    headers.set('content-length', String(sent.byteLength))
    if (sent !== body) replaceAnswer(c, bytesResponse(sent, { status: res.status, headers }))
  }
}
