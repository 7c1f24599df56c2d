// The withdrawal function in Chromium (CRD Art. 11a, 16(m)): the checkout
// does not order without the consent box; the footer of every page links
// "Withdraw from contract here"; the demo member picks the purchase, confirms,
// sees it withdrawn with its refund, and gets the acknowledgement mail with
// the date and time; logged out, the e-mail address and order number bring a
// confirmation link, and following it withdraws from that purchase.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DevMailResponse } from '../api/contract/index.ts'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO, logInMember, newContext } from './harness.ts'

const suite = browserSuite(1, { MOLLIE_API_KEY: '' })
let page: Page
beforeAll(() => {
  ;[page] = suite.pages as [Page]
})

const mails = async (p: Page) =>
  (
    (await p.evaluate(
      async () => (await (await fetch('/api/_dev/mail.php')).json()) as unknown,
    )) as DevMailResponse
  ).mails

/** Buys the starter package through the local checkout, the consent box ticked; its order number. */
async function buyStarter(): Promise<string> {
  await page.goto('/credits/starter/creditcard')
  const consent = page.getByRole('checkbox', { name: /use the credits at once/ })
  await consent.waitFor()
  await consent.check()
  await page.getByRole('button', { name: /^Pay / }).click()
  await page.waitForURL(/\/api\/payments\/checkout\.php\?id=tr_/)
  await page.locator('button[value="paid"]').click()
  await page.waitForURL(/\/transactions\/[\w-]+$/)
  await page.locator('.transaction-status[data-status="paid"]').waitFor({ timeout: scaled(15_000) })
  return new URL(page.url()).pathname.split('/').pop() ?? ''
}

describe('withdrawing from a purchase in Chromium', () => {
  let first = ''
  let second = ''

  it('the checkout does not order without the consent box', async () => {
    await logInMember(page, DEMO)
    await page.goto('/credits/starter/creditcard')
    const consent = page.getByRole('checkbox', { name: /use the credits at once/ })
    await consent.waitFor()
    await page.getByRole('button', { name: /^Pay / }).click()
    // The required box stops the form: still here, and the box says it is missing.
    expect(new URL(page.url()).pathname).toBe('/credits/starter/creditcard')
    expect(await consent.evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).toBe(
      true,
    )
  })

  it('the footer links the withdrawal function; the member picks the purchase, confirms and sees it withdrawn', async () => {
    first = await buyStarter()
    second = await buyStarter()
    await page.goto('/pages/faq')
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Withdraw from contract here' })
      .click()
    await page.waitForURL(/\/withdraw$/)
    const row = page.locator(`li[data-order="${first}"]`)
    await row.getByRole('button', { name: 'Withdraw from contract here' }).click()
    await page.getByRole('heading', { name: 'Confirm your withdrawal' }).waitFor()
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click()
    await page.getByRole('heading', { name: /You have withdrawn from this purchase/ }).waitFor()
    expect(await page.locator('.withdraw__done').textContent()).toMatch(
      /is refunded for \d+ unused credits/,
    )
    // After a reload the purchase shows as withdrawn, and cannot be withdrawn again.
    await page.reload()
    const again = page.locator(`li[data-order="${first}"]`)
    await again.locator('[data-withdrawn="true"]').waitFor()
    expect(await again.getByRole('button').count()).toBe(0)
    // The acknowledgement: date, time and the order number, on a durable medium.
    const ack = (await mails(page)).find((m) => m.kind === 'withdrawal' && m.text.includes(first))
    expect(ack?.to).toBe(DEMO.email)
    expect(ack?.text).toMatch(/on \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}:\d{2} (AM|PM) UTC/)
  })

  it('the credits history links each purchase to the withdrawal page', async () => {
    await page.goto('/credits')
    const link = page
      .locator('.credit-history li')
      .getByRole('link', { name: 'Withdraw from contract here' })
      .first()
    await link.waitFor()
    expect(await link.getAttribute('href')).toMatch(/^\/withdraw\?order=/)
  })

  it('logged out: e-mail address and order number bring a link that confirms the withdrawal', async () => {
    const guest = await newContext(suite.browser, suite.site)
    const p = await guest.newPage()
    await p.goto('/withdraw')
    await p.getByLabel('E-mail address').fill(DEMO.email)
    await p.getByLabel('Order number').fill(second)
    await p.getByRole('button', { name: 'Send confirmation link' }).click()
    await p
      .getByRole('status')
      .filter({ hasText: /we have sent a link/ })
      .waitFor()
    const link = (await mails(page)).find(
      (m) => m.kind === 'withdrawal_link' && m.text.includes(second),
    )
    const url = /https?:\/\/\S+\/withdraw\?token=[\w-]+/.exec(link?.text ?? '')?.[0] ?? ''
    expect(url).not.toBe('')
    const token = new URL(url).search
    await p.goto(`/withdraw${token}`)
    await p.getByRole('button', { name: 'Confirm withdrawal' }).click()
    await p.getByRole('heading', { name: /You have withdrawn from this purchase/ }).waitFor()
    await guest.close()
    await page.goto('/withdraw')
    await page.locator(`li[data-order="${second}"] [data-withdrawn="true"]`).waitFor()
    // E2E_SCREENSHOTS=<dir>: the page at a phone's and a desktop's width, to look at.
    const dir = process.env.E2E_SCREENSHOTS
    if (dir)
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 900 })
        await page.screenshot({ path: `${dir}/withdraw-${width}.png`, fullPage: true })
      }
  })
})
