import type { Context, MiddlewareHandler } from 'hono'
import { ApiFailure } from './errors.ts'

/** The host of an Origin or Referer header; null for 'null' or garbage (which never matches). */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host.toLowerCase() : null)

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export interface OriginOptions {
  /**
   * TRUST_PROXY: the proxy's X-Forwarded-Host names the host the browser
   * used. Without it that header is the client's to forge and counts for
   * nothing, or a forged one would make a foreign Origin look like ours.
   */
  trustProxy?: boolean | undefined
}

export type OriginEnv = { Variables: { crossSite: boolean } }

/** The host the browser addressed: Host, or behind a trusted proxy its X-Forwarded-Host. */
function siteHost(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined
  return (forwarded ?? c.req.header('host') ?? new URL(c.req.url).host).toLowerCase()
}

/**
 * Whether a browser sent this request on behalf of another site: Sec-Fetch-Site
 * says so (`same-site` too: a sibling subdomain is not this site), or an Origin
 * or Referer names another host. A request with none of them (curl,
 * server-to-server, an old browser's plain link) carries no evidence and
 * passes; it has no ambient cookies of a member's browser to abuse, and every
 * browser the site supports sends Sec-Fetch-Site.
 */
export function isCrossSite(c: Context, trustProxy: boolean): boolean {
  const site = c.req.header('sec-fetch-site')
  if (site === 'cross-site' || site === 'same-site') return true
  const host = siteHost(c, trustProxy)
  const origin = c.req.header('origin')
  if (origin !== undefined && hostOf(origin) !== host) return true
  // A Referer that cannot be parsed says nothing (Origin 'null' does: a sandboxed sender).
  const referer = c.req.header('referer')
  const refererHost = referer === undefined ? null : hostOf(referer)
  return refererHost !== null && refererHost !== host
}

/**
 * Positive evidence that this site's own page sent the request: the browser's
 * Sec-Fetch-Site says same-origin, or its Origin names this host. Where a
 * request must come from our page (the test checkout's buttons), a request
 * with no evidence at all (curl, a script) is refused too.
 */
export function fromOwnPage(c: Context, trustProxy: boolean): boolean {
  if (isCrossSite(c, trustProxy)) return false
  const origin = c.req.header('origin')
  return (
    c.req.header('sec-fetch-site') === 'same-origin' ||
    (origin !== undefined && hostOf(origin) === siteHost(c, trustProxy))
  )
}

/**
 * Refuses state-changing requests sent from another site (CSRF) with 403,
 * and marks every request cross-site or not for the GETs the spec gives a
 * side effect (`fromAnotherSite`).
 */
export const sameOriginOnly =
  ({ trustProxy = false }: OriginOptions = {}): MiddlewareHandler<OriginEnv> =>
  async (c, next) => {
    const crossSite = isCrossSite(c, trustProxy)
    c.set('crossSite', crossSite)
    if (crossSite && !SAFE_METHODS.has(c.req.method)) {
      throw new ApiFailure(403, 'cross_origin_refused')
    }
    await next()
  }

/**
 * For a GET with a side effect (spec §7 keeps chat.php?profile= and a manual
 * search.php as GETs): whether another site sent it, in which case the
 * side effect must not happen. True when the origin check did not run, so a
 * route mounted without it refuses rather than trusts.
 */
export const fromAnotherSite = (c: Context): boolean =>
  (c as unknown as Context<OriginEnv>).get('crossSite') !== false
