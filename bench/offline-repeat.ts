// Repeat visit offline (goal: painted within 150 ms): the chat list and the members grid painted
// from IndexedDB after a navigation, with no network at all. Against the
// built site as `npm start` runs it (e2e/harness.ts: fresh PGlite, demo seed)
// in the system Chromium:
//   npm run build && node --import tsx bench/offline-repeat.ts [--runs=5] [--save-html=DIR] [--trace=FILE] [--tab=same]
// The demo member logs in, the pages sync their data (and the service worker
// takes control), the browser goes offline (context.setOffline), then each
// run loads /chats and /members afresh (a new document: the service worker's
// cached shell, the sync worker's IndexedDB) and measures, in the page, from
// the navigation's start (performance.now() is 0 there) to the first frame
// after the first chat row / member tile is in the document and has a size.
// Each run opens the page in a new tab, as a member coming back does (from
// the home screen or a bookmark), and closes it after: --tab=same loads it
// in the tab of the run before instead, as until 2026-11-30, where tearing
// down the previous page (its unload, its layers, its sync worker) runs in
// the same renderer during the new page's first frame.
// It prints each run, the median and the goal (≤ 150 ms); a benchmark, not a
// test: it never fails on a time. --trace=FILE records a Chromium trace of
// the measured runs into FILE, for bench/trace-frames.ts.
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import type { Page } from 'playwright-core'
import { DEMO, launchBrowser, newContext, startSite } from '../e2e/harness.ts'

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5)
const GOAL_MS = 150
const SAME_TAB = process.argv.includes('--tab=same')

const PAGES = [
  { path: '/chats', what: 'first chat row', selector: '.chat-list__item' },
  { path: '/members', what: 'first member tile', selector: 'ul.grid li.tile' },
] as const

/** Marks, in ms since the navigation started, of when parts of the page first showed. */
interface Marks {
  /** The page's HTML arrived (from the service worker's cache). */
  html?: number
  /** The last script the page loaded by then arrived. */
  scripts?: number
  /** The shell's stylesheet arrived (the first paint waits for it). */
  css?: number
  /** The entry scripts ran (DOMContentLoaded ended). */
  dcl?: number
  /** The page started the sync worker. */
  worker?: number
  /** The stored member known (the root route waits for it): the page's own read of the store. */
  user?: number
  /** The app's root element rendered (the shell's script ran, the root route resolved). */
  root?: number
  /** The first text or picture painted (the browser's first-contentful-paint). */
  fcp?: number
  /** The target element first in the document with a size. */
  dom?: number
  /** The frame after it: painted. */
  paint?: number
}

/**
 * Installed in every new document before its scripts: records the marks in
 * `window.__marks`. A string, not a function: tsx would add helpers to a
 * function's source that the page does not have.
 */
const watch = (selectors: Record<string, string>) => `(() => {
  const selector = ${JSON.stringify(selectors)}[location.pathname]
  if (!selector) return
  const marks = (window.__marks = {})
  const check = () => {
    if (marks.root === undefined && document.getElementById('app-root')) marks.root = performance.now()
    if (marks.dom !== undefined) return
    const el = document.querySelector(selector)
    if (!el || el.getBoundingClientRect().height === 0) return
    marks.dom = performance.now()
    requestAnimationFrame(() => { marks.paint = performance.now() })
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true })
  // The parser's own insertions reach a MutationObserver only at its next
  // microtask checkpoint: each frame looks too.
  const frame = () => { check(); if (marks.dom === undefined) requestAnimationFrame(frame) }
  requestAnimationFrame(frame)
})()`

async function measure(page: Page, path: string): Promise<Marks> {
  await page.goto(path, { waitUntil: 'commit' })
  await page
    .waitForFunction(
      () => (window as unknown as { __marks?: Marks }).__marks?.paint !== undefined,
      undefined,
      { timeout: 30_000 },
    )
    .catch(async (e: unknown) => {
      const state = await page.evaluate(() => ({
        marks: (window as unknown as { __marks?: Marks }).__marks,
        url: location.href,
        text: (document.body.textContent ?? '').slice(0, 500),
      }))
      throw new Error(`${path} never painted its content: ${JSON.stringify(state)}`, { cause: e })
    })
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    const scripts = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.js'))
      .map((e) => (e as PerformanceResourceTiming).responseEnd)
    const css = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.css'))
      .map((e) => (e as PerformanceResourceTiming).responseEnd)
    return {
      ...(window as unknown as { __marks: Marks }).__marks,
      html: nav.responseEnd,
      scripts: Math.max(0, ...scripts),
      css: Math.min(...css),
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      dcl: nav.domContentLoadedEventEnd,
      // The app's marks (sync/client.ts, app/data/session.ts).
      worker: performance.getEntriesByName('sync:worker-start')[0]?.startTime,
      user: performance.getEntriesByName('sync:user-known')[0]?.startTime,
    }
  })
}

/** What bench/trace-frames.ts reads: the threads' tasks, loading marks, frames, raster. */
const TRACE_CATEGORIES = [
  'toplevel',
  'loading',
  'navigation',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink.user_timing',
  'v8.execute',
  'cc',
  'viz',
  'benchmark',
  'ServiceWorker',
]

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const site = await startSite()
const browser = await launchBrowser()
try {
  const context = await newContext(browser, site)
  await context.request.post('/api/login.php', { data: DEMO, headers: { origin: site.url } })
  const page = await context.newPage()
  // Online first: the service worker installs and takes control, the sync
  // worker stores the chats and the first members page.
  await page.goto('/members')
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
  for (const { path, selector } of PAGES) {
    await page.goto(path)
    await page.locator(selector).first().waitFor({ timeout: 60_000 })
  }
  // Let the worker finish writing what it fetched.
  await page.waitForLoadState('networkidle').catch(() => undefined)
  await context.setOffline(true)

  await context.addInitScript({
    content: watch(Object.fromEntries(PAGES.map((p) => [p.path, p.selector]))),
  })

  // The service worker's offline answer of each page, for bench/frame-floor.ts --html.
  const saveTo = process.argv.find((a) => a.startsWith('--save-html='))?.slice(12)
  if (saveTo)
    for (const { path } of PAGES) {
      const answer = await page.goto(path, { waitUntil: 'commit' })
      const file = `${saveTo}/${path.slice(1)}.html`
      writeFileSync(file, (await answer?.text()) ?? '')
      console.log(`saved the offline answer of ${path} in ${file}`)
    }

  const trace = process.argv.find((a) => a.startsWith('--trace='))?.slice(8)
  if (trace) await browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES })
  const results = new Map<string, Marks[]>(PAGES.map((p) => [p.path, []]))
  for (let run = 0; run < RUNS; run++) {
    for (const { path } of PAGES) {
      if (SAME_TAB) results.get(path)!.push(await measure(page, path))
      else {
        const tab = await context.newPage()
        results.get(path)!.push(await measure(tab, path))
        await tab.close()
      }
    }
  }
  if (trace) {
    await browser.stopTracing()
    console.log(`trace written to ${trace} (node --import tsx bench/trace-frames.ts ${trace})`)
  }

  console.log(
    `Repeat visit offline, navigation start → painted (ms), ${RUNS} runs, ${SAME_TAB ? 'in the same tab' : 'each in a new tab'}, ` +
      `${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  )
  for (const { path, what } of PAGES) {
    const runs = results.get(path)!
    const paint = runs.map((r) => r.paint ?? NaN)
    const m = median(paint)
    console.log(
      `${path.padEnd(9)} ${what.padEnd(18)} median ${m.toFixed(0).padStart(4)}  goal ≤ ${GOAL_MS}` +
        `  ${m <= GOAL_MS ? 'met' : 'NOT MET'}   runs ${paint.map((t) => t.toFixed(0)).join(', ')}`,
    )
    const at = (k: keyof Marks) => median(runs.map((r) => r[k] ?? NaN)).toFixed(0)
    console.log(
      `${''.padEnd(28)} medians: HTML ${at('html')}, CSS ${at('css')}, scripts ${at('scripts')}, scripts ran ${at('dcl')}, worker started ${at('worker')}, user known ${at('user')}, root rendered ${at('root')}, row in document ${at('dom')}, first contentful paint ${at('fcp')}`,
    )
  }
} finally {
  await browser.close()
  await site.stop()
}
