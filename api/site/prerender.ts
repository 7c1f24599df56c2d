// Public pages rendered by the server for guests, so the first paint needs no
// script (docs/performance.md, "HTML that paints before JavaScript"). `vite build` writes
// the app's server render to dist-ssr/entry-server.js (tools/ssr-vite-plugin.ts, app/entry-server.tsx);
// this module loads it and puts its HTML, with the values it was rendered
// with, into the dressed shell. The browser hydrates that HTML (app/main.tsx).
//
// Who gets it: a visitor without a session cookie, on a page the app lists
// as public (home, login, sign-up, a profile, the landers). A member keeps
// the plain shell (their pages are drawn from the local store), and so does
// any page the render declines (a redirect, a page not found). A render that
// fails is logged and answered with the plain shell: never a 500.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  CompanyInfo,
  type Locale,
  PackagesResponse,
  type Profile,
  ProfileResponse,
  Settings,
  ShowcaseResponse,
} from '../contract/index.ts'
import { SESSION_COOKIE } from '../http/session.ts'

/** The values a prerendered page was rendered with; the app's copy is app/data/page-seed.ts. */
export interface PageSeed {
  locale: Locale
  kv: { settings: Settings; companyInfo: CompanyInfo; packages?: PackagesResponse }
  profile?: ProfileResponse['profile']
  /** On the home: the guest showcase as GET /api/showcase.php answers it (api/search/showcase.ts). */
  showcase?: Profile[]
}

/** app/entry-server.tsx `renderPage`: the inside of #root, or null for the plain shell. */
export type RenderPage = (url: string, seed: PageSeed) => Promise<string | null>

/** Where the server render of a build in `distDir` lives (tools/ssr-vite-plugin.ts `ssrDirOf`). */
export const ssrDirOf = (distDir: string) => `${resolve(distDir)}-ssr`

/** The built server render, or null when the build has none (the plain shell then serves). */
export async function loadPageRenderer(ssrDir: string): Promise<RenderPage | null> {
  const entry = `${ssrDir}/entry-server.js`
  if (!existsSync(entry)) return null
  const mod: { renderPage?: RenderPage } = await import(pathToFileURL(entry).href)
  return typeof mod.renderPage === 'function' ? mod.renderPage : null
}

/** Whether the request carries a session cookie (a member, or one whose session may still live). */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '')
    .split(';')
    .some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`))
}

/** JSON safe inside a `<script>` element: no `</script>`, no comment or CDATA openers. */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

/** Id of the seed's script element (app/data/page-seed.ts `PAGE_SEED_ID`). */
export const PAGE_SEED_ID = 'page-seed'

/**
 * The shell with the page's HTML in #root and its seed as JSON data (type
 * application/json is never executed, so the CSP needs no hash for it).
 */
export function shellWithPage(
  shell: string,
  html: string,
  seed: PageSeed,
  boot: string | null = null,
  styles: ReadonlyMap<string, string> = new Map(),
): string {
  const data = `<script type="application/json" id="${PAGE_SEED_ID}">${jsonForScript(seed)}</script>`
  const page = shell.replace(
    // The shell's #root holds the layout skeleton (app/index.html): the page replaces it.
    /<div id="root">(?:<div class="boot-skeleton"[\s\S]*?<\/div><\/div><\/div><\/div>)?<\/div>/,
    // A replacer function: `$` in the page's HTML is not a replacement pattern.
    () => `<div id="root">${html}</div>${data}`,
  )
  return inlineStyles(boot ? bootAfterPaint(page, boot) : page, styles)
}

const STYLESHEET = /<link rel="stylesheet" crossorigin href="([^"]+)">/g

/**
 * The page's stylesheets in the page itself (`styles`: address → text, the
 * built CSS read once at start): on a first visit over a slow network each
 * stylesheet is a round trip the first paint waits for, the HTML's own
 * bytes are not. A stylesheet not in `styles` stays a link. The policy
 * allows inline styles (`style-src 'unsafe-inline'`), not inline scripts.
 */
export function inlineStyles(page: string, styles: ReadonlyMap<string, string>): string {
  if (styles.size === 0) return page
  return page.replace(STYLESHEET, (link, href: string) => {
    const css = styles.get(href)
    // `</style` cannot end the element early: CSS has no use for it.
    return css === undefined || /<\/style/i.test(css) ? link : `<style>${css}</style>`
  })
}

/** Built files named by their content: the app's, and the light entry's per language (`/l/<locale>/`). */
export const BUILT_ASSET_PATH = /^\/(l\/[a-z]{2}\/)?assets\//

/**
 * The built stylesheets the shell links (`/assets/x.css`, a light entry's
 * `/l/<locale>/assets/x.css` → its text), for inlineStyles.
 */
export function shellStyles(distDir: string, shell: string): Map<string, string> {
  const styles = new Map<string, string>()
  for (const [, href] of shell.matchAll(STYLESHEET)) {
    const file = `${distDir}${href}`
    if (href && BUILT_ASSET_PATH.test(href) && href.endsWith('.css') && existsSync(file))
      styles.set(href, readFileSync(file, 'utf8'))
  }
  return styles
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/g
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="[^"]+">/g

/**
 * The page's entry scripts fetched and evaluated after its first paint
 * (app/boot.ts): the boot script is the page's one script and carries their
 * addresses in `data-boot`. The HTML is there already; evaluating the app
 * first would hold its paint, and fetching it first (a `modulepreload` link)
 * would share a slow network's first round trips with the HTML and the
 * profile's photo: Lighthouse's mobile LCP was 1.7–1.9 s with the links,
 * the page's own bytes and its photo being what the first paint needs.
 */
export function bootAfterPaint(page: string, boot: string): string {
  const entries: string[] = []
  const rest = page
    .replace(ENTRY_SCRIPT, (_, src: string) => {
      entries.push(src)
      return ''
    })
    // What the entry imports: fetched when the boot script imports it.
    .replace(MODULE_PRELOAD, '')
  if (entries.length === 0) return page
  return rest.replace(
    '</body>',
    () => `<script type="module" src="${boot}" data-boot="${entries.join(' ')}"></script></body>`,
  )
}

/** The built boot script's address (app/boot.ts), from Vite's manifest; null if the build has none. */
export function bootScriptOf(distDir: string): string | null {
  const manifest = `${distDir}/.vite/manifest.json`
  if (!existsSync(manifest)) return null
  try {
    const entries = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, { file?: string }>
    const file = entries['boot.ts']?.file
    return file ? `/${file}` : null
  } catch {
    return null
  }
}

/** The seed's values as the sync worker would store them (parsed by the same schemas). */
export const pageSeed = (
  locale: Locale,
  settings: unknown,
  company: unknown,
  page: {
    /** A profile page's GET /api/profile.php answer. */
    profile?: unknown
    /** The home's GET /api/showcase.php profiles. */
    showcase?: unknown
    /** The home's GET /api/packages.php answer (the hero's "from" price). */
    packages?: unknown
  } = {},
): PageSeed => ({
  locale,
  kv: {
    settings: Settings.parse(settings),
    companyInfo: CompanyInfo.parse(company),
    ...(page.packages === undefined ? {} : { packages: PackagesResponse.parse(page.packages) }),
  },
  ...(page.profile === undefined ? {} : { profile: ProfileResponse.parse(page.profile).profile }),
  ...(page.showcase === undefined
    ? {}
    : { showcase: ShowcaseResponse.parse({ profiles: page.showcase }).profiles }),
})

/** How long a host's showcase is reused for the guest home's HTML (60 s, docs/performance.md). */
export const SHOWCASE_REUSE_MS = 60_000

/**
 * `load()` answered from memory, by `key`, for `ttlMs` after it was asked: the guest
 * home's showcase per host (its settings pick the niche and country), so a
 * burst of first visits sends its search once a minute, not once a hit. A
 * member hidden or a photo withdrawn meanwhile can stay in a guest's HTML for
 * at most that long; the client's own GET /api/showcase.php, through the sync
 * worker, replaces it once it answers. A load that fails is forgotten at once
 * (the next hit tries again), and concurrent hits share one load.
 */
export function reusedFor<T>(
  ttlMs: number,
  now: () => number = Date.now,
): (key: string, load: () => Promise<T>) => Promise<T> {
  const kept = new Map<string, { at: number; value: Promise<T> }>()
  return (key, load) => {
    const at = now()
    const hit = kept.get(key)
    if (hit && at - hit.at < ttlMs) return hit.value
    // Expired entries of other hosts go too: the map holds the hosts of the last minute.
    for (const [k, v] of kept) if (at - v.at >= ttlMs) kept.delete(k)
    const value = load()
    kept.set(key, { at, value })
    value.catch(() => {
      if (kept.get(key)?.value === value) kept.delete(key)
    })
    return value
  }
}
