// The operator's console, sites part: an admin signs in with password and an
// authenticator code, switches the site's template to boxy, and the next page
// load carries it (root class from the server) without a restart. A member and
// an anonymous visitor get 404 from every console page and endpoint.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../api/operator/totp.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  newContext,
  type Site,
  staffSecret,
  startSite,
} from './harness.ts'

const CONSOLE_PAGES = [
  '/operator',
  '/operator/queue',
  '/operator/members',
  '/operator/sites',
  '/operator/reports',
  '/operator/jobs',
  '/operator/audit',
  '/operator/staff',
]
const CONSOLE_ENDPOINTS: [string, string][] = [
  ['GET', '/api/operator/me.php'],
  ['GET', '/api/operator/sites.php'],
  ['PUT', '/api/operator/sites.php'],
  ['PUT', '/api/operator/message-cost.php'],
  ['PUT', '/api/operator/route-rules.php'],
  ['GET', '/api/operator/packages.php'],
  ['GET', '/api/operator/discounts.php'],
  ['GET', '/api/operator/gifts.php'],
  ['PUT', '/api/operator/gifts.php'],
  ['GET', '/api/operator/report.php'],
  ['GET', '/api/operator/report-csv.php'],
  ['GET', '/api/operator/jobs.php'],
  ['POST', '/api/operator/jobs.php'],
  ['GET', '/api/operator/audit.php'],
  ['GET', '/api/operator/staff.php'],
]

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

const rootClass = async (ctx: BrowserContext) => {
  // A keep-alive socket the server closed as it was reused resets (a race of
  // HTTP/1.1 itself); a GET is safe to send again once.
  const get = () => ctx.request.get('/')
  const html = await (await get().catch(get)).text()
  return html.match(/<html[^>]*class="([^"]*)"/)?.[1] ?? ''
}

describe('sites and settings in the console', () => {
  it('an admin switches the template to boxy and the next load has it, without a restart', async () => {
    expect((await rootClass(context)).split(' ')).toContain('classic')
    await page.goto('/operator/login')
    await page.getByLabel('Email').fill('admin@example.com')
    await page.getByLabel('Password').fill('demopassword')
    await page
      .getByLabel('Code from your authenticator app')
      .fill(totpCode(staffSecret(site, 'admin@example.com')))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('link', { name: 'Sites and settings' }).first().waitFor()

    await page.goto('/operator/sites')
    await page.getByRole('heading', { name: 'Sites and settings', level: 1 }).waitFor()
    const form = page.getByRole('form', { name: 'All sites (server-wide)' })
    await form.getByLabel('template').selectOption('boxy')
    await form.getByLabel('Reason for the audit log (optional)').fill('new look')
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('status').getByText('Saved.').waitFor()

    // The server dresses the shell per request: the root class changes at once.
    expect((await rootClass(context)).split(' ')).toContain('boxy')
    const visitor = await newContext(browser, site)
    const guest = await visitor.newPage()
    await guest.goto('/')
    expect(await guest.evaluate(() => document.documentElement.classList.contains('boxy'))).toBe(
      true,
    )
    await visitor.close()

    // And the change is in the audit log, with before and after.
    const audit = await (
      await context.request.get('/api/operator/audit.php?target_type=site')
    ).json()
    expect(audit.entries[0]).toMatchObject({
      action: 'site.update',
      reason: 'new look',
      details: { changes: { template: { before: null, after: 'boxy' } } },
    })
  })

  it('an admin adds a gift to the catalogue and members see it with its price at once', async () => {
    await page.goto('/operator/sites')
    const form = page.getByRole('form', { name: 'Save gift (new or same site and id)' })
    await form.getByLabel('slug').fill('kiss')
    await form.getByLabel('icon').fill('💋')
    await form.getByLabel('name').fill('Kiss')
    await form.getByLabel('credits').fill('5')
    await form.getByRole('button', { name: 'Save gift (new or same site and id)' }).click()
    await page.locator('[data-entry="/kiss"]').waitFor()
    const gifts = await (await context.request.get('/api/gifts.php')).json()
    expect(gifts.gifts).toContainEqual({ slug: 'kiss', icon: '💋', name: 'Kiss', credits: 5 })
    // A free gift is refused, naming the field; nothing changes.
    await form.getByLabel('slug').fill('free')
    await form.getByLabel('credits').fill('0')
    await form.getByLabel('credits').evaluate((el) => el.removeAttribute('min'))
    await form.getByRole('button', { name: 'Save gift (new or same site and id)' }).click()
    await page.getByRole('status').getByText('Check credits and try again.').waitFor()
    const after = await (await context.request.get('/api/gifts.php')).json()
    expect(after.gifts.map((g: { slug: string }) => g.slug)).not.toContain('free')
  })

  it('answers a member and an anonymous visitor 404 on every console page and endpoint', async () => {
    const member = await newContext(browser, site)
    const login = await member.request.post('/api/login.php', {
      data: { email: DEMO.email, password: DEMO.password },
      headers: { origin: site.url },
    })
    expect(login.status()).toBe(200)
    const anonymous = await newContext(browser, site)
    for (const [who, ctx] of [
      ['member', member],
      ['anonymous', anonymous],
    ] as const) {
      for (const path of CONSOLE_PAGES) {
        const res = await ctx.request.get(path)
        expect(res.status(), `${who} ${path}`).toBe(404)
      }
      for (const [method, path] of CONSOLE_ENDPOINTS) {
        const res = await ctx.request.fetch(path, {
          method,
          headers: { origin: site.url },
          ...(method === 'GET' ? {} : { data: {} }),
        })
        expect(res.status(), `${who} ${method} ${path}`).toBe(404)
      }
    }
    await member.close()
    await anonymous.close()
  })
})
