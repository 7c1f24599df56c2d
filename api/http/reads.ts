// Which database handle a read-only answer uses (db/replica.ts): the
// replica's, or the primary's for a session that wrote a moment ago. The
// routes of the read-only hot paths take a `ReadsFor` and ask it per
// request; without DATABASE_REPLICA_URL it is always the primary's.
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import type { Db } from '../../db/client.ts'
import type { ReadRouter } from '../../db/replica.ts'
import { SESSION_COOKIE } from './session.ts'

/** The handle for this request's reads. */
export type ReadsFor = (c: Context) => Db

/** The primary for every request (no replica). */
export const primaryReads =
  (db: Db): ReadsFor =>
  () =>
    db

/** The router's pick for the request's session cookie (a guest has none). */
export const readsOf =
  (router: ReadRouter): ReadsFor =>
  (c) =>
    router.pick(getCookie(c, SESSION_COOKIE))

/** The session cookie an answer sets (a login, a sign-up), if any. */
function sessionSet(res: Response): string | undefined {
  const prefix = `${SESSION_COOKIE}=`
  const cookie = res.headers.getSetCookie().find((v) => v.startsWith(prefix))
  const value = cookie?.slice(prefix.length).split(';')[0]
  return value ? value : undefined
}

/**
 * Remembers the sessions that wrote: any request but a GET or HEAD, and a GET
 * with effects (`getWithEffects`), of the session it came with and of one the
 * answer starts. Their reads go to the primary for the router's window, so a
 * member sees their own change at once.
 */
export function rememberWrites(
  router: ReadRouter,
  getWithEffects: ReadonlySet<string>,
): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method
    const writes =
      (method !== 'GET' && method !== 'HEAD') ||
      (method === 'GET' && getWithEffects.has(c.req.path))
    if (!writes) return next()
    const session = getCookie(c, SESSION_COOKIE)
    // Marked before too: a read sent while the write runs must not be older.
    if (session) router.wrote(session)
    try {
      await next()
    } finally {
      if (session) router.wrote(session)
      const started = sessionSet(c.res)
      if (started) router.wrote(started)
    }
  }
}
