// The console's settings form edits the fields the API took but the form
// lacked: minimum_message_costs (rows of country, price and currency), the
// geoip_* countries and photo_premoderation; the server keeps what was typed,
// a bad price is refused naming the field, and the page does not overflow
// at 360 px.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../api/operator/totp.ts'
import {
  describePage,
  launchBrowser,
  newContext,
  type Site,
  staffSecret,
  startSite,
} from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
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

describe('the settings form', () => {
  it('edits message costs, geo-IP countries and photo pre-moderation, at 360 px', async () => {
    await page.setViewportSize({ width: 360, height: 800 })
    await page.goto('/operator/login')
    await page.getByLabel('Email').fill('admin@example.com')
    await page.getByLabel('Password').fill('demopassword')
    await page
      .getByLabel('Code from your authenticator app')
      .fill(totpCode(staffSecret(site, 'admin@example.com')))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('link', { name: 'Sites and settings' }).first().waitFor()

    await page.goto('/operator/sites')
    const form = page.getByRole('form', { name: 'All sites (server-wide)' })
    // The defaults NL and GB, then an empty row to add a country.
    await expect
      .poll(() => form.getByRole('textbox', { name: 'Country · Row 1' }).inputValue())
      .toBe('NL')
    await form.getByRole('textbox', { name: 'Country · Row 3' }).fill('de')
    await form.getByRole('spinbutton', { name: 'Price per message · Row 3' }).fill('2.5')
    await form.getByRole('textbox', { name: 'Currency · Row 3' }).fill('EUR')
    // GB goes: its country emptied.
    await form.getByRole('textbox', { name: 'Country · Row 2' }).fill('')
    await form.getByLabel('geoip_country').fill('BE')
    await form.getByLabel('photo_premoderation').check()
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('status').getByText('Saved.').waitFor()

    const sites = await (await context.request.get('/api/operator/sites.php')).json()
    expect(sites.server.effective).toMatchObject({
      minimum_message_costs: {
        NL: { costs: 1, currency: 'EUR' },
        DE: { costs: 2.5, currency: 'EUR' },
      },
      geoip_country: 'BE',
      geoip_selected_country: null,
      photo_premoderation: true,
    })
    expect(sites.server.effective.minimum_message_costs.GB).toBeUndefined()

    // A price left empty goes to the server, which names the field.
    const again = page.getByRole('form', { name: 'All sites (server-wide)' })
    await again.getByRole('spinbutton', { name: 'Price per message · Row 1' }).fill('')
    await again.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('status').getByText('settings.minimum_message_costs').waitFor()

    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true)
  })
})
