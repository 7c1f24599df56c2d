// One price (docs/messages-and-credits.md): the same member reads the same
// money for a message on the home page, in the chat's composer and on
// /credits, before their first purchase (the best package on offer) and
// after it (what they paid per credit); the payment page spells the bonus
// out with its reasons.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO } from './harness.ts'

// The local payment stand-in (no Mollie key), as the credits test has it.
const suite = browserSuite(1, { MOLLIE_API_KEY: '' })
let page: Page
let chatId = 0

beforeAll(() => {
  page = suite.pages[0]!
})

const api = <T>(path: string) =>
  page.evaluate(async (p) => (await (await fetch(p)).json()) as unknown, path) as Promise<T>

/** The money text of a message on a page, once it shows `expected`. */
async function moneyOn(path: string, expected: string) {
  await page.goto(path)
  const shown = page.locator(`[data-message-money="${expected}"]`)
  await shown.first().waitFor({ timeout: scaled(15_000) })
  return (await shown.first().textContent())?.trim()
}

/** The message's money on the home page, in the composer and on /credits. */
const everywhere = async (expected: string) => [
  await moneyOn('/', expected),
  await moneyOn(`/chats/${chatId}`, expected),
  await moneyOn('/credits', expected),
]

describe('one price for a message', () => {
  it('a member who never bought sees the best package’s price on home, chat and credits alike', async () => {
    await page.goto('/login')
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill(DEMO.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/members/)
    const { profiles } = await api<{ profiles: { id: number }[] }>('/api/search.php')
    chatId = (await api<{ id: number }>(`/api/chat.php?profile=${profiles[0]?.id}`)).id
    // 1500 + 400 credits for €79.95, 10 credits a message: 42.08 cents, rounded down.
    const text = 'A message costs 10 credits (€0.42)'
    expect(await everywhere('€0.42')).toEqual([text, text, text])
  })

  it('the payment page spells the bonus out: 250 credits + 150 bonus = 400 credits, and why', async () => {
    await page.goto('/credits/popular/ideal')
    const sum = page.locator('.credits-sum')
    await sum.waitFor({ timeout: scaled(15_000) })
    expect(await sum.textContent()).toBe('250 credits + 150 bonus = 400 credits')
    expect(await page.locator('.credits-sum__why li').allTextContents()).toEqual([
      'Package bonus: +25',
      'Welcome offer on your first purchase (50% extra): +125',
    ])
    expect(await page.getByRole('button', { name: /^Pay / }).textContent()).toBe('Pay €19.95')
  })

  it('after the purchase every page shows what the member paid per credit', async () => {
    await page.getByRole('checkbox', { name: /use the credits at once/ }).check()
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL(/\/api\/payments\/checkout\.php\?id=tr_/)
    await page.locator('button[value="paid"]').click()
    await page.waitForURL(/\/transactions\/[\w-]+$/)
    await page
      .locator('.transaction-status[data-status="paid"]')
      .waitFor({ timeout: scaled(15_000) })
    // €19.95 for 400 credits, 10 credits a message: 49.875 cents, rounded down.
    const text = 'A message costs 10 credits (€0.49)'
    expect(await everywhere('€0.49')).toEqual([text, text, text])
  })
})
