// Age assurance in the browser (DSA Art. 28, api/age/): on a site whose
// operator asks for it before the first message, a member's message is
// refused and the app sends them to /age; the page shows the OpenID4VP
// request as a QR code and a link; the local test wallet, driven from here
// with the link the page shows, answers with a real signed presentation;
// the page goes back to the chat, and the message then goes through.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { present, testIssuer } from '../api/age/testing/wallet.ts'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, chatOpened, DEMO, logInMember } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }

const issuer = await testIssuer()
const suite = browserSuite(2, {
  SITE_SETTINGS: JSON.stringify({ age_assurance: 'first_contact' }),
  AGE_TRUST_ANCHORS: issuer.anchorPem,
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

describe('age assurance before the first message', () => {
  it('sends the member to /age, takes the wallet answer from the QR link, and the message then goes', async () => {
    const aId = (await logInMember(a, DEMO)).id
    await logInMember(b, B_LOGIN)
    await b.goto(`/members/${aId}/chat`)
    await chatOpened(b)
    const chat = new URL(b.url()).pathname

    await type(b, 'Hi! How is your week going?')
    // The server refuses (403 age_assurance_required); the app goes to the check.
    await b.waitForURL(/\/age\?next=/, { timeout: scaled(15_000) })
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
    await b.waitForURL((url) => url.pathname === chat, { timeout: scaled(15_000) })
    await type(b, 'Hi again, now with my age confirmed!')
    await b
      .locator('.message--mine.message--sent', { hasText: 'now with my age confirmed' })
      .waitFor({ timeout: scaled(15_000) })
  })
})
