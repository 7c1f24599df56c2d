// The browser's own floor for the repeat-visit goal: how long this machine's
// Chromium takes from a navigation's start to the first frame of a new
// same-origin document that needs no script of the site (a few lines of
// HTML from a local server, answered at once, no stylesheet, nothing else to
// fetch). The stored page of bench/offline-repeat.ts cannot paint sooner
// than this; a benchmark, never a test.
//   node --import tsx bench/frame-floor.ts [--runs=9] [--html=FILE] [--strip=…] [--sw]
// --html=FILE: that document instead (e.g. the stored page as the service
//   worker answered it, saved by bench/offline-repeat.ts --save-html=DIR);
//   what it links to is not there (404), as a first frame needs none of it.
// --strip=scripts,images,style: those parts of the --html document left out.
// --sw: the page comes, offline, from a service worker of a few lines that
//   answers every navigation from Cache Storage: what a worker's answer
//   costs on its own.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { launchBrowser } from '../e2e/harness.ts'

const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const RUNS = Number(option('runs') ?? 9)
const HTML = option('html')
const VIA_SW = process.argv.includes('--sw')
/** What --strip takes out of the --html document, to see what its first frame waits for. */
const STRIP: Record<string, RegExp[]> = {
  scripts: [/<script\b[^>]*>[\s\S]*?<\/script>/g, /<link rel="modulepreload"[^>]*>/g],
  images: [/<img\b[^>]*>/g],
  style: [/<style\b[^>]*>[\s\S]*?<\/style>/g],
}
const stripped = (html: string) =>
  (option('strip')?.split(',') ?? [])
    .flatMap((part) => STRIP[part] ?? [])
    .reduce((doc, pattern) => doc.replace(pattern, ''), html)
const PAGE = HTML
  ? stripped(readFileSync(HTML, 'utf8'))
  : `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head>
<body><ul><li class="row">A first row</li></ul></body></html>`
const WORKER = `self.addEventListener('install', (e) =>
  e.waitUntil(caches.open('floor').then((c) => c.add('/page')).then(() => self.skipWaiting())))
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()))
self.addEventListener('fetch', (e) => {
  if (e.request.mode === 'navigate') e.respondWith(caches.match('/page', { cacheName: 'floor' }))
})`
// The first frame: a frame callback asked for as the document starts.
const MARK = `requestAnimationFrame(() => { window.__frame = performance.now() })`

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

const server = createServer((req, res) => {
  if (req.url === '/sw.js') {
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' })
    return res.end(WORKER)
  }
  if (req.url === '/start') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return res.end('<!doctype html><title>start</title>')
  }
  if (req.url !== '/page' && !req.url?.startsWith('/page-')) {
    res.writeHead(404)
    return res.end()
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(PAGE)
})
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const browser = await launchBrowser()
try {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${origin}/start`)
  if (VIA_SW) {
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js')
      await navigator.serviceWorker.ready
    })
    await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await context.setOffline(true)
  }
  await context.addInitScript({ content: MARK })
  const frames: number[] = []
  const fcps: number[] = []
  for (let i = 0; i < RUNS; i++) {
    await page.goto(`${origin}/page-${i}`, { waitUntil: 'commit' })
    await page.waitForFunction(
      () =>
        (window as unknown as { __frame?: number }).__frame !== undefined &&
        performance.getEntriesByName('first-contentful-paint').length > 0,
    )
    const [frame, fcp] = await page.evaluate(() => [
      (window as unknown as { __frame: number }).__frame,
      performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
    ])
    frames.push(Math.round(frame!))
    fcps.push(Math.round(fcp!))
  }
  console.log(
    `frame floor (first frame after navigation start; ${HTML ?? 'a page of a few lines'}` +
      `${option('strip') ? ` without its ${option('strip')}` : ''}` +
      `${VIA_SW ? ', offline through a service worker' : ', from the server'}), ` +
      `${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
  )
  console.log(`  first frame median ${median(frames)} ms (runs ${frames.join(', ')})`)
  console.log(`  first contentful paint median ${median(fcps)} ms (runs ${fcps.join(', ')})`)
} finally {
  await browser.close()
  server.close()
}
