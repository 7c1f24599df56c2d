// Starts the real site (api/start.ts) on a free port with a fresh PGlite data
// directory and the demo seed, and a headless system Chromium. Nothing here
// downloads a browser.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

export const DEMO = { email: 'demo@example.com', password: 'demopassword' }
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ROOT = new URL('..', import.meta.url).pathname

async function freePort(): Promise<number> {
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
  /** What the server printed so far (e.g. the demo staff's TOTP secrets). */
  log(): string
}

/** The site as `npm start` runs it, on its own port and data directory. */
export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-e2e-'))
  const { DATABASE_URL: _ignored, ...parentEnv } = process.env
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'api/start.ts'], {
    cwd: ROOT,
    env: { ...parentEnv, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
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
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    log: () => log,
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
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({
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
}

export const newContext = (browser: Browser, site: Site): Promise<BrowserContext> =>
  browser.newContext({ baseURL: site.url, locale: 'en-GB', serviceWorkers: 'allow' })

/**
 * After a failed browser test, print where the page was and what it said,
 * so a failure in CI explains itself without a screenshot.
 */
export async function describePage(page: Page | undefined): Promise<void> {
  if (!page) return
  const text = await page
    .locator('body')
    .textContent({ timeout: 2_000 })
    .catch((e: unknown) => `(no text: ${String(e)})`)
  console.log(`page at failure: ${page.url()}\n${(text ?? '').slice(0, 2_000)}`)
}
