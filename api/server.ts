import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import type { AppDeps } from './app.ts'
import { type Api, createApi, picturesOf } from './app.ts'
import { loadAccountsConfig, loadServeConfig } from './config.ts'
import { Locale, type Profile } from './contract/index.ts'
import { type GuestPage, guestPageOf, lightPageOf, parseMemberId } from './contract/rules/index.ts'
import { answerBytes } from './http/answer-bytes.ts'
import { isBot } from './http/bots.ts'
import { requestHost } from './http/host.ts'
import { requestLocale, shellInLocale } from './http/locale.ts'
import { primaryReads, type ReadsFor, readsOf } from './http/reads.ts'
import {
  contentSecurityPolicy,
  SERVICE_WORKER_CSP,
  securityHeaders,
} from './http/security-headers.ts'
import { withDirectStreams } from './http/sse.ts'
import { servePictures } from './images/index.ts'
import { accountsFromEnv } from './mail/site.ts'
import { currentStaff } from './operator/index.ts'
import { showcase } from './search/index.ts'
import {
  companyInfo,
  loadSettings,
  type Operator,
  operatorSettings,
  shellFor,
} from './settings/index.ts'
import { liveMember } from './shared/members.ts'
import {
  BUILT_ASSET_PATH,
  bootScriptOf,
  formLogin,
  hasSessionCookie,
  loadPageRenderer,
  loadRouteTable,
  pageSeed,
  type RenderPage,
  reusedFor,
  SHOWCASE_REUSE_MS,
  shellStyles,
  shellWithPage,
  ssrDirOf,
} from './site/index.ts'
import { trafficRedirects } from './traffic/index.ts'

export interface ServerOptions extends AppDeps {
  /** The built PWA (vite build output). */
  distDir: string
  /** The server render of the public pages (default: `<distDir>-ssr`, written by `vite build`). */
  ssrDir?: string
  /** Serve the build's source maps (default: SOURCE_MAPS=public, api/config.ts); else they answer 404. */
  publicSourceMaps?: boolean
}

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** A source map or a compressed copy of one (`x.js.map`, `x.js.map.br`). */
const SOURCE_MAP = /\.map(?:\.\w+)?$/i
/** A built file a source map may belong to. */
const MAPPED = /\.(?:js|mjs|css)$/

/** Smaller answers are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024

/**
 * The one Node process of `npm start`: API, pictures and the PWA. Every path
 * that is not an API call, a picture or a built file gets the app shell, whose
 * router shows the page; a path no route of the app matches (dist/routes.json)
 * gets it with HTTP 404, so the router shows the error page (spec §2), and a
 * bot gets the plain status without the app.
 */
export function createServer({ distDir, ssrDir, publicSourceMaps, ...deps }: ServerOptions) {
  // One store for the API (uploads, deletion, export) and /media.
  const pictures = picturesOf(deps)
  const accounts = deps.accounts ?? accountsFromEnv()
  const dist = resolve(distDir)
  const build = readBuild(dist)
  const trustProxy = deps.accounts?.trustProxy ?? loadAccountsConfig().trustProxy
  // Source maps are the app's whole source: built for debugging, served only
  // when asked for. The build does not point the scripts at them (vite.config.ts
  // `sourcemap: 'hidden'`); when they are public, a SourceMap header does.
  const mapsPublic = publicSourceMaps ?? loadServeConfig().publicSourceMaps
  const api = createApi({ ...deps, ...(pictures ? { pictures } : {}), accounts })
  const shell = shellAnswer({
    db: deps.db,
    build,
    trustProxy,
    api,
    ssrDir: ssrDir ?? ssrDirOf(dist),
  })

  // Event streams write to Node's response once every middleware here
  // finished their head (api/http/sse.ts).
  return withDirectStreams(
    new Hono()
      .use(securityHeaders(accounts))
      // API JSON and the shell, compressed on the fly above 1 KB, read once
      // and compressed in one call (api/http/answer-bytes.ts); hono's
      // compress for any other compressible answer, never the event stream
      // (a stream must flush each poke). Built files come precompressed
      // (tools/precompress-vite-plugin.ts).
      .use('*', compress({ threshold: COMPRESS_MIN_BYTES }))
      .use('*', answerBytes({ threshold: COMPRESS_MIN_BYTES }))
      .route('/', api)
      .use(
        '/media/*',
        servePictures(pictures, {
          db: deps.db,
          staff: async (c) => (await currentStaff(c, deps.db)) !== null,
        }),
      )
      .get('/media/*', (c) => c.notFound())
      // Spec §2 server route rules and the landers' localized slugs, before the shell.
      .use('*', trafficRedirects(deps.db))
      .get('/', (c) => shell(c))
      .get('/index.html', (c) => shell(c))
      .use('*', builtFileHeaders(mapsPublic, sourceMapLookup(dist)))
      .use('*', hiddenSourceMaps(mapsPublic))
      .use('*', builtFiles(dist))
      .get('/operator/*', consolePages(deps.db, shell))
      // The login form sent before the app hydrated (api/site/form-login.ts).
      .post('/login', (c) => formLogin(c, api))
      // The sign-up forms (home, /signup) sent before the app hydrated: their
      // steps need the app, so the page comes again (a GET, by then with the
      // app running) rather than a dead end. Nothing is stored.
      .post('/', (c) => c.redirect('/', 303))
      .post('/signup', (c) => c.redirect(`/signup${new URL(c.req.url).search}`, 303))
      // A member page's "does the member exist" read, on the replica when one is used.
      .get(
        '*',
        appPages(build.isPage, shell, deps.reads ? readsOf(deps.reads) : primaryReads(deps.db)),
      ),
  )
}

/** What `vite build` left in dist/ for the shell, read once at start. */
interface Build {
  indexHtml: string
  /** Whether a route of the app matches the path (dist/routes.json). */
  isPage: (path: string) => boolean
  /** The light entry's shell in a language, or the app's shell if the build has none. */
  lightShell: (locale: Locale) => string
  bootScript: string | null
  inlinedStyles: Map<string, string>
}

function readBuild(dist: string): Build {
  const indexHtml = existsSync(`${dist}/index.html`)
    ? readFileSync(`${dist}/index.html`, 'utf8')
    : '<!doctype html><title>Build missing</title><p>Run npm run build.</p>'
  const isPage = loadRouteTable(`${dist}/routes.json`) ?? (() => true)
  // The light entry (app/lander.tsx, docs/performance.md, "Main-thread JavaScript"): the
  // first load of a lander, a member landing page or a guest's entry page,
  // without the router; one copy per language, each with its texts only
  // (dist/l/<locale>/, tools/light-vite-plugin.ts); the app's shell if the
  // build has none.
  const lightShells = new Map<Locale, string>()
  for (const locale of Locale.options) {
    const file = `${dist}/l/${locale}/lander.html`
    if (existsSync(file)) lightShells.set(locale, readFileSync(file, 'utf8'))
  }
  const lightShell = (locale: Locale) => lightShells.get(locale) ?? indexHtml
  // A prerendered page's first script (app/boot.ts): the light entry after
  // the first paint, which hydrates it without the router (app/lander.tsx).
  const bootScript = bootScriptOf(dist)
  // ...and its stylesheets in the page (one round trip less before its first paint).
  const inlinedStyles = new Map(
    [...lightShells.values()].flatMap((html) => [...shellStyles(dist, html)]),
  )
  return { indexHtml, isPage, lightShell, bootScript, inlinedStyles }
}

/** Whether a built script or stylesheet has a source map beside it (remembered per path). */
function sourceMapLookup(dist: string) {
  const hasMap = new Map<string, boolean>()
  return (path: string) => {
    if (!MAPPED.test(path)) return false
    let known = hasMap.get(path)
    if (known === undefined) {
      known = existsSync(`${dist}${path}.map`)
      if (hasMap.size < 10_000) hasMap.set(path, known)
    }
    return known
  }
}

type Shell = (c: Context, status?: 200 | 404, options?: { light?: boolean }) => Promise<Response>

/**
 * The app shell. Spec §4: the shell's `<html lang>` in the member's language, and spec §2:
 * the root classes of the site the request was sent to (template, niche),
 * before any script runs; so `/` and `/index.html` are answered here, not
 * as files. The service worker precaches /index.html from the same host,
 * so an installed app keeps its site's classes too.
 */
function shellAnswer({
  db,
  build,
  trustProxy,
  api,
  ssrDir,
}: {
  db: AppDeps['db']
  build: Build
  trustProxy: boolean
  api: Api
  ssrDir: string
}): Shell {
  const { indexHtml, lightShell, bootScript, inlinedStyles } = build
  const prerendered = guestPageRender(db, api, ssrDir)
  return async (c, status = 200, { light = false } = {}) => {
    c.header('Cache-Control', 'no-cache')
    c.header('Vary', 'Cookie, Accept-Language')
    const locale = requestLocale(c.req.header('cookie'), c.req.header('accept-language'))
    const host = requestHost(c, trustProxy)
    const site = await operatorSettings(db, host)
    // A guest on a public entry page: the page itself, so it paints before
    // any script, in the light entry's shell (app/lander.tsx hydrates it).
    const guestPage = status === 200 ? guestPageOf(c.req.path) : null
    if (guestPage && !hasSessionCookie(c.req.header('cookie'))) {
      const rendered = await prerendered(c, guestPage, locale, host, site)
      if (rendered) {
        const page = shellFor(shellInLocale(lightShell(locale), locale), site)
        return c.html(
          shellWithPage(page, rendered.html, rendered.seed, bootScript, inlinedStyles),
          status,
        )
      }
    }
    const page = light ? lightShell(locale) : indexHtml
    return c.html(shellFor(shellInLocale(page, locale), site), status)
  }
}

/**
 * A guest's public page rendered on the server, or null for the plain shell
 * (docs/performance.md, "HTML that paints before JavaScript").
 */
function guestPageRender(db: AppDeps['db'], api: Api, ssrDir: string) {
  // Loaded at once (about 1.5 MB of code), so the first guest does not wait for it.
  const renderer: Promise<RenderPage | null> = loadPageRenderer(ssrDir).catch((error: unknown) => {
    console.error('prerender: the server render did not load; serving the plain shell', error)
    return null
  })
  // The guest home's showcase, per host (its settings pick niche and country):
  // reused for a minute, so the home's HTML adds no search to a hit but the
  // first of each minute (api/site/prerender.ts `reusedFor`).
  const showcaseOf = reusedFor<Profile[]>(SHOWCASE_REUSE_MS)
  return async (c: Context, page: GuestPage, locale: Locale, host: string, site: Operator) => {
    const url = c.req.url
    try {
      const render = await renderer
      if (!render) return null
      // The shell read this host's settings already: one read of them per page.
      const settings = await loadSettings(db, host, site)
      const { pathname, search } = new URL(url)
      // A profile page shows the profile in its first paint: what the guest's
      // own GET /api/profile.php would answer, asked in-process.
      const profile =
        typeof page === 'object'
          ? await api.request(
              `/api/profile.php?id=${page.member}`,
              { headers: c.req.raw.headers },
              c.env,
            )
          : undefined
      // The home shows the showcase's photos in its first paint: what the
      // guest's own GET /api/showcase.php answers (the search domain's query).
      // Should it fail, the page is rendered without it (the worker fills it in).
      const shown =
        page === 'home'
          ? await showcaseOf(host, () => showcase(db, settings)).catch((error: unknown) => {
              console.error('prerender: the showcase failed; the home renders without it', error)
              return undefined
            })
          : undefined
      const seed = pageSeed(
        locale,
        settings,
        companyInfo(settings),
        profile?.status === 200 ? await profile.json() : undefined,
        shown,
      )
      const html = await render(`${pathname}${search}`, seed)
      return html === null ? null : { html, seed }
    } catch (error) {
      // The plain shell still works: the app renders itself in the browser.
      console.error('prerender failed', url, error)
      return null
    }
  }
}

/** The files of the build: dist/x.js.br or .gz, chosen by Accept-Encoding, with Vary: Accept-Encoding. */
const builtFiles = (dist: string) => serveStatic({ root: dist, precompressed: true })

/**
 * A built file's caching, the service worker's own policy and, when they are
 * public, the SourceMap header. Set after serveStatic answered (its onFound
 * runs too late to add any).
 */
function builtFileHeaders(
  mapsPublic: boolean,
  mapOf: (path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    await next()
    if (c.res.status !== 200) return
    // Hashed assets never change; the worker and the manifest must be
    // revalidated so an update reaches members.
    const path = c.req.path
    c.res.headers.set('Cache-Control', BUILT_ASSET_PATH.test(path) ? IMMUTABLE : 'no-cache')
    // The service worker runs under the policy of its own script.
    if (path === '/sw.js') {
      c.res.headers.set('Content-Security-Policy', contentSecurityPolicy(SERVICE_WORKER_CSP))
    }
    if (mapsPublic && mapOf(path)) {
      c.res.headers.set('SourceMap', `${path.slice(path.lastIndexOf('/') + 1)}.map`)
    }
  }
}

/** A source map, or a compressed copy of one, only when they are public. */
function hiddenSourceMaps(mapsPublic: boolean): MiddlewareHandler {
  return async (c, next) => {
    if (!mapsPublic && SOURCE_MAP.test(c.req.path)) return c.notFound()
    await next()
  }
}

/**
 * The operator's console: its pages exist only for staff. Anyone else
 * (a member too) gets the 404 of a page that does not exist; only the
 * sign-in page answers everyone.
 */
function consolePages(db: AppDeps['db'], shell: Shell): MiddlewareHandler {
  return async (c, next) => {
    c.header('X-Robots-Tag', 'noindex')
    if (c.req.path === '/operator/login' || (await currentStaff(c, db))) return next()
    return shell(c, 404)
  }
}

/** A member's profile and chat pages: the member, as the app reads the id. */
const MEMBER_PAGE = /^\/members\/([^/]+)(?:\/chat)?\/?$/

/**
 * Whether a page that names a member names one that exists (an unknown or
 * deleted member's profile or chat is a page that does not exist: 404, as
 * GET /api/profile.php answers). Any other path: true.
 */
async function memberPageExists(db: AppDeps['db'], path: string): Promise<boolean> {
  const raw = MEMBER_PAGE.exec(path)?.[1]
  if (raw === undefined) return true
  const id = parseMemberId(raw)
  return id !== null && (await liveMember(db, id)) !== undefined
}

/**
 * Any other page. Spec §2: a path no page of the app matches answers 404 (the app's
 * error page); a bot gets the plain status without the app.
 */
function appPages(isPage: (path: string) => boolean, shell: Shell, readsFor: ReadsFor) {
  return async (c: Context): Promise<Response> => {
    const known = isPage(c.req.path) && (await memberPageExists(readsFor(c), c.req.path))
    if (!known && isBot(c.req.header('user-agent'))) return c.text('404 Not Found', 404)
    // A lander's first load is the landers' light entry (client-rendered,
    // docs/landers-and-tracking.md); other public pages are prerendered for guests.
    if (known && lightPageOf(c.req.path)) return shell(c, 200, { light: true })
    return shell(c, known ? 200 : 404)
  }
}
