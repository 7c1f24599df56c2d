import type { Context } from 'hono'

/**
 * The host a request was sent to (lower case, with its port if any), which
 * picks the site (api/settings). X-Forwarded-Host counts only behind a
 * trusted proxy (TRUST_PROXY=1): anyone can send that header.
 */
export function requestHost(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined
  return (forwarded || c.req.header('host') || new URL(c.req.url).host).toLowerCase()
}
