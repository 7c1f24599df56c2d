// The operator's console in Chromium: staff sign in with password and the
// authenticator's code and see the sections of their roles; a member and an
// anonymous visitor get the site's 404 on every console page, and the
// console's code never reaches a member's service-worker cache.
import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../api/operator/totp.ts'
import { consoleOnlyFiles } from '../tools/console-chunks.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  newContext,
  type Site,
  staffSecret,
  startSite,
} from './harness.ts'

let site: Site
let browser: Browser
let page: Page | undefined

const CONSOLE_PAGES = ['/operator', '/operator/audit', '/operator/staff', '/operator/nothing']

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await site?.stop()
})
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

async function signIn(context: BrowserContext, email: string): Promise<Page> {
  const p = await context.newPage()
  page = p
  const res = await p.goto('/operator/login')
  expect(res?.status()).toBe(200)
  await p.getByLabel('Email address').fill(email)
  await p.getByLabel('Password').fill('demopassword')
  await p.getByLabel('Code from your authenticator app').fill(totpCode(staffSecret(site, email)))
  await p.getByRole('button', { name: 'Sign in' }).click()
  await p.getByRole('heading', { name: 'Operator console' }).waitFor()
  return p
}

describe('operator console', () => {
  it('answers every console page with the 404 page to an anonymous visitor, and opens only the sign-in', async () => {
    const context = await newContext(browser, site)
    page = await context.newPage()
    for (const path of CONSOLE_PAGES) {
      const res = await page.goto(path)
      expect(res?.status(), path).toBe(404)
      expect(res?.headers()['x-robots-tag'], path).toBe('noindex')
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor()
    }
    const api = await page.request.get('/api/operator/me.php')
    expect(api.status()).toBe(404)
    expect((await api.json()).message).toBe('no such endpoint')
    await context.close()
  })

  it('answers a signed-in member the same 404, and keeps the console out of the member’s cache', async () => {
    const context = await newContext(browser, site)
    page = await context.newPage()
    await page.goto('/login')
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill(DEMO.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/members/)
    for (const path of CONSOLE_PAGES) {
      const res = await page.goto(path)
      expect(res?.status(), path).toBe(404)
    }
    expect((await page.request.get('/api/operator/audit.php')).status()).toBe(404)
    // Everything the service worker precached: no console route chunk.
    await page.goto('/members')
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    const cached = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of await caches.keys())
        for (const req of await (await caches.open(name)).keys()) urls.push(req.url)
      return urls
    })
    expect(cached.length).toBeGreaterThan(10)
    const manifest = JSON.parse(
      readFileSync(new URL('../dist/.vite/manifest.json', import.meta.url), 'utf8'),
    )
    const consoleFiles = consoleOnlyFiles(manifest)
    expect(consoleFiles.length, 'the build has console chunks').toBeGreaterThan(2)
    const leaked = cached.filter((u) => consoleFiles.some((f) => u.includes(f)))
    expect(leaked).toEqual([])
    await context.close()
  })

  it('signs an admin in with password and code: overview, audit log with the sign-in, staff list', async () => {
    const context = await newContext(browser, site)
    const p = await signIn(context, 'admin@example.com')
    const nav = p.getByRole('navigation', { name: 'Console' })
    await nav.getByRole('link', { name: 'Audit log' }).click()
    await p.getByRole('heading', { name: 'Audit log' }).waitFor()
    await p.getByRole('cell', { name: 'staff.login' }).first().waitFor()
    await nav.getByRole('link', { name: 'Staff' }).click()
    await p.getByRole('cell', { name: 'moderator2@example.com' }).waitFor()
    for (const width of [360, 1280]) {
      await p.setViewportSize({ width, height: 800 })
      const overflow = await p.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      )
      expect(overflow, `no horizontal overflow at ${width}px`).toBe(false)
      await p.screenshot({ path: `${site.dataDir}/../console-staff-${width}.png`, fullPage: true })
    }
    await context.close()
  })

  it('shows a moderator only their sections; after signing out the console is gone again', async () => {
    const context = await newContext(browser, site)
    const p = await signIn(context, 'moderator@example.com')
    const nav = p.getByRole('navigation', { name: 'Console' })
    expect(await nav.getByRole('link', { name: 'Overview' }).count()).toBe(1)
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0)
    expect(await nav.getByRole('link', { name: 'Staff' }).count()).toBe(0)
    expect((await p.request.get('/api/operator/audit.php')).status()).toBe(403)
    await nav.getByRole('button', { name: 'Sign out' }).click()
    await p.waitForURL(/\/operator\/login/)
    expect((await p.request.get('/api/operator/me.php')).status()).toBe(404)
    expect((await p.goto('/operator'))?.status()).toBe(404)
    await context.close()
  })
})
