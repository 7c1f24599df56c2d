// Where a page's first frame waits: reads a Chromium trace (written by
// `bench/offline-repeat.ts --trace=FILE`) and, for each navigation of the
// traced pages, from the navigation's start to its first-contentful-paint,
// prints how busy each thread was and what the renderer's main thread did:
//   node --import tsx bench/trace-frames.ts FILE [--path=/chats] [--detail]
// Per page it prints medians over its navigations; --detail also lists the
// main thread's tasks of 2 ms or more of the median navigation, in order,
// with their start after the navigation's start. A reading aid, not a test.
import { readFileSync } from 'node:fs'

interface TraceEvent {
  name: string
  cat: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { documentLoaderURL?: string; isLoadingMainFrame?: boolean } }
}

const file = process.argv[2]
if (!file) throw new Error('usage: node --import tsx bench/trace-frames.ts FILE [--path=/x]')
const only = process.argv.find((a) => a.startsWith('--path='))?.slice(7)
const detail = process.argv.includes('--detail')
const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[]
const events = Array.isArray(raw) ? raw : raw.traceEvents

const threadNames = new Map<string, string>()
for (const e of events)
  if (e.ph === 'M' && e.name === 'thread_name')
    threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '')
const threadOf = (e: TraceEvent) => threadNames.get(`${e.pid}:${e.tid}`) ?? `tid ${e.tid}`

/** Navigations of the main frame: start (µs), first-contentful-paint (µs), path. */
interface Navigation {
  path: string
  start: number
  fcp: number
  pid: number
}
const navigations: Navigation[] = []
const starts = events
  .filter(
    (e) =>
      e.name === 'navigationStart' &&
      e.args?.data?.isLoadingMainFrame === true &&
      (e.args.data.documentLoaderURL ?? '').startsWith('http'),
  )
  .sort((a, b) => a.ts - b.ts)
const fcps = events.filter((e) => e.name === 'firstContentfulPaint').sort((a, b) => a.ts - b.ts)
for (const s of starts) {
  const fcp = fcps.find((f) => f.pid === s.pid && f.ts > s.ts)
  const next = starts.find((n) => n.ts > s.ts && n.pid === s.pid)
  if (!fcp || (next && next.ts < fcp.ts)) continue
  navigations.push({
    path: new URL(s.args?.data?.documentLoaderURL ?? 'http://x/').pathname,
    start: s.ts,
    fcp: fcp.ts,
    pid: s.pid,
  })
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length === 0 ? NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** The part of [a, a + d) inside [from, to), in µs. */
const clip = (a: number, d: number, from: number, to: number) =>
  Math.max(0, Math.min(a + d, to) - Math.max(a, from))

const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined)
/** Per thread: time inside its top-level tasks (RunTask and its like) in the window. */
function busyByThread(nav: Navigation): Map<string, number> {
  const busy = new Map<string, number>()
  for (const e of complete) {
    if (e.cat !== 'toplevel' && !e.cat.split(',').includes('toplevel')) continue
    const t = clip(e.ts, e.dur!, nav.start, nav.fcp)
    if (t === 0) continue
    const key = `${e.pid === nav.pid ? 'renderer' : `pid ${e.pid}`} ${threadOf(e)}`
    busy.set(key, (busy.get(key) ?? 0) + t)
  }
  return busy
}

/** The renderer main thread's timeline events by name (time inside the window). */
function mainByName(nav: Navigation): Map<string, number> {
  const byName = new Map<string, number>()
  for (const e of complete) {
    if (e.pid !== nav.pid || threadOf(e) !== 'CrRendererMain' || e.cat === 'toplevel') continue
    const t = clip(e.ts, e.dur!, nav.start, nav.fcp)
    if (t > 0) byName.set(e.name, (byName.get(e.name) ?? 0) + t)
  }
  return byName
}

const paths = [...new Set(navigations.map((n) => n.path))].filter((p) => !only || p === only)
for (const path of paths) {
  const navs = navigations.filter((n) => n.path === path)
  const fcp = navs.map((n) => (n.fcp - n.start) / 1000)
  console.log(
    `${path}: ${navs.length} navigations, first-contentful-paint median ${median(fcp).toFixed(0)} ms (${fcp.map((f) => f.toFixed(0)).join(', ')})`,
  )
  const sums = (f: (n: Navigation) => Map<string, number>) => {
    const all = navs.map(f)
    const keys = new Set(all.flatMap((m) => [...m.keys()]))
    return [...keys]
      .map((k) => [k, median(all.map((m) => (m.get(k) ?? 0) / 1000))] as const)
      .filter(([, v]) => v >= 1)
      .sort((a, b) => b[1] - a[1])
  }
  console.log('  busy before the first paint, by thread (median ms):')
  for (const [k, v] of sums(busyByThread).slice(0, 12))
    console.log(`    ${v.toFixed(1).padStart(6)}  ${k}`)
  console.log('  the renderer main thread, by event (median ms, nested events counted in each):')
  for (const [k, v] of sums(mainByName).slice(0, 20))
    console.log(`    ${v.toFixed(1).padStart(6)}  ${k}`)
  if (detail) {
    const mid = [...navs].sort((a, b) => a.fcp - a.start - (b.fcp - b.start))[navs.length >> 1]!
    console.log(`  the median navigation's tasks of 2 ms or more (start after navigation, ms):`)
    const tasks = complete
      .filter(
        (e) =>
          e.pid === mid.pid &&
          e.ts >= mid.start &&
          e.ts < mid.fcp &&
          e.dur! >= 2000 &&
          e.cat !== 'toplevel',
      )
      .sort((a, b) => a.ts - b.ts)
    for (const e of tasks)
      console.log(
        `    ${((e.ts - mid.start) / 1000).toFixed(1).padStart(6)} +${(e.dur! / 1000).toFixed(1).padStart(5)}  ${threadOf(e).padEnd(22)} ${e.name}`,
      )
  }
}
