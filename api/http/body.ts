// What a request body may be, decided from its headers before a byte of it is
// read: JSON (at most JSON_BODY_LIMIT) everywhere, multipart only on the
// endpoints of the table marked `multipart` (the picture upload, which sets its
// own larger limit). Any other body is refused with 415: no handler ever reads
// a form post or a megabyte of multipart that it was never meant to take.
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { type EndpointDef, endpoints } from '../contract/endpoints.ts'
import { ApiFailure } from './errors.ts'

/** Spec-sized JSON bodies are a few KB; 64 KB leaves room for long profile notes. */
export const JSON_BODY_LIMIT = 64 * 1024

const tooLarge = () => new ApiFailure(413, 'body_too_large', 'body')

const streamedJsonLimit = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: () => {
    throw tooLarge()
  },
})

/**
 * JSON_BODY_LIMIT on a JSON body. A body of announced length (every browser's
 * fetch) is judged by its Content-Length alone, from the headers: hono's
 * bodyLimit asks the request for its body stream first, which makes
 * @hono/node-server build a whole WHATWG Request (a ReadableStream and an
 * AbortSignal) for every POST; without that, the handler's c.req.json() reads
 * the socket's bytes directly. Node's HTTP parser never hands over more bytes
 * than Content-Length says. A chunked body has no length up front: hono's
 * bodyLimit counts it as it streams in.
 */
const jsonLimit: MiddlewareHandler = (c, next) => {
  const length = c.req.header('content-length')
  if (length === undefined || c.req.header('transfer-encoding') !== undefined)
    return streamedJsonLimit(c, next)
  if (Number.parseInt(length, 10) > JSON_BODY_LIMIT) throw tooLarge()
  return next()
}

/** application/json and the structured-syntax +json types, any parameters. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i
const MULTIPART_TYPE = /^multipart\/form-data\s*(?:;|$)/i
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i

const multipartEndpoints = (Object.values(endpoints) as EndpointDef[]).filter((e) => e.multipart)
const formEndpoints = (Object.values(endpoints) as EndpointDef[]).filter((e) => e.form)

const unsupported = (message: string) =>
  new ApiFailure(415, 'unsupported_media_type', 'body', message)

/** Whether the headers announce a body (HTTP/1.1: Content-Length over 0, or chunked). */
function announcesBody(contentLength: string | undefined, transferEncoding: string | undefined) {
  if (transferEncoding !== undefined) return true
  return contentLength !== undefined && contentLength.trim() !== '0'
}

export const bodyGate: MiddlewareHandler = async (c, next) => {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next()
  const type = c.req.header('content-type')
  if (type === undefined) {
    // No type: a body-less POST (a beacon, a resend) passes; a body of unknown kind does not.
    if (announcesBody(c.req.header('content-length'), c.req.header('transfer-encoding'))) {
      throw unsupported('a body needs Content-Type: application/json')
    }
    return jsonLimit(c, next)
  }
  if (JSON_TYPE.test(type)) return jsonLimit(c, next)
  // A form post only where the table says so: the payment provider's
  // webhook (Mollie posts `id=…` form-encoded) and the local checkout's buttons.
  if (
    FORM_TYPE.test(type) &&
    formEndpoints.some((e) => e.method === method && e.path === c.req.path)
  )
    return jsonLimit(c, next)
  if (MULTIPART_TYPE.test(type)) {
    // The upload route checks its own, larger limit while the body streams in.
    if (multipartEndpoints.some((e) => e.method === method && e.path === c.req.path)) return next()
    throw unsupported('multipart/form-data is taken by the picture upload only')
  }
  throw unsupported('send application/json')
}
