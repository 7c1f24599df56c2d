// The site's Content-Security-Policy in a real Chromium: the built app, its
// sync worker, its service worker and the webcam tiles work under it, and the
// browser reports no violation while a member logs in and looks around.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEMO, describePage, launchBrowser, newContext, type Site, startSite } from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page
const violations: string[] = []

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  context = await newContext(browser, site)
  page = await context.newPage()
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text())
  })
  // The page's own report of every blocked load or script, with what was blocked.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`)
    })
  })
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

describe('Content-Security-Policy in Chromium', () => {
  it('serves the app shell with the policy and no inline script', async () => {
    const res = await page.goto('/login')
    const csp = res?.headers()['content-security-policy'] ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(res?.headers()['x-content-type-options']).toBe('nosniff')
    // The server render's page seed is data (type application/json), never run.
    const inline = await page.locator('script:not([src]):not([type="application/json"])').count()
    expect(inline).toBe(0)
  })

  it('logs in, shows members with photos and webcam tiles, chats, and registers the service worker, with no violation', async () => {
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill(DEMO.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/members/)
    // The tiles come through the sync worker: it loaded and fetched under the policy.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>('ul.grid img')).filter(
          (i) => i.complete && i.naturalWidth > 0,
        ).length >= 12,
    )
    const registered = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready
      return reg.active?.scriptURL ?? ''
    })
    expect(registered).toMatch(/\/sw\.js$/)
    await page.getByRole('link', { name: 'Chats' }).click()
    await page.locator('.chat-list__item').first().waitFor()
    await page.goto('/profile')
    await page.locator('main').waitFor()
    expect(violations).toEqual([])
  })

  it('lists the signed-in devices on /profile and logs out everywhere else; the other device’s next call is refused', async () => {
    const other = await newContext(browser, site)
    const phone = await other.newPage()
    await phone.goto('/login')
    await phone.getByLabel('Email address').fill(DEMO.email)
    await phone.getByLabel('Password').fill(DEMO.password)
    await phone.getByRole('button', { name: 'Log in' }).click()
    await phone.waitForURL(/\/members/)

    await page.goto('/profile')
    const devices = page.locator('.sessions__item')
    await devices.nth(1).waitFor()
    expect(await devices.count()).toBeGreaterThanOrEqual(2)
    await expect.poll(() => devices.first().textContent()).toContain('This device')
    await page.getByRole('button', { name: 'Log out everywhere else' }).click()
    await page.getByText('You are not signed in anywhere else.').waitFor()
    expect(await devices.count()).toBe(1)

    // The phone's session is gone on the server: its next call is a 403
    // (the app's answer to a 403 is the sync worker's endSession path).
    const status = await phone.evaluate(async () => (await fetch('/api/user.php')).status)
    expect(status).toBe(403)
    await other.close()
    expect(violations).toEqual([])
  })
})
