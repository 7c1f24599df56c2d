// Buying credits in Chromium through the built-in local provider (no
// MOLLIE_API_KEY): the demo member sees the welcome discount on /credits,
// picks a package and iDEAL, pays on the local checkout, lands on the
// transaction page which turns paid, and the chat composer's balance grows by
// the package's credits plus bonus exactly once, even after a webhook replay
// and a reload; a failed and a canceled payment grant nothing; repeat-order
// buys the same package again; the member is now paid and sees no webcam
// tiles; /pricing shows a guest from NL and one from PL the price of a message
// in their currencies.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  newContext,
  pageUntil,
  type Site,
  startSite,
} from './harness.ts'

/** The seeded "popular" package: 250 credits + 25 bonus; the welcome code adds 50 % of 250. */
const POPULAR_WITH_WELCOME = 250 + 25 + 125
const POPULAR = 250 + 25

let site: Site
let browser: Browser
let ctx: BrowserContext
let page: Page
let chatId = 0
let start = 0
let paymentId = ''

beforeAll(async () => {
  site = await startSite({ MOLLIE_API_KEY: '' })
  browser = await launchBrowser()
  ctx = await newContext(browser, site)
  page = await ctx.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (t) => {
  if (t.task.result?.state === 'fail') await describePage(page)
})

const api = <T>(path: string) =>
  page.evaluate(async (p) => (await (await fetch(p)).json()) as unknown, path) as Promise<T>

/** The balance the chat composer shows, once it shows `expected`. */
async function composerBalance(expected: number) {
  await page.goto(`/chats/${chatId}`)
  await page
    .locator(`.composer__balance[data-credits="${expected}"]`)
    .waitFor({ timeout: scaled(15_000) })
  return Number(await page.locator('.composer__balance').getAttribute('data-credits'))
}

/** Ticks the checkout's consent to immediate use (CRD Art. 16(m)): without it nothing is ordered. */
const consent = () => page.getByRole('checkbox', { name: /use the credits at once/ }).check()

/** Chooses a package and method on /credits/{id}/{method} and goes to the local checkout. */
async function checkout(pkg: string, method: string) {
  await page.goto(`/credits/${pkg}/${method}`)
  const radio = page.locator(`input[type=radio][value="${method}"]`)
  await radio.waitFor()
  expect(await radio.isChecked()).toBe(true)
  await consent()
  await page.getByRole('button', { name: /^Pay / }).click()
  await page.waitForURL(/\/api\/payments\/checkout\.php\?id=tr_/)
  expect(await page.locator('body').textContent()).toContain('TEST PAYMENT')
  return new URL(page.url()).searchParams.get('id') ?? ''
}

const waitStatus = (status: string) =>
  page.locator(`.transaction-status[data-status="${status}"]`).waitFor({ timeout: scaled(15_000) })

describe('buying credits in Chromium', () => {
  it('the demo member logs in and the composer shows the starting balance', async () => {
    await page.goto('/login')
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill(DEMO.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/members/)
    const { profiles } = await api<{ profiles: { id: number }[] }>('/api/search.php')
    const { id } = await api<{ id: number }>(`/api/chat.php?profile=${profiles[0]?.id}`)
    chatId = id
    const { credits } = await api<{ credits: number }>('/api/credits.php')
    start = await composerBalance(credits)
  })

  it('/credits shows the welcome discount; iDEAL on the local checkout pays; the transaction turns paid', async () => {
    await page.goto('/credits')
    await page.locator('.discount-banner[data-discount="welcome"]').waitFor()
    expect(await page.locator('.discount-banner').textContent()).toContain('50% extra credits')
    const popular = page.locator('li[data-package="popular"]')
    expect(await popular.locator('.package__bonus').textContent()).toBe(`+${25 + 125} bonus`)
    await popular.getByRole('link', { name: 'Choose' }).click()
    await page.waitForURL(/\/credits\/popular/)
    expect(await page.locator('input[value="ideal"]').isChecked()).toBe(true)
    await consent()
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL(/\/api\/payments\/checkout\.php\?id=tr_/)
    expect(await page.locator('body').textContent()).toContain('TEST PAYMENT')
    // Styled like the site: a card on the page colour, the pay button in the brand's colour.
    const look = await page.evaluate(() => ({
      page: getComputedStyle(document.body).backgroundColor,
      card: getComputedStyle(document.querySelector('main') as Element).backgroundColor,
      pay: getComputedStyle(document.querySelector('button[value="paid"]') as Element)
        .backgroundColor,
    }))
    expect(look).toEqual({
      page: 'rgb(250, 247, 249)',
      card: 'rgb(255, 255, 255)',
      pay: 'rgb(194, 24, 91)',
    })
    paymentId = new URL(page.url()).searchParams.get('id') ?? ''
    await page.locator('button[value="paid"]').click()
    await page.waitForURL(/\/transactions\/[\w-]+$/)
    await waitStatus('paid')
    expect(await page.locator('.transaction-status').textContent()).toContain(
      `${POPULAR_WITH_WELCOME} credits`,
    )
  })

  it('grows the balance exactly once, even after a webhook replay and a reload', async () => {
    const transaction = page.url()
    const replay = await page.request.post('/api/payments/webhook.php', {
      form: { id: paymentId },
    })
    expect(replay.status()).toBe(200)
    await page.goto(transaction)
    await waitStatus('paid')
    await page.reload()
    await waitStatus('paid')
    expect(await composerBalance(start + POPULAR_WITH_WELCOME)).toBe(start + POPULAR_WITH_WELCOME)
    const { credits } = await api<{ credits: number }>('/api/credits.php')
    expect(credits).toBe(start + POPULAR_WITH_WELCOME)
  })

  it('a failed and a canceled payment grant nothing', async () => {
    await checkout('starter', 'creditcard')
    await page.getByRole('button', { name: 'Fail' }).click()
    await waitStatus('failed')
    await checkout('starter', 'paypal')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await waitStatus('canceled')
    expect(await composerBalance(start + POPULAR_WITH_WELCOME)).toBe(start + POPULAR_WITH_WELCOME)
  })

  it('/credits lists the purchase with the balance after it', async () => {
    await page.goto('/credits')
    const row = page.locator('.credit-history li', { hasText: 'Purchase' }).first()
    await row.waitFor()
    expect(await row.textContent()).toContain(`+${POPULAR_WITH_WELCOME}`)
    expect(await row.textContent()).toContain(`Balance after: ${start + POPULAR_WITH_WELCOME}`)
  })

  it('repeat-order buys the same package again in one step (the iDEAL mandate, no checkout)', async () => {
    await page.goto('/credits/repeat-order')
    await consent()
    await page.getByRole('button', { name: /^Buy again for / }).click()
    await page.waitForURL(/\/transactions\/[\w-]+$/)
    await waitStatus('paid')
    const total = start + POPULAR_WITH_WELCOME + POPULAR
    expect(await composerBalance(total)).toBe(total)
  })

  it('the member is now paid and sees no webcam tiles', async () => {
    const user = await api<{ paid_user: boolean }>('/api/user.php')
    expect(user.paid_user).toBe(true)
    await page.goto('/members')
    await page.locator('ul.grid > li').nth(11).waitFor()
    await pageUntil(
      page,
      async () => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const req = indexedDB.open('amora')
          req.onsuccess = () => resolve(req.result)
        })
        const user = await new Promise<{ value?: { paid_user?: boolean } } | undefined>(
          (resolve) => {
            const req = db.transaction('kv').objectStore('kv').get('user')
            req.onsuccess = () => resolve(req.result as never)
          },
        )
        db.close()
        return user?.value?.paid_user === true
      },
      undefined,
    )
    expect(await page.locator('ul.grid > li.cam-tile').count()).toBe(0)
  })

  it('/pricing shows a guest from NL and one from PL the price of a message in their currency', async () => {
    const guest = await newContext(browser, site)
    const g = await guest.newPage()
    try {
      await g.goto('/pricing?country=NL')
      const nl = g.locator('[data-message-price="EUR"]')
      await nl.waitFor()
      expect(await nl.textContent()).toMatch(/One message from €0\.\d\d/)
      await g.goto('/pricing?country=PL')
      const pl = g.locator('[data-message-price="PLN"]')
      await pl.waitFor()
      expect(await pl.textContent()).toMatch(
        /One message from PLN\s?\d+\.\d\d|One message from \d+\.\d\d\s?zł/,
      )
      expect(await g.locator('li[data-package="popular"] .package__price').textContent()).toMatch(
        /89\.99/,
      )
    } finally {
      await guest.close()
    }
  })
})
