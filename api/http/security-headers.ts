// Security headers on every answer of the server: the PWA's HTML, the service
// worker, pictures, JSON and the few server-rendered pages. One policy for
// the site; a page that needs more (a payment page posting to a provider)
// builds its own with `contentSecurityPolicy({...})` and sets it itself, and
// the middleware leaves a Content-Security-Policy already set alone.
import type { Context, MiddlewareHandler } from 'hono'

export type CspDirectives = Record<string, readonly string[]>

/**
 * The site's policy. Scripts only from the site (the built index.html loads
 * one module file and no inline script; the service worker is registered
 * from that code). Pictures may come from other origins: webcam tiles show
 * the provider's thumbnails (https) and the demo feed's are data: URLs.
 * Inline styles stay allowed: React sets the webcam tiles' background
 * through the style attribute, and the server-rendered pages carry a few.
 */
export const SITE_CSP: CspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  // Voice messages: the chat's recordings ('self'), the sender's own
  // recording before it is sent (a blob: of the outbox), and a reported
  // one in the moderator's queue item (a data: URL).
  'media-src': ["'self'", 'blob:', 'data:'],
  'manifest-src': ["'self'"],
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
}

/**
 * The service worker's own policy (a worker is governed by the header of its
 * script, not the page's). It fetches pictures for its cache-first route,
 * which may live on another https origin, so connect-src adds https:.
 */
export const SERVICE_WORKER_CSP: CspDirectives = {
  ...SITE_CSP,
  'connect-src': ["'self'", 'https:'],
}

/** The header value of SITE_CSP with some directives replaced or added. */
export function contentSecurityPolicy(overrides: CspDirectives = {}): string {
  return Object.entries({ ...SITE_CSP, ...overrides })
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ')
}

/**
 * Features no page of the site uses are off; geolocation only for the
 * sign-up's "use my location", the camera only for the selfie of photo
 * verification (/verify), the microphone only for recording a voice message
 * in a chat, all for the site's own pages.
 */
export const PERMISSIONS_POLICY =
  'camera=(self), microphone=(self), geolocation=(self), payment=(), usb=(), serial=(), bluetooth=(), midi=(), browsing-topics=()'

/** HSTS: one year (the preload list's minimum), subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains'

export interface SecurityHeaderOptions {
  /** PUBLIC_URL: an https address means the site is served over https. */
  publicUrl?: string | undefined
  /** TRUST_PROXY: X-Forwarded-Proto of the proxy says whether the client used https. */
  trustProxy?: boolean | undefined
}

/**
 * Whether the client reached the site over https: a configured https
 * PUBLIC_URL, TLS on this server, or a trusted proxy saying so. A client's own
 * X-Forwarded-Proto without TRUST_PROXY counts for nothing.
 */
export function servedOverHttps(c: Context, options: SecurityHeaderOptions): boolean {
  if (options.publicUrl?.startsWith('https://')) return true
  if (new URL(c.req.url).protocol === 'https:') return true
  if (!options.trustProxy) return false
  return c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https'
}

const CSP = contentSecurityPolicy()

/**
 * The policy of an answer that is data, not a document (JSON, or no body at
 * all): nothing may load or frame it. The site's policy and the
 * Permissions-Policy govern documents only, and were 454 of the 727 bytes
 * of each conditional poll's 304 and of the visibility report's 204, which
 * an idle member's tab sends and receives every few minutes
 * (bench/idle-traffic.ts).
 */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'"

/**
 * A JSON answer, a 204, or a 304 of the API (only JSON answers there carry
 * an ETag: api/app.ts). A 304 of a document keeps the site's policy: the
 * browser puts a 304's headers on the page it has cached.
 */
const isData = (c: Context) =>
  c.res.status === 204 ||
  (c.res.status === 304 && c.req.path.startsWith('/api/')) ||
  (c.res.headers.get('Content-Type') ?? '').startsWith('application/json')

export const securityHeaders =
  (options: SecurityHeaderOptions = {}): MiddlewareHandler =>
  async (c, next) => {
    await next()
    const h = c.res.headers
    const data = isData(c)
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', data ? DATA_CSP : CSP)
    h.set('X-Content-Type-Options', 'nosniff')
    h.set('Referrer-Policy', 'strict-origin-when-cross-origin')
    if (!data) h.set('Permissions-Policy', PERMISSIONS_POLICY)
    // Browsers ignore HSTS over http; sending it only over https keeps a
    // plain-http development site from pinning localhost to https.
    if (servedOverHttps(c, options)) h.set('Strict-Transport-Security', HSTS)
  }
