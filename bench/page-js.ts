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
 * /members. `limit` is what fails the check: the goal where it is met, else
 * the figure measured when the goal was set, so it can only get better.
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

/** KB over which a page fails the check (see ENTRIES). */
const LIMITS = {
  // The goal: every guest entry page's first load is the light entry of its
  // language (app/lander.tsx, tools/light-vite-plugin.ts): 85-95 KB.
  guest: 100 * KB,
  lander: 100 * KB,
  // The goal: the shell holds what /members and its layouts use (128.1 on
  // 2026-11-26; vite.config.ts MEMBERS_FIRST_LOAD).
  members: 130 * KB,
}

const GUEST = 100 * KB
const lander = (name: string, path: string, limit: number): Entry => ({
  name,
  path,
  goal: GUEST,
  limit,
})

/**
 * Every public entry page and a member's first /members, each failing the
 * check above its goal.
 */
export const ENTRIES: Entry[] = [
  { name: 'home', path: '/', goal: GUEST, limit: LIMITS.guest },
  { name: 'login', path: '/login', goal: GUEST, limit: LIMITS.guest },
  { name: 'signup', path: '/signup', goal: GUEST, limit: LIMITS.guest },
  { name: 'profile (guest)', path: profilePath, goal: GUEST, limit: LIMITS.guest },
  // Each language has its own copy of the light entry: the longest texts.
  { name: 'home (de)', path: '/', locale: 'de', goal: GUEST, limit: LIMITS.guest },
  { name: 'signup (pl)', path: '/signup', locale: 'pl', goal: GUEST, limit: LIMITS.guest },
  lander('video', '/landers/video', LIMITS.lander),
  lander('maplanding', '/landers/maplanding', LIMITS.lander),
  lander('socialnetwork', '/landers/socialnetwork', LIMITS.lander),
  lander('collagelanding', '/landers/collagelanding', LIMITS.lander),
  lander('transitions', '/landers/transitionsvideolanding', LIMITS.lander),
  lander('gallery', '/landers/gallery', LIMITS.lander),
  lander('alonetonight', '/landers/alonetonight', LIMITS.lander),
  lander('iconslanding', '/landers/iconslanding', LIMITS.lander),
  lander('member landing2', '/members/{profile}/landing2', LIMITS.lander),
  {
    name: 'members (member)',
    path: '/members',
    member: true,
    goal: 130 * KB,
    limit: LIMITS.members,
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
        `${entry.name.padEnd(20)} ${(bytes / KB).toFixed(1).padStart(7)} ${String(entry.goal / KB).padStart(6)} ${String(entry.limit / KB).padStart(6)}  ${files.length}${over ? '  OVER LIMIT' : bytes > entry.goal ? '  (over goal)' : ''}`,
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
