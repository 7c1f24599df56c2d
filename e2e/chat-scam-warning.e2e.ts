// The scam warning in the chat (api/contract/rules/scam.ts): when the other
// member asks to move to another app, the recipient sees a warning to keep
// the conversation on the site; when they ask for money, a warning never to
// send any. The sender sees no warning for their own lines.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO, logInMember, openChat } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }

const suite = browserSuite(2)
let a: Page
let b: Page
beforeAll(() => {
  ;[a, b] = suite.pages as [Page, Page]
})

async function send(p: Page, text: string) {
  const box = p.getByRole('textbox', { name: 'Your message' })
  await box.fill(text)
  await box.press('Enter')
  await p
    .locator('.message--mine.message--sent', { hasText: text })
    .waitFor({ timeout: scaled(15_000) })
}

describe('the scam warning in the chat', () => {
  it('the recipient is warned of moving off the site, then of paying; the sender is not', async () => {
    const { id: aId } = await logInMember(a, DEMO)
    await logInMember(b, B_LOGIN)
    const chat = `/chats/${await openChat(b, aId)}`
    // An opening line first: a first message asking the same is held for a
    // moderator and never reaches the recipient (api/chats/scam-cases.ts).
    await send(b, 'Hi! I liked your profile, how is your week going?')
    await send(b, 'Add me on WhatsApp, I am rarely here')
    expect(await b.locator('[data-scam-warning]').count()).toBe(0)

    await a.goto(chat)
    const warning = a.getByRole('note').filter({ hasText: 'continue elsewhere' })
    await warning.waitFor({ timeout: scaled(15_000) })
    expect(await warning.getAttribute('data-scam-warning')).toBe('off_site')

    await send(b, 'Could you send me money for the train ticket?')
    await a.locator('[data-scam-warning="payment"]').waitFor({ timeout: scaled(15_000) })
    expect(await a.locator('[data-scam-warning]').textContent()).toContain('Never send money')
  })
})
