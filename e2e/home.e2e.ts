// Spec §6 on the index: search shows for members, and for guests where the
// operator opened logged-out search (here through SITE_SETTINGS).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEMO, describePage, launchBrowser, newContext, type Site, startSite } from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  site = await startSite({
    DEMO_MEMBERS: '400',
    SITE_SETTINGS: JSON.stringify({
      logged_out_search: 'all',
      sites: { 'gay.localhost': { niche: 7 } },
    }),
  })
  // *.localhost resolves to the test server: a site per host (the gay site here).
  browser = await launchBrowser(['--host-resolver-rules=MAP *.localhost 127.0.0.1'])
  context = await newContext(browser, site)
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

const tiles = () => page.locator('ul.grid li.tile')

describe('search on the index', () => {
  it('shows a guest members, without like or chat, and a sign-up call to action', async () => {
    await page.goto('/')
    await page.getByRole('heading', { name: 'Members near you' }).waitFor()
    await tiles().first().waitFor()
    expect(await tiles().count()).toBeGreaterThan(0)
    expect(await page.locator('ul.grid .tile__actions').count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Sign up free to see everyone' }).count()).toBe(1)
  })

  it('shows a member the same search with like and chat', async () => {
    await page.goto('/login')
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill(DEMO.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/members/)
    await page.getByRole('link', { name: 'Amora' }).click()
    await page.getByRole('heading', { name: 'Members near you' }).waitFor()
    await page.locator('ul.grid .tile__actions').first().waitFor()
    expect(await page.locator('#app-root').getAttribute('class')).toContain('index')
  })

  it('speaks the browser language, and the stored locale cookie before it (spec §4)', async () => {
    const dutch = await browser.newContext({ baseURL: site.url, locale: 'nl-NL' })
    const nl = await dutch.newPage()
    await nl.goto('/login')
    await nl.getByRole('heading', { name: 'Inloggen' }).waitFor()
    expect(await nl.getAttribute('html', 'lang')).toBe('nl')
    await dutch.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'de', url: site.url }])
    await nl.reload()
    await nl.getByRole('heading', { name: 'Anmelden' }).waitFor()
    expect(await nl.getAttribute('html', 'lang')).toBe('de')
    await dutch.close()
  })
})

describe('the gay site (niche 7) shows men', () => {
  it("a guest home and a man's member search default to men", async () => {
    const gay = await browser.newContext({
      baseURL: `http://gay.localhost:${new URL(site.url).port}`,
      locale: 'en-GB',
    })
    // The 18+ notice of a niche site, confirmed before (features/site/flags.ts).
    await gay.addInitScript(() => localStorage.setItem('amora-entry-confirmed', '1'))
    const p = await gay.newPage()
    await p.goto('/')
    await p.locator('ul.grid li.tile').first().waitFor()
    const guest = await p.evaluate(async () => {
      const res = await fetch('/api/search.php')
      return ((await res.json()) as { filters: { gender: string } }).filters.gender
    })
    expect(guest).toBe('male')
    await p.goto('/login')
    await p.locator('form[data-ready]').first().waitFor({ state: 'attached' })
    await p.getByLabel('Email address').fill(DEMO.email)
    await p.getByLabel('Password').fill(DEMO.password)
    await p.getByRole('button', { name: 'Log in' }).click()
    await p.waitForURL(/\/members/)
    const gender = p.locator('select[name="gender"]')
    await gender.waitFor()
    await p.waitForFunction(
      () => (document.querySelector('select[name="gender"]') as HTMLSelectElement).value === 'male',
    )
    await gay.close()
  })
})
