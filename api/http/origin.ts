import type { MiddlewareHandler } from 'hono'
import { ApiFailure } from './errors.ts'

/** The host of an Origin header; null for 'null' or garbage (which never matches). */
const originHost = (origin: string) => (URL.canParse(origin) ? new URL(origin).host : null)

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests sent from another origin (CSRF). Browsers
 * send Origin on every cross-origin POST/PUT/DELETE and Sec-Fetch-Site on all
 * modern ones; a request with neither (curl, server-to-server) has no ambient
 * cookies to abuse and passes.
 */
export const sameOriginOnly: MiddlewareHandler = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const site = c.req.header('sec-fetch-site')
    const origin = c.req.header('origin')
    const host = c.req.header('x-forwarded-host') ?? c.req.header('host')
    const crossSite = site === 'cross-site' || site === 'same-site'
    const foreignOrigin = origin !== undefined && originHost(origin) !== host
    if (crossSite || foreignOrigin) {
      throw new ApiFailure(403, 'cross_origin_refused')
    }
  }
  await next()
}
