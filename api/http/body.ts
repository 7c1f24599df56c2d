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

const jsonLimit = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: () => {
    throw new ApiFailure(413, 'body_too_large', 'body')
  },
})

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
