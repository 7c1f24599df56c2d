// A held first message, the sender's side (docs/live.md "Held openings"):
// the sender's chat shows it marked "Under review" with a line saying why;
// the recipient has nothing; released by a moderator, the mark goes from
// the sender's open chat by itself (the poke, then the newest page).
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, chatOpened, DEMO, logInMember, staffSignIn } from './harness.ts'

const SENDER = { email: 'demo2@example.com', password: DEMO.password }
const STAFF = 'moderator@example.com'
const TEXT = 'I am rarely here, add me on WhatsApp'
const WAIT = scaled(30_000)

const suite = browserSuite(3)
let a: Page
let b: Page
let s: Page
beforeAll(() => {
  ;[a, b, s] = suite.pages as [Page, Page, Page]
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
    const aId = (await logInMember(a, DEMO)).id
    await logInMember(b, SENDER)
    await b.goto(`/members/${aId}`)
    await b.getByRole('button', { name: /^Chat with / }).click()
    conversation = await chatOpened(b)
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
    await staffSignIn(s, suite.site, STAFF, DEMO.password)
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
