// "HTML that paints before JavaScript" (docs/performance.md): a guest's public entry pages
// come from the server with their real content in the HTML (read here
// without running any script), in the request's language and the host's
// template; a member (session cookie) gets the plain shell. Needs
// `npm run build` (dist-ssr/ holds the server render).
import { readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slugFor } from '../api/contract/rules/index.ts'
import { type Site, startSite } from './harness.ts'

const BOXY = 'boxy-3.localhost'
let site: Site
let profileId: number

/** GET without a browser: the HTML as the server sent it, for a host and a language. */
function get(path: string, host: string, lang: string, cookie?: string) {
  const url = new URL(path, site.url)
  return new Promise<{ status: number; body: string; location?: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        headers: {
          host,
          'accept-language': lang,
          'user-agent': 'Mozilla/5.0 Chrome/140.0',
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** What #root holds in the HTML: empty for the plain shell. */
const rootOf = (html: string) =>
  /<div id="root">([\s\S]*?)<\/div>\s*(<script|<div id="teleports")/.exec(html)?.[1] ?? ''

beforeAll(async () => {
  site = await startSite({
    SITE_SETTINGS: JSON.stringify({ sites: { [BOXY]: { template: 'boxy', niche: 3 } } }),
  })
  const showcase = (await (await fetch(`${site.url}/api/showcase.php`)).json()) as {
    profiles: { id: number; name: string }[]
  }
  profileId = showcase.profiles[0]!.id
})

afterAll(async () => {
  await site?.stop()
})

const cases = [
  { host: '127.0.0.1', template: 'classic', niche: 1, lang: 'en', locale: 'en' },
  { host: BOXY, template: 'boxy', niche: 3, lang: 'de-DE,de;q=0.9', locale: 'de' },
] as const

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe.each(cases)('a guest on $template (niche $niche) in $locale', (c) => {
  const messages = async () =>
    (await import(`../messages/${c.locale}.json`, { with: { type: 'json' } })).default as Record<
      string,
      string
    >

  it('gets the home with its heading and the sign-up form in the HTML', async () => {
    const m = await messages()
    const { status, body } = await get('/', c.host, c.lang)
    expect(status).toBe(200)
    expect(body).toContain(`<html lang="${c.locale}" class="${c.template} niche-${c.niche}`)
    const root = rootOf(body)
    // The heading may carry a class (the photo-first hero's); its text is the niche's title.
    expect(root).toMatch(
      new RegExp(
        `<h1 id="hero-title"(?: class="[^"]*")?>${escapeRegExp(m[`niche_${c.niche}_title`]!)}</h1>`,
      ),
    )
    expect(root).toMatch(/<input[^>]*type="email"/)
    expect(root).toMatch(/<input[^>]*type="password"/)
    expect(body).toContain('<script type="application/json" id="page-seed">')
  })

  it('gets the login form in the HTML, which works before hydration (a form post)', async () => {
    const m = await messages()
    const { status, body } = await get('/login', c.host, c.lang)
    expect(status).toBe(200)
    const root = rootOf(body)
    expect(root).toContain(`<h1>${m.login_title}</h1>`)
    // Sent before the app hydrated, the form posts to /login (api/site/form-login.ts).
    expect(root).toMatch(/<form[^>]*method="post"/)
    expect(root).toMatch(/<input[^>]*name="email"/)
    expect(root).toMatch(/<input type="password"[^>]*name="password"/)
  })

  it("fetches and runs the light entry of the page's language after the first paint and carries its styles: the boot script is the page's one script", async () => {
    const { body } = await get('/signup', c.host, c.lang)
    // The built stylesheets are in the page (no round trip before the first paint).
    expect(body).not.toMatch(/<link rel="stylesheet"[^>]*href="[^"]*\/assets\//)
    expect(body).toMatch(/<style>[\s\S]*?\.form\{[\s\S]*?<\/style>/)
    // The light entry (no router) built with this language's texts only
    // (after the bundler's runtime chunk, which the entry imports too).
    expect(body.match(/<script type="module"[^>]*>/g)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^<script type="module" src="/assets/boot-[^"]+\\.js" data-boot="(/l/${c.locale}/assets/rolldown-runtime-[^" ]+\\.js )?/l/${c.locale}/assets/lander-[^" ]+\\.js">$`,
        ),
      ),
    ])
    // Nothing of the app is fetched before the first paint.
    expect(body).not.toMatch(/<link rel="modulepreload"/)
  })

  it('gets the sign-up form in the HTML', async () => {
    const m = await messages()
    const root = rootOf((await get('/signup', c.host, c.lang)).body)
    expect(root).toContain(`<h1>${m.signup_title}</h1>`)
    expect(root).toMatch(/<input[^>]*type="email"/)
  })

  it('gets a profile with its name and the sign-up call in the HTML', async () => {
    const profile = (await (await fetch(`${site.url}/api/profile.php?id=${profileId}`)).json()) as {
      profile: { name: string }
    }
    const root = rootOf((await get(`/members/${profileId}`, c.host, c.lang)).body)
    expect(root).toMatch(new RegExp(`<h1 class="profile-page__name">${profile.profile.name}`))
    expect(root).toContain('href="/signup"')
  })

  it("gets a lander as the landers' light entry (client-rendered, 87 KB of script), not the app", async () => {
    // The server sends a lander to the slug of the visitor's language and the site's niche.
    const first = await get(
      `/landers/gallery/${slugFor('gallery', c.locale, c.niche)}`,
      c.host,
      c.lang,
    )
    const { status, body } = first.location
      ? await get(new URL(first.location, site.url).pathname, c.host, c.lang)
      : first
    expect(status).toBe(200)
    expect(body).toMatch(new RegExp(`<script[^>]+src="/l/${c.locale}/assets/lander-[^"]+\\.js"`))
    expect(body).not.toMatch(/src="\/assets\/shell-/)
    expect(body).not.toContain('id="page-seed"')
  })
})

it('gives a member (session cookie) the plain shell', async () => {
  for (const path of ['/', '/login', `/members/${profileId}`]) {
    const { status, body } = await get(path, '127.0.0.1', 'en', 'sid=someone')
    expect(status).toBe(200)
    expect(body).toContain('<div id="root"><div class="boot-skeleton"')
    expect(body).not.toContain('id="page-seed"')
  }
})

it('gives a page that is not public the plain shell', async () => {
  const { body } = await get('/chats', '127.0.0.1', 'en')
  expect(body).toContain('<div id="root"><div class="boot-skeleton"')
})

it("builds each language's light entry with that language's texts only", async () => {
  const dist = fileURLToPath(new URL('../dist/l/', import.meta.url))
  const scripts = (locale: string) =>
    readdirSync(`${dist}${locale}/assets`)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(`${dist}${locale}/assets/${f}`, 'utf8'))
      .join('\n')
  const text = async (locale: string) =>
    (
      (await import(`../messages/${locale}.json`, { with: { type: 'json' } })).default as Record<
        string,
        string
      >
    ).home_how_title
  const [de, nl, en] = [await text('de'), await text('nl'), await text('en')]
  const german = scripts('de')
  expect(german).toContain(de)
  expect(german).not.toContain(nl)
  expect(german).not.toContain(en)
  const english = scripts('en')
  expect(english).toContain(en)
  expect(english).not.toContain(de)
})
