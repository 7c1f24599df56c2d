// Members and money in the operator's console, in Chromium: the demo's
// support staff member signs in with password and TOTP, finds the demo member
// by email, adds 100 credits with a reason; the member's balance and credit
// history show it once, also after a reload and a repeated click of the same
// form. The console's pages are checked at 360 px and 1280 px for overflow.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { totpCode } from '../api/operator/totp.ts'
import { scaled } from '../api/test/time-scale.ts'
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
let staffCtx: BrowserContext
let memberCtx: BrowserContext
let staffPage: Page
let memberPage: Page

beforeAll(async () => {
  // The built-in test provider, whatever the parent environment holds (an empty
  // MOLLIE_API_KEY no longer passes api/config.ts).
  site = await startSite({ PAYMENTS: 'test' })
  browser = await launchBrowser()
  staffCtx = await newContext(browser, site)
  memberCtx = await newContext(browser, site)
  staffPage = await staffCtx.newPage()
  memberPage = await memberCtx.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (t) => {
  if (t.task.result?.state === 'fail') {
    await describePage(staffPage)
    await describePage(memberPage)
  }
})

/** The member's /credits: balance and how many "Correction" rows with +100 the history shows. */
async function memberCredits(expectedBalance?: number) {
  await memberPage.goto('/credits')
  const balance = memberPage.locator('[data-balance]')
  if (expectedBalance !== undefined)
    await memberPage
      .locator(`[data-balance="${expectedBalance}"]`)
      .waitFor({ timeout: scaled(15_000) })
  else await balance.waitFor({ timeout: scaled(15_000) })
  const rows = memberPage.locator('.credit-history li', { hasText: 'Correction' })
  return {
    balance: Number(await balance.getAttribute('data-balance')),
    corrections: await rows.filter({ hasText: '+100' }).count(),
  }
}

it('support adds 100 credits to a member with a reason; the member sees them once', async () => {
  // The member signs in and notes the balance before.
  await memberPage.goto('/login')
  await memberPage.getByLabel('Email address').fill(DEMO.email)
  await memberPage.getByLabel('Password').fill(DEMO.password)
  await memberPage.getByRole('button', { name: 'Log in' }).click()
  await memberPage.waitForURL(/\/members/)
  const before = await memberCredits()

  // Support signs in with password and the current code of its authenticator.
  const secret = staffSecret(site, 'support@example.com')
  await staffPage.goto('/operator/login')
  await staffPage.locator('input[name=email]').fill('support@example.com')
  await staffPage.locator('input[name=password]').fill('demopassword')
  await staffPage.locator('input[name=code]').fill(totpCode(secret))
  await staffPage.locator('form button[type=submit]').click()
  await staffPage.waitForURL(/\/operator$/)

  // Members, search by email, open the member.
  await staffPage.getByRole('link', { name: 'Members' }).first().click()
  await staffPage.waitForURL(/\/operator\/members/)
  await staffPage.getByLabel('Email, name or member number').fill(DEMO.email)
  await staffPage.getByRole('button', { name: 'Search' }).click()
  const row = staffPage.locator('.console-table tbody tr', { hasText: DEMO.email })
  await row.waitFor()
  await row.getByRole('link').click()
  await staffPage.waitForURL(/\/operator\/members\/\d+$/)
  await staffPage.locator('[data-testid=member-credits]').waitFor()

  // Adjust: +100 with a reason; then the same form's button again (a repeated click).
  await staffPage.getByLabel('Credits (negative to deduct)').fill('100')
  await staffPage
    .getByLabel('Reason (kept in the audit log)')
    .fill('Goodwill after a failed payment')
  const apply = staffPage.getByRole('button', { name: 'Adjust credits' })
  // Every answer of the adjust endpoint, in order. The form keeps its client
  // id, so the first click applies and each repeat is answered with the first
  // result and `applied: false` (api/operator/members.ts adjustCredits).
  const answers: Promise<unknown>[] = []
  staffPage.on('response', (r) => {
    const { pathname } = new URL(r.url())
    if (r.request().method() === 'POST' && pathname === '/api/operator/credit_adjust.php')
      answers.push(r.json())
  })
  await apply.click()
  const status = staffPage.locator('[data-testid=adjust-status]')
  await expect
    .poll(() => status.textContent(), { timeout: scaled(15_000) })
    .toContain(`Balance now: ${before.balance + 100}`)
  await apply.click()
  await apply.click()
  // Not a pause: wait until all three clicks are answered, then every answer
  // must say the credits moved once (a late second application would answer
  // applied: true or a higher balance).
  await expect.poll(() => answers.length, { timeout: scaled(15_000) }).toBe(3)
  expect(await Promise.all(answers)).toEqual([
    { balance: before.balance + 100, applied: true },
    { balance: before.balance + 100, applied: false },
    { balance: before.balance + 100, applied: false },
  ])
  await expect
    .poll(() => status.textContent(), { timeout: scaled(15_000) })
    .toContain(`Balance now: ${before.balance + 100}`)
  await staffPage.reload()
  await staffPage.locator('[data-testid=member-ledger]').waitFor()
  const staffRows = staffPage.locator('[data-testid=member-ledger] tbody tr', {
    hasText: 'adjustment',
  })
  expect(await staffRows.filter({ hasText: '+100' }).count()).toBe(before.corrections + 1)
  expect(await staffPage.locator('[data-testid=member-credits]').textContent()).toBe(
    String(before.balance + 100),
  )

  // The member: balance and history show it once, also after a reload.
  const after = await memberCredits(before.balance + 100)
  expect(after.corrections).toBe(before.corrections + 1)
  await memberPage.reload()
  const reloaded = await memberCredits(before.balance + 100)
  expect(reloaded.corrections).toBe(before.corrections + 1)

  // The console's pages fit a phone and a desktop without sideways scrolling.
  const memberUrl = new URL(staffPage.url()).pathname
  for (const width of [360, 1280]) {
    await staffPage.setViewportSize({ width, height: 900 })
    for (const path of [memberUrl, '/operator/members?q=example.com']) {
      await staffPage.goto(path)
      await staffPage.locator('main h1').waitFor()
      const overflow = await staffPage.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0)
      if (process.env.E2E_SCREENSHOTS)
        await staffPage.screenshot({
          path: `${process.env.E2E_SCREENSHOTS}/console-${width}-${path.includes('?') ? 'search' : 'member'}.png`,
          fullPage: true,
        })
    }
  }
})
