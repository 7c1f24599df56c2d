// Main-thread JavaScript of each entry page on its first load, measured in
// Chromium against the built site: every script the page itself fetched by
// its load event (module scripts, modulepreloads, route chunks; not the sync
// worker's own thread nor the service worker), counted as gzip -9 of the
// built file, as a phone on a slow network downloads it.
//   node --import tsx bench/page-js.ts     (after `npm run build`; `npm run size` runs it)
//   ... --files                            also lists each page's scripts, largest first
// Exits 1 when a page is over its limit.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants, gzipSync } from 'node:zlib'
import { DEMO, launchBrowser, newContext, startSite } from '../e2e/harness.ts'
import { cookieName } from '../messages/paraglide/runtime.js'

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const KB = 1024

/**
 * The goals: 100 KB for a guest's first page, 130 KB for a member's first
 * /members. `limit` is what fails the check: each page's own figure when the
 * limit was last set plus LIMIT_MARGIN_KB, so any growth beyond that fails
 * CI, also while a page is well under its goal.
 */
export interface Entry {
  name: string
  path: string
  member?: boolean
  /** The visitor's language (the locale cookie), else English. */
  locale?: string
  goal: number
  limit: number
}

const profilePath = '/members/{profile}'

/**
 * What a page may grow before the check fails. A page that must grow more
 * (a feature that needs its bytes) raises its own limit in the same change,
 * with the new figure, so the growth is a decision in review.
 */
const LIMIT_MARGIN_KB = 2
/** The limit of a page measured at `kb` (KB, as printed). */
const limitAt = (kb: number) => Math.round((kb + LIMIT_MARGIN_KB) * KB)

const GUEST = 100 * KB
const MEMBERS = 130 * KB
const guest = (name: string, path: string, measured: number, locale?: string): Entry => ({
  name,
  path,
  ...(locale ? { locale } : {}),
  goal: GUEST,
  limit: limitAt(measured),
})

/**
 * Every public entry page and a member's first /members, each with the
 * figure it was measured at (2026-11-28; the same in repeated runs): every
 * guest entry page's first load is the light entry of its language
 * (app/lander.tsx, tools/light-vite-plugin.ts), the members' shell holds what
 * /members and its layouts use (vite.config.ts MEMBERS_FIRST_LOAD).
 */
export const ENTRIES: Entry[] = [
  guest('home', '/', 94.8),
  guest('login', '/login', 85.1),
  guest('signup', '/signup', 91.8),
  // Raised 2026-11-29 from 88.7 to the measured 90.9 (main measured 90.6
  // that day): the stored session's and the store hooks' use of the page's
  // first reads (app/data/session.ts, app/data/stored.ts; the reads' own code,
  // sync/store/peek.ts, comes with the app's shell only), shared with the
  // light entry.
  guest('profile (guest)', profilePath, 90.9),
  // Each language has its own copy of the light entry: the longest texts.
  guest('home (de)', '/', 95.1, 'de'),
  guest('signup (pl)', '/signup', 92.3, 'pl'),
  guest('video', '/landers/video', 80.0),
  guest('maplanding', '/landers/maplanding', 80.2),
  guest('socialnetwork', '/landers/socialnetwork', 80.5),
  guest('collagelanding', '/landers/collagelanding', 79.8),
  guest('transitions', '/landers/transitionsvideolanding', 79.9),
  guest('gallery', '/landers/gallery', 80.1),
  guest('alonetonight', '/landers/alonetonight', 79.8),
  guest('iconslanding', '/landers/iconslanding', 81.3),
  guest('member landing2', '/members/{profile}/landing2', 80.4),
  {
    name: 'members (member)',
    path: '/members',
    member: true,
    goal: MEMBERS,
    // Raised 2026-11-29 from 126.0 to the measured 128.2: the phone's filter
    // sheet with its chips, the picture placeholder (app/ui/Photo.tsx) and
    // the one-price line, all on a member's first /members; still under the
    // 130 KB goal. Raised 2026-11-30 to the measured 130.4 (0.4 KB over the
    // goal): keeping the stored page and taking it away
    // (app/features/site/stored-page.ts) must run in the shell, since the
    // layer must go in the same task as the app's rows come; as a chunk of
    // its own it measured 130.8 (one file more).
    limit: limitAt(130.4),
  },
]

/** Files the worker thread or the service worker load: not on the main thread. */
const OFF_MAIN_THREAD = /\/(sw|sw-push)\.js|\/assets\/worker-[^/]+\.js/

const gzipSize = (urlPath: string) =>
  gzipSync(readFileSync(path.join(DIST, urlPath)), { level: constants.Z_BEST_COMPRESSION }).length

/** Measures `entries` (default: the entry pages above) and exits 1 when one is over its limit. */
export async function measurePages(entries: Entry[] = ENTRIES) {
  const site = await startSite()
  const browser = await launchBrowser()
  let failed = false
  try {
    // A real member id for the guest's profile page.
    const probe = await newContext(browser, site)
    await probe.request.post('/api/login.php', {
      data: DEMO,
      headers: { origin: site.url },
    })
    const search = (await (await probe.request.get('/api/search.php')).json()) as {
      profiles: { id: number }[]
    }
    const profile = search.profiles[0]?.id ?? 2
    await probe.close()

    console.log(`main-thread JS on first load, gzip -9 (${new Date().toISOString()})`)
    console.log(
      `${'page'.padEnd(20)} ${'KB'.padStart(7)} ${'goal'.padStart(6)} ${'limit'.padStart(6)}  files`,
    )
    for (const entry of entries) {
      const context = await newContext(browser, site)
      if (entry.locale) {
        await context.addCookies([{ name: cookieName, value: entry.locale, url: site.url }])
      }
      if (entry.member) {
        await context.request.post('/api/login.php', { data: DEMO, headers: { origin: site.url } })
      }
      const page = await context.newPage()
      await page.goto(entry.path.replace('{profile}', String(profile)), { waitUntil: 'load' })
      // The route's own chunks load after the shell's script runs and the
      // worker has answered the stored session, which can take longer than
      // the network's quiet half second on a busy machine: wait for the
      // page's heading first. A guest's page then goes quiet; a member's
      // keeps its event stream open, so wait for the members grid instead.
      if (entry.member) {
        await page.waitForFunction(
          () => document.querySelectorAll('main a[href^="/members/"]').length >= 3,
          undefined,
          { timeout: 60_000 },
        )
      } else {
        await page.waitForSelector('#app-root h1', { timeout: 60_000 })
        // A prerendered page has its heading before any script ran: wait
        // until React holds the root too (app/lander.tsx imports the page's
        // chunks first). Else a busy machine's long parse of the entry can
        // pass for the network's quiet half second and the page's own chunks
        // go uncounted (home measured 86.1 KB once instead of 94.8).
        await page.waitForFunction(
          () =>
            Object.keys(document.getElementById('root') ?? {}).some((k) =>
              k.startsWith('__reactContainer$'),
            ),
          undefined,
          { timeout: 60_000 },
        )
        await page.waitForLoadState('networkidle')
      }
      const urls = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name))
          .filter((u) => u.origin === location.origin && u.pathname.endsWith('.js'))
          .map((u) => u.pathname),
      )
      const files = [...new Set(urls)].filter((u) => !OFF_MAIN_THREAD.test(u))
      const bytes = files.reduce((sum, f) => sum + gzipSize(f), 0)
      await context.close()
      if (process.argv.includes('--files')) {
        for (const f of files.sort((a, b) => gzipSize(b) - gzipSize(a)))
          console.log(`    ${(gzipSize(f) / KB).toFixed(1).padStart(6)} ${f}`)
      }
      const over = bytes > entry.limit
      failed ||= over
      console.log(
        `${entry.name.padEnd(20)} ${(bytes / KB).toFixed(1).padStart(7)} ${String(entry.goal / KB).padStart(6)} ${(entry.limit / KB).toFixed(1).padStart(6)}  ${files.length}${over ? '  OVER LIMIT' : bytes > entry.goal ? '  (over goal)' : ''}`,
      )
    }
  } finally {
    await browser.close()
    await site.stop()
  }
  if (failed) process.exit(1)
}

// Run directly: npm run size.
if (process.argv[1] === fileURLToPath(import.meta.url)) await measurePages()
