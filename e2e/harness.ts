// Starts the real site (api/start.ts) on a free port with a fresh PGlite data
// directory and the demo seed, and a headless system Chromium. Nothing here
// downloads a browser.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { totpCode } from '../api/operator/totp.ts'
import { scaled } from '../api/test/time-scale.ts'
import { copyTemplate } from './pglite-template.ts'

export const DEMO = { email: 'demo@example.com', password: 'demopassword' }
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ROOT = new URL('..', import.meta.url).pathname

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address ? address.port : 0
      s.close(() => resolve(port))
    })
  })
}

export interface Site {
  url: string
  dataDir: string
  /** Stops the site; with keepData its PGlite directory stays for the test to read (then remove it). */
  stop(options?: { keepData?: boolean }): Promise<void>
  /** What the server printed so far (stdout and stderr). */
  output(): string
  /** Sends the process a signal; resolves with how it exited (e2e/drain.e2e.ts). */
  signal(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * The TOTP secret of a demo staff account, as the start printed it
 * (api/operator/first-start.ts); codes come from api/operator/totp.ts.
 */
export function staffSecret(site: Site, email: string): string {
  const line = site
    .output()
    .split('\n')
    .find((l) => l.includes(`console login  ${email} `))
  const secret = line?.match(/TOTP secret ([A-Z2-7]+)/)?.[1]
  if (!secret) throw new Error(`no TOTP secret printed for ${email}`)
  return secret
}

/** Shared by the sites of all browser test files, and kept for the next run. */
const AVATAR_CACHE = join(tmpdir(), 'amora-demo-avatars')

/** The site as `npm start` runs it, on its own port and data directory. */
export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  // A test that must know the port before the start (PUBLIC_URL) picks it itself.
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-e2e-'))
  // A production start (DEMO_SEED=off) makes its database itself, from nothing.
  if (!env.DATABASE_URL && env.DEMO_SEED !== 'off') copyTemplate(dataDir)
  const { DATABASE_URL: _ignored, ...parentEnv } = process.env
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'api/start.ts'], {
    cwd: ROOT,
    env: {
      ...parentEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The demo faces, rendered once for every site of the run (db/seed/avatars.ts).
      DEMO_AVATAR_CACHE: AVATAR_CACHE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes('listening on')) resolve()
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (c: Buffer) => {
      log += c.toString()
    })
    child.once('exit', (code) => reject(new Error(`site exited with ${code}:\n${log}`)))
  })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => log,
    signal(signal) {
      child.kill(signal)
      return exit
    },
    async stop(options = {}) {
      // Idempotent: a test may stop the site itself (to read its database).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** `args`: extra Chromium switches, e.g. a host-resolver rule for several site hosts. */
/** The last console lines and page errors of each context, for describePage. */
const pageLogs = new WeakMap<BrowserContext, string[]>()

export async function launchBrowser(args: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      ...args,
    ],
  })
  // Every context keeps what its pages logged, so a failure in CI shows it.
  const open = browser.newContext.bind(browser)
  browser.newContext = async (options) => {
    const ctx = await open(options)
    // Playwright's own defaults (30 s an action or wait, 30 s a navigation)
    // grow with the machine's load like every other time-out here.
    ctx.setDefaultTimeout(scaled(30_000))
    ctx.setDefaultNavigationTimeout(scaled(30_000))
    const lines: string[] = []
    pageLogs.set(ctx, lines)
    const keep = (line: string) => {
      lines.push(line.slice(0, 300))
      if (lines.length > 30) lines.shift()
    }
    ctx.on('console', (msg) => keep(`console.${msg.type()}: ${msg.text()}`))
    ctx.on('weberror', (e) => keep(`page error: ${e.error().message}`))
    return ctx
  }
  return browser
}

export const newContext = (browser: Browser, site: Site): Promise<BrowserContext> =>
  browser.newContext({ baseURL: site.url, locale: 'en-GB', serviceWorkers: 'allow' })

/**
 * After a failed browser test, print where the page was and what it said,
 * so a failure in CI explains itself without a screenshot.
 */
/**
 * Logs in through the login page's form, as a member would; does not wait
 * for where it leads (a refused login stays on /login).
 */
/**
 * Logs in through the page's form once it has its handlers (the app's login:
 * the sync worker stores the member before the members area opens), not the
 * plain form post a click before hydration sends (api/site/form-login.ts).
 */
export async function logIn(page: Page, who: { email: string; password: string } = DEMO) {
  await page.goto('/login')
  await formReady(page)
  await page.getByLabel('Email address').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

/**
 * Waits until the page's sign-up or login form has its handlers: on a
 * prerendered page (a guest's `/`, `/login`, `/signup`) the form is in the
 * HTML before the app has hydrated, and what is typed or sent before then
 * goes to the server as a plain form post (docs/performance.md, "HTML that paints before
 * JavaScript").
 */
export const formReady = (page: Page) =>
  page.locator('form[data-ready]').first().waitFor({ state: 'attached' })

export async function describePage(page: Page | undefined): Promise<void> {
  if (!page) return
  const text = await page
    .locator('body')
    .textContent({ timeout: 2_000 })
    .catch((e: unknown) => `(no text: ${String(e)})`)
  const fields = await page
    .evaluate(() =>
      [...document.querySelectorAll('input, textarea, select')]
        .map((f) => {
          const el = f as HTMLInputElement
          const value = el.type === 'password' ? '*'.repeat(el.value.length) : el.value
          return `${el.name || el.id || el.type}=${JSON.stringify(value.slice(0, 80))}`
        })
        .join(' '),
    )
    .catch(() => '')
  const log = pageLogs.get(page.context()) ?? []
  console.log(
    `page at failure: ${page.url()}\n${(text ?? '').slice(0, 2_000)}\nfields: ${fields}\nlog:\n  ${log.join('\n  ')}`,
  )
}

/**
 * Polls a check in the page, from here, until it answers true. Playwright's
 * waitForFunction does not await a promise (an async predicate's promise is
 * truthy, so it returns at once whatever the check finds), and its default
 * polling runs on animation frames, which a loaded machine's headless page
 * may stop producing: a condition already true then goes unseen.
 */
export async function pageUntil<A>(
  page: Page,
  check: (arg: A) => boolean | Promise<boolean>,
  arg: A,
  { timeout = scaled(15_000), every = 100 }: { timeout?: number; every?: number } = {},
): Promise<void> {
  const end = Date.now() + timeout
  while (
    !(await page.evaluate(check as (arg: unknown) => boolean | Promise<boolean>, arg as unknown))
  ) {
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${check}`)
    await new Promise((r) => setTimeout(r, every))
  }
}

/** A browser test file's site, browser and people (see browserSuite). */
export interface Suite {
  site: Site
  browser: Browser
  /** One page a person, each in a fresh context of its own (another device). */
  pages: Page[]
}

/**
 * The set-up of a browser test file: before it, the site (`env` as for
 * startSite), Chromium and `people` fresh contexts with a page each; after a
 * failed test, every page described; after the file, all closed. Call it at
 * the top of the file; the fields are set once its beforeAll has run.
 */
export function browserSuite(people: number, env: Record<string, string> = {}): Suite {
  const suite = { pages: [] as Page[] } as Suite
  beforeAll(async () => {
    suite.site = await startSite(env)
    suite.browser = await launchBrowser()
    for (let i = 0; i < people; i++)
      suite.pages.push(await (await newContext(suite.browser, suite.site)).newPage())
  })
  afterEach(async (t) => {
    if (t.task.result?.state === 'fail') for (const p of suite.pages) await describePage(p)
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.site?.stop()
  })
  return suite
}

/** The page's member, as GET /api/user.php gives it. */
export const profileOf = (page: Page): Promise<{ id: number; name: string }> =>
  page.evaluate(
    async () =>
      ((await (await fetch('/api/user.php')).json()) as { profile: { id: number; name: string } })
        .profile,
  )

/**
 * Logs `who` in on the page (a context of their own) through the login form
 * and waits for the members area: the member's profile id and name.
 */
export async function logInMember(
  page: Page,
  who: { email: string; password: string } = DEMO,
): Promise<{ id: number; name: string }> {
  await logIn(page, who)
  await page.waitForURL(/\/members/)
  return profileOf(page)
}

/** Waits for the chat the page is opening (its URL, then its composer): its conversation id. */
export async function chatOpened(page: Page): Promise<number> {
  await page.waitForURL(/\/chats\/\d+$/)
  await page.locator('.composer__balance').waitFor()
  return Number(new URL(page.url()).pathname.split('/').pop())
}

/** Opens the page member's chat with member `otherId` (the profile's chat link): its id. */
export async function openChat(page: Page, otherId: number): Promise<number> {
  await page.goto(`/members/${otherId}/chat`)
  return chatOpened(page)
}

/** A call of the site's API from the page (its session): the status and the JSON answer. */
export const pageApi = <T>(page: Page, path: string, init?: { method: string; body: unknown }) =>
  page.evaluate(
    async ({ path, init }) => {
      const res = await fetch(path, {
        method: init?.method ?? 'GET',
        headers: init ? { 'content-type': 'application/json' } : {},
        body: init ? JSON.stringify(init.body) : null,
      })
      return { status: res.status, body: await res.json().catch(() => null) }
    },
    { path, init },
  ) as Promise<{ status: number; body: T }>

/** Signs a demo staff member in to the console, password and TOTP code, and waits for it. */
export async function staffSignIn(page: Page, site: Site, email: string, password: string) {
  await page.goto('/operator/login')
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByLabel('Code from your authenticator app').fill(totpCode(staffSecret(site, email)))
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/operator$/)
}

/**
 * Polls `check` until it returns true (a throw counts as false); fails
 * naming `what` after `ms`. For tests of processes without a browser.
 */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  ms = scaled(60_000),
) {
  const end = Date.now() + ms
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The session cookie an answer set (a balancer may set its own beside it). */
export const sessionCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('sid='))

/** A JSON request to `base` (a process or a balancer) with the site's own Origin. */
export async function callJson(
  base: string,
  method: string,
  path: string,
  cookie: string | undefined,
  body?: unknown,
): Promise<Response> {
  return fetch(new URL(path, base), {
    method,
    headers: {
      origin: base,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}
