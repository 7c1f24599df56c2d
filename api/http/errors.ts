import type { ErrorHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { isConnectionLost } from '../../db/client.ts'
import type { ApiError } from '../contract/index.ts'
import { logOf, routeOf } from './request-log.ts'

/** An expected failure with a stable code (and the field at fault, for 400s). */
export class ApiFailure extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    readonly field?: string,
    message?: string,
    /** More members of the error body, e.g. `min_age` of profile.date_of_birth_error (spec §5). */
    readonly extra?: Record<string, string | number>,
  ) {
    super(status, { message: message ?? code })
  }
}

export const notFound = () => new ApiFailure(404, 'not_found')

function rootMessage(err: unknown): string {
  let e: unknown = err
  while (e instanceof Error && e.cause instanceof Error) e = e.cause
  return e instanceof Error ? e.message : String(e)
}

/** The one place every error becomes the JSON error shape; nothing leaks a stack. */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiFailure) {
    const body: ApiError = { error: err.code, message: err.message }
    if (err.field) body.field = err.field
    return c.json({ ...err.extra, ...body }, err.status)
  }
  if (err instanceof HTTPException) {
    // Hono's validator throws a bare 400 for a body it cannot parse (malformed
    // JSON or form data) before zod sees it: that is bad input in the body.
    if (err.status === 400) {
      const body: ApiError = { error: 'invalid_input', field: 'body', message: err.message }
      return c.json(body, 400)
    }
    return c.json({ error: 'http_error', message: err.message } satisfies ApiError, err.status)
  }
  if (isConnectionLost(err)) {
    // The database restarted or dropped this connection: nothing is wrong
    // with the request, and the pool opens a new connection for the next one.
    // The root cause only: drizzle's own message carries the query's parameters.
    logOf(c).warn(
      { method: c.req.method, route: routeOf(c), cause: rootMessage(err) },
      'database unavailable',
    )
    c.header('Retry-After', '1')
    return c.json({ error: 'database_unavailable' } satisfies ApiError, 503)
  }
  // With its stack (pino's `err`), in the request's line of logs (api/http/request-log.ts).
  logOf(c).error({ err, method: c.req.method, route: routeOf(c) }, 'unhandled error')
  return c.json({ error: 'internal_error' } satisfies ApiError, 500)
}
