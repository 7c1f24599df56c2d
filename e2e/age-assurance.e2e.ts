// Age assurance in the browser (DSA Art. 28, api/age/): on a site whose
// operator asks for it before the first message, a member's message is
// refused and the app sends them to /age; the page shows the OpenID4VP
// request as a QR code and a link; the local test wallet, driven from here
// with the link the page shows, answers with a real signed presentation;
// the page goes back to the chat, and the message then goes through.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { present, type TestIssuer, testIssuer } from '../api/age/testing/wallet.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  logIn,
  newContext,
  type Site,
  startSite,
} from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }

let site: Site
let browser: Browser
let ctxA: BrowserContext
let ctxB: BrowserContext
let a: Page
let b: Page
let issuer: TestIssuer

beforeAll(async () => {
  issuer = await testIssuer()
  site = await startSite({
    SITE_SETTINGS: JSON.stringify({ age_assurance: 'first_contact' }),
    AGE_TRUST_ANCHORS: issuer.anchorPem,
  })
  browser = await launchBrowser()
  ctxA = await newContext(browser, site)
  ctxB = await newContext(browser, site)
  a = await ctxA.newPage()
  b = await ctxB.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (t) => {
  if (t.task.result?.state === 'fail') {
    await describePage(b)
    console.log(site.output().slice(-3000))
  }
})

const me = (p: Page) =>
  p.evaluate(
    async () =>
      ((await (await fetch('/api/user.php')).json()) as { profile: { id: number } }).profile.id,
  )

async function type(p: Page, text: string) {
  const box = p.getByRole('textbox', { name: 'Your message' })
  await box.fill(text)
  await box.press('Enter')
}

describe('age assurance before the first message', () => {
  it('sends the member to /age, takes the wallet answer from the QR link, and the message then goes', async () => {
    await logIn(a, DEMO)
    await a.waitForURL(/\/members/)
    const aId = await me(a)
    await logIn(b, B_LOGIN)
    await b.waitForURL(/\/members/)
    await b.goto(`/members/${aId}/chat`)
    await b.waitForURL(/\/chats\/\d+$/)
    const chat = new URL(b.url()).pathname
    await b.locator('.composer__balance').waitFor()

    await type(b, 'Hi! How is your week going?')
    // The server refuses (403 age_assurance_required); the app goes to the check.
    await b.waitForURL(/\/age\?next=/, { timeout: 15_000 })
    await b.getByRole('heading', { name: 'Confirm your age' }).waitFor()
    await b.getByRole('button', { name: 'Verify with the age verification app' }).click()
    const qr = b.getByRole('img', { name: 'QR code for the age verification app' })
    await qr.waitFor()
    const link = await b
      .getByRole('link', { name: 'Is the app on this device? Open it here' })
      .getAttribute('href')
    expect(link).toMatch(/^openid4vp:\/\/\?/)

    const { response } = await present(link ?? '', await issuer.issue({ ageOver18: true }))
    expect(response.status).toBe(200)

    // The page sees the answer and goes back to the chat.
    await b.waitForURL((url) => url.pathname === chat, { timeout: 15_000 })
    await type(b, 'Hi again, now with my age confirmed!')
    await b
      .locator('.message--mine.message--sent', { hasText: 'now with my age confirmed' })
      .waitFor({ timeout: 15_000 })
  })
})
