// A held first message, the sender's side (docs/live.md "Held openings"):
// the sender's chat shows it marked "Under review" with a line saying why;
// the recipient has nothing; released by a moderator, the mark goes from
// the sender's open chat by itself (the poke, then the newest page).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../api/operator/totp.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  logIn,
  newContext,
  type Site,
  staffSecret,
  startSite,
} from './harness.ts'

const SENDER = { email: 'demo2@example.com', password: DEMO.password }
const STAFF = 'moderator@example.com'
const TEXT = 'I am rarely here, add me on WhatsApp'
const WAIT = 30_000

let site: Site
let browser: Browser
let ctxA: BrowserContext
let ctxB: BrowserContext
let ctxS: BrowserContext
let a: Page
let b: Page
let s: Page

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  ctxA = await newContext(browser, site)
  ctxB = await newContext(browser, site)
  ctxS = await newContext(browser, site)
  a = await ctxA.newPage()
  b = await ctxB.newPage()
  s = await ctxS.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (t) => {
  if (t.task.result?.state === 'fail') {
    await describePage(a)
    await describePage(b)
    await describePage(s)
  }
})

const messagesOf = (p: Page, conversation: number) =>
  p.evaluate(
    async (c) =>
      (
        (await (await fetch(`/api/messages.php?conversation=${c}`)).json()) as {
          messages: { text: string }[]
        }
      ).messages,
    conversation,
  )

let conversation = 0

describe("a held first message, the sender's side", () => {
  it('the sender sees it marked "Under review"; the recipient has nothing', async () => {
    await logIn(a, DEMO)
    await a.waitForURL(/\/members/)
    const aId = await a.evaluate(
      async () =>
        ((await (await fetch('/api/user.php')).json()) as { profile: { id: number } }).profile.id,
    )
    await logIn(b, SENDER)
    await b.waitForURL(/\/members/)
    await b.goto(`/members/${aId}`)
    await b.getByRole('button', { name: /^Chat with / }).click()
    await b.waitForURL(/\/chats\/\d+$/)
    conversation = Number(new URL(b.url()).pathname.split('/').pop())
    await b.locator('.composer__balance').waitFor()
    const box = b.getByRole('textbox', { name: 'Your message' })
    await box.fill(TEXT)
    await box.press('Enter')
    const mine = b.locator('.message--mine', { hasText: TEXT })
    await mine.locator('.message__held', { hasText: 'Under review' }).waitFor({ timeout: WAIT })
    await mine.getByText('Our team checks this first message before it is delivered.').waitFor()
    for (const width of [360, 1280]) {
      await b.setViewportSize({ width, height: 800 })
      await b.screenshot({ path: `/tmp/held-opening-sender-${width}.png` })
      expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      )
    }
    expect(await messagesOf(a, conversation)).toEqual([])
  })

  it('released, the mark goes from the open chat and the recipient has the message', async () => {
    await s.goto('/operator/login')
    await s.getByLabel('Email address').fill(STAFF)
    await s.getByLabel('Password').fill(DEMO.password)
    await s.getByLabel('Code from your authenticator app').fill(totpCode(staffSecret(site, STAFF)))
    await s.getByRole('button', { name: 'Sign in' }).click()
    await s.waitForURL(/\/operator$/)
    await s.goto('/operator/queue')
    const row = s.getByRole('row').filter({ hasText: `Held first message #${conversation}` })
    await row.getByRole('link').click()
    await s.getByText(TEXT).waitFor()
    await s.getByLabel('Action').selectOption('dismiss')
    await s.getByLabel('Facts and reasons (sent to the member)').fill('An ordinary invitation.')
    await s.getByRole('button', { name: 'Decide' }).click()
    await s.getByRole('status').filter({ hasText: 'Released' }).waitFor()
    const mine = b.locator('.message--mine', { hasText: TEXT })
    await mine.locator('.message__held').waitFor({ state: 'detached', timeout: WAIT })
    expect((await messagesOf(a, conversation)).map((m) => m.text)).toEqual([TEXT])
  })
})
