// Security headers on everything the server answers: the app shell, the
// service worker, built assets, pictures, JSON and server-rendered pages.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AccountsDeps, accountsFromEnv } from '../mail/site.ts'
import { createServer } from '../server.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { contentSecurityPolicy, securityHeaders } from './security-headers.ts'

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) map.set(name, sources)
  }
  return map
}

const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9,
])

describeEngines('security headers on %s', (engine) => {
  let t: TestDatabase
  let root: string
  const server = (accounts: Partial<AccountsDeps> = {}) =>
    createServer({
      db: t.db,
      distDir: join(root, 'dist'),
      mediaDir: join(root, 'media'),
      accounts: { ...accountsFromEnv({}), ...accounts },
    })

  beforeAll(async () => {
    t = await freshDatabase(engine)
    root = mkdtempSync(join(tmpdir(), 'amora-headers-'))
    mkdirSync(join(root, 'dist/assets'), { recursive: true })
    mkdirSync(join(root, 'media/p'), { recursive: true })
    writeFileSync(
      join(root, 'dist/index.html'),
      '<!doctype html><script type="module" src="/assets/index.js"></script>',
    )
    writeFileSync(join(root, 'dist/sw.js'), 'self.addEventListener("fetch", () => {})')
    writeFileSync(join(root, 'dist/assets/index.js'), 'console.log(1)')
    writeFileSync(join(root, 'media/p/a.jpg'), JPEG)
    // Files that are not pictures must never be served from /media, whatever their name.
    writeFileSync(join(root, 'media/p/x.html'), '<script>alert(1)</script>')
    writeFileSync(join(root, 'media/p/x.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  })
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true })
    await t.close()
  })

  const paths = {
    'the app shell': '/members',
    'the service worker': '/sw.js',
    'a built script': '/assets/index.js',
    'a picture': '/media/p/a.jpg',
    'a server-rendered page': '/api/xcams/demo.php',
  }

  it.each(Object.entries(paths))('sends the security headers with %s', async (_what, path) => {
    const res = await server().request(`http://localhost${path}`)
    expect(res.status).toBeLessThan(500)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('permissions-policy')).toContain('camera=(self)')
    const csp = directives(res.headers.get('content-security-policy'))
    expect(csp.get('object-src')).toEqual(["'none'"])
    expect(csp.get('base-uri')).toEqual(["'none'"])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(csp.get('worker-src')).toEqual(["'self'"])
    // Scripts only from the site: no inline script, no eval, no other host.
    expect(csp.get('script-src')).toEqual(["'self'"])
    // Over plain http no HSTS (a browser would ignore it anyway).
    expect(res.headers.get('strict-transport-security')).toBeNull()
  })

  it.each([
    ['JSON', '/api/settings.php', {}],
    ['a JSON error', '/api/user.php', {}],
    ['a refused visibility report', '/api/push-visibility.php?visible=1', { method: 'POST' }],
  ] as const)(
    'sends data (%s) the short policy that lets nothing load or frame it',
    async (_what, path, init) => {
      const res = await server().request(`http://localhost${path}`, init)
      expect(res.status).toBeLessThan(500)
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      )
      // Document-only headers stay off; the others are there.
      expect(res.headers.get('permissions-policy')).toBeNull()
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    },
  )

  it('gives a 204 and an API 304 the short policy, and a document 304 the site policy', async () => {
    const app = new Hono()
      .use(securityHeaders())
      .post('/api/report', (c) => c.body(null, 204))
      .get('/api/list', (c) => c.body(null, 304))
      .get('/members', (c) => c.body(null, 304))
    const short = "default-src 'none'; frame-ancestors 'none'"
    for (const [method, path] of [
      ['POST', '/api/report'],
      ['GET', '/api/list'],
    ]) {
      const res = await app.request(`http://localhost${path}`, { method })
      expect(res.headers.get('content-security-policy')).toBe(short)
      expect(res.headers.get('permissions-policy')).toBeNull()
    }
    // The browser puts a 304's headers on the page it cached: a page keeps its policy.
    const page = await app.request('http://localhost/members')
    expect(directives(page.headers.get('content-security-policy')).get('script-src')).toEqual([
      "'self'",
    ])
    expect(page.headers.get('permissions-policy')).toContain('camera=(self)')
  })

  it('lets pictures from other https origins show (webcam tiles, push images)', async () => {
    const res = await server().request('http://localhost/members')
    const img = directives(res.headers.get('content-security-policy')).get('img-src')
    expect(img).toEqual(expect.arrayContaining(["'self'", 'https:', 'data:']))
  })

  it('lets the site record and play voice messages (microphone for its own pages; media from itself, blob: and data:)', async () => {
    const res = await server().request('http://localhost/members')
    expect(res.headers.get('permissions-policy')).toContain('microphone=(self)')
    const media = directives(res.headers.get('content-security-policy')).get('media-src')
    expect(media).toEqual(["'self'", 'blob:', 'data:'])
  })

  it('serves a picture as an inline image of its real type', async () => {
    const res = await server().request('http://localhost/media/p/a.jpg')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('content-disposition')).toBe('inline')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('caches hashed assets for good and revalidates the service worker', async () => {
    const asset = await server().request('http://localhost/assets/index.js')
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const sw = await server().request('http://localhost/sw.js')
    expect(sw.headers.get('cache-control')).toBe('no-cache')
    // The worker's own policy lets it fetch pictures for its cache from other https origins.
    const csp = directives(sw.headers.get('content-security-policy'))
    expect(csp.get('connect-src')).toEqual(["'self'", 'https:'])
    expect(csp.get('script-src')).toEqual(["'self'"])
  })

  it('serves nothing under /media that is not a picture', async () => {
    for (const path of ['/media/p/x.html', '/media/p/x.svg', '/media/p/missing.jpg']) {
      const res = await server().request(`http://localhost${path}`)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('content-type') ?? '', path).not.toMatch(/html|svg/)
    }
  })

  it('sends HSTS of at least a year with subdomains when PUBLIC_URL is https', async () => {
    const res = await server({ publicUrl: 'https://amora.example' }).request(
      'http://localhost/api/settings.php',
    )
    const hsts = res.headers.get('strict-transport-security') ?? ''
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000)
    expect(hsts).toContain('includeSubDomains')
  })

  it('believes X-Forwarded-Proto https for HSTS only under TRUST_PROXY', async () => {
    const headers = { 'x-forwarded-proto': 'https' }
    const untrusted = await server().request('http://localhost/members', { headers })
    expect(untrusted.headers.get('strict-transport-security')).toBeNull()
    const trusted = await server({ trustProxy: true }).request('http://localhost/members', {
      headers,
    })
    expect(trusted.headers.get('strict-transport-security')).toContain('max-age=31536000')
  })
})

describe('contentSecurityPolicy', () => {
  it('lets a page replace one directive and keeps the rest of the site policy', () => {
    const csp = directives(
      contentSecurityPolicy({ 'form-action': ["'self'", 'https://pay.example'] }),
    )
    expect(csp.get('form-action')).toEqual(["'self'", 'https://pay.example'])
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  })
})
