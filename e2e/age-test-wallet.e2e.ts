// The age check on a demo start, end to end in the browser with the site's
// own test wallet (api/age/test-wallet.ts): no trust anchor is configured,
// the built-in test issuer is the only one. A member's first message is
// refused (age_assurance=first_contact), /age offers the test wallet next to
// the QR code, its page is marked as a test, "Present: over 18" answers the
// request as a wallet would and brings the member back to /age, confirmed;
// "Continue" goes back to the chat and the message then goes through.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, chatOpened, DEMO, logInMember } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }

const suite = browserSuite(2, {
  SITE_SETTINGS: JSON.stringify({ age_assurance: 'first_contact' }),
  AGE_TEST_WALLET: 'on',
})
let a: Page
let b: Page
beforeAll(() => {
  ;[a, b] = suite.pages as [Page, Page]
})

async function type(p: Page, text: string) {
  const box = p.getByRole('textbox', { name: 'Your message' })
  await box.fill(text)
  await box.press('Enter')
}

describe('the age check with the built-in test wallet', () => {
  it('opens the test wallet from /age, presents over 18, and the member comes back able to send', async () => {
    const aId = (await logInMember(a, DEMO)).id
    await logInMember(b, B_LOGIN)
    await b.goto(`/members/${aId}/chat`)
    await chatOpened(b)
    const chat = new URL(b.url()).pathname

    await type(b, 'Hello there, nice profile!')
    await b.waitForURL(/\/age\?next=/, { timeout: scaled(15_000) })
    await b.getByRole('button', { name: 'Verify with the age verification app' }).click()
    await b.getByText('It is not a real proof of age.').waitFor()
    await b.getByRole('link', { name: 'Open the test wallet' }).click()

    await b.waitForURL(/\/api\/age_test_wallet\.php\?/, { timeout: scaled(15_000) })
    await b.getByText('TEST WALLET: not a real proof of age.').waitFor()
    await b.getByRole('button', { name: 'Present: over 18' }).click()

    // Back on /age, confirmed; it goes on to the chat.
    await b.waitForURL((url) => url.pathname === '/age', { timeout: scaled(15_000) })
    await b.getByText('Thank you, your age is confirmed.').waitFor({ timeout: scaled(15_000) })
    await b.getByRole('button', { name: 'Continue' }).click()
    // A navigation inside the app: the URL changes without a page load.
    await expect.poll(() => new URL(b.url()).pathname, { timeout: scaled(15_000) }).toBe(chat)
    await type(b, 'Hello again, my age is confirmed now!')
    await b
      .locator('.message--mine.message--sent', { hasText: 'my age is confirmed now' })
      .waitFor({ timeout: scaled(15_000) })
    expect(new URL(b.url()).pathname).toBe(chat)
  })
})
