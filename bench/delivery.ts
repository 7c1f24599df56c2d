// A message appears at once (goal: p95 ≤ 150 ms): from "Send" pressed in one
// member's open chat to the message in the other member's open chat, two
// browser contexts in the system Chromium against the built site as
// `npm start` runs it (e2e/harness.ts: fresh PGlite, demo seed):
//   npm run build && [DATABASE_URL=postgres://…] node --import tsx bench/delivery.ts [--messages=50]
// (with DATABASE_URL on PostgreSQL, in a database made for the run, as a
// production start; without, on the embedded PGlite)
// The demo member and Demo Two have the chat open side by side and take
// turns (each stays inside the per-member pace of 20 messages a minute).
// Each message is timed in the pages, on the machine's one clock
// (performance.timeOrigin + now()): the sender's click, then in the
// recipient's page the moment its row is in the document and the frame
// after it (painted). The recipient's page also marks when its event stream
// delivered the poke (the sync worker's `sync:poke` mark, when it has one).
// Prints every step's p50/p95; a benchmark, never a test.
import { cpus, loadavg } from 'node:os'
import pg from 'pg'
import type { Page } from 'playwright-core'
import {
  chatOpened,
  DEMO,
  launchBrowser,
  logInMember,
  newContext,
  startSite,
} from '../e2e/harness.ts'
import { summarise } from './stats.ts'

const MESSAGES = Number(process.argv.find((a) => a.startsWith('--messages='))?.slice(11) ?? 50)
const GOAL_MS = 150
/** Each member sends one message every 2 × GAP_MS: 18.75 a minute, under the pace of 20. */
const GAP_MS = 1600
const DEMO2 = { email: 'demo2@example.com', password: DEMO.password }

/**
 * Installed in the recipient's page: the time each incoming message's row
 * (its text a token) is first in the document, and the frame after it.
 */
const WATCH = `(() => {
  const seen = (window.__seen = {})
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.message--theirs')) {
      const m = /#d(\\d+)#/.exec(el.textContent || '')
      if (!m || seen[m[1]]) continue
      const at = performance.timeOrigin + performance.now()
      seen[m[1]] = { dom: at }
      requestAnimationFrame(() => { seen[m[1]].paint = performance.timeOrigin + performance.now() })
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true })
})()`

async function send(page: Page, n: number): Promise<number> {
  const box = page.getByRole('textbox', { name: 'Your message' })
  await box.fill(`Bench message #d${n}#`)
  return page.evaluate(() => {
    const button = [...document.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Send',
    )
    if (!button) throw new Error('no Send button')
    const at = performance.timeOrigin + performance.now()
    button.click()
    return at
  })
}

async function arrival(page: Page, n: number): Promise<{ dom: number; paint: number }> {
  const handle = await page.waitForFunction(
    (k) => {
      const s = (window as unknown as { __seen: Record<string, { dom: number; paint?: number }> })
        .__seen[k]
      return s?.paint !== undefined ? s : null
    },
    String(n),
    { timeout: 60_000, polling: 20 },
  )
  return (await handle.jsonValue()) as { dom: number; paint: number }
}

/**
 * With DATABASE_URL the site runs on PostgreSQL, as a production start
 * does, in a database of its own made for this run (dropped at the end);
 * without, on the embedded PGlite of `npm start`.
 */
async function siteDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const server = process.env.DATABASE_URL
  if (!server) return { env: {}, drop: async () => {} }
  const name = `amora_bench_delivery_${process.pid}`
  const admin = new pg.Client({ connectionString: server })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(server)
  url.pathname = `/${name}`
  return {
    env: { DATABASE_URL: url.href },
    async drop() {
      const again = new pg.Client({ connectionString: server })
      await again.connect()
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.end()
    },
  }
}

const database = await siteDatabase()
const site = await startSite(database.env)
const browser = await launchBrowser()
try {
  const pages: Page[] = []
  for (const who of [DEMO, DEMO2]) {
    const context = await newContext(browser, site)
    const page = await context.newPage()
    await logInMember(page, who)
    pages.push(page)
  }
  const [a, b] = pages as [Page, Page]
  // Where the time goes: each context's API requests on the Node clock
  // (the pages' performance.timeOrigin + now() is the same wall clock).
  const requests: {
    page: Page
    method: string
    path: string
    body: string
    start: number
    end?: number
  }[] = []
  for (const p of pages) {
    const open = new Map<unknown, (typeof requests)[number]>()
    p.context().on('request', (r) => {
      const url = new URL(r.url())
      if (!url.pathname.startsWith('/api/')) return
      const entry = {
        page: p,
        method: r.method(),
        path: url.pathname + url.search,
        body: r.postData() ?? '',
        start: Date.now(),
      }
      open.set(r, entry)
      requests.push(entry)
    })
    p.context().on('requestfinished', (r) => {
      const entry = open.get(r)
      if (entry) entry.end = Date.now()
    })
  }
  // A opens the chat with B and begins it; B opens the same chat.
  const bId = await b.evaluate(
    async () =>
      ((await (await fetch('/api/user.php')).json()) as { profile: { id: number } }).profile.id,
  )
  await a.goto(`/members/${bId}`)
  await a.getByRole('button', { name: /^Chat with / }).click()
  const conversation = await chatOpened(a)
  await a.getByRole('textbox', { name: 'Your message' }).fill('Hello, let us time this.')
  await a.getByRole('textbox', { name: 'Your message' }).press('Enter')
  await b.goto(`/chats/${conversation}`)
  await b.locator('.message--theirs', { hasText: 'let us time this' }).waitFor({ timeout: 60_000 })
  await a.goto(`/chats/${conversation}`)
  await a.locator('.composer__balance').waitFor()
  for (const p of pages) await p.evaluate(WATCH)

  const painted: number[] = []
  const inDom: number[] = []
  const steps = {
    'click → send request out': [] as number[],
    'send request answered': [] as number[],
    'answer → recipient pulls': [] as number[],
    'pull answered': [] as number[],
    'pulled → row in the document': [] as number[],
  }
  for (let n = 0; n < MESSAGES; n++) {
    const [from, to] = n % 2 === 0 ? [a, b] : [b, a]
    const started = Date.now()
    const clicked = await send(from, n)
    const seen = await arrival(to, n)
    inDom.push(seen.dom - clicked)
    painted.push(seen.paint - clicked)
    const post = requests.find(
      (r) => r.page === from && r.method === 'POST' && r.body.includes(`#d${n}#`),
    )
    const pull = requests.find(
      (r) =>
        r.page === to &&
        r.method === 'GET' &&
        r.path.startsWith('/api/messages.php') &&
        post !== undefined &&
        r.start >= post.start &&
        r.end !== undefined &&
        r.end <= seen.dom + 5,
    )
    if (post?.end !== undefined && pull?.end !== undefined) {
      steps['click → send request out'].push(post.start - clicked)
      steps['send request answered'].push(post.end - post.start)
      steps['answer → recipient pulls'].push(pull.start - post.end)
      steps['pull answered'].push(pull.end - pull.start)
      steps['pulled → row in the document'].push(seen.dom - pull.end)
    }
    const wait = GAP_MS - (Date.now() - started)
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  }
  const round = (x: number) => Math.round(x)
  const line = (name: string, xs: number[]) => {
    const s = summarise(xs)
    return `  ${name.padEnd(34)} p50 ${round(s.p50)} ms, p95 ${round(s.p95)} ms, max ${round(s.max)} ms`
  }
  console.log(
    `A message appears at once (${database.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): Send pressed → the row in the other member's open chat, ` +
      `${MESSAGES} messages, ${new Date().toISOString()}, ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  )
  console.log(line("in the recipient's document", inDom))
  console.log(line('painted (the frame after)', painted))
  console.log(
    `  where it goes (${steps['pull answered'].length} of ${MESSAGES} traced; the pull may start before the send is answered):`,
  )
  for (const [name, xs] of Object.entries(steps))
    if (xs.length > 0) console.log(line(`  ${name}`, xs))
  if (process.env.BENCH_EACH) console.log(painted.map(Math.round).join(' '))
  const p95 = summarise(painted).p95
  console.log(`  goal p95 ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? 'met' : 'missed'}`)
} finally {
  await browser.close()
  await site.stop()
  await database.drop()
}
