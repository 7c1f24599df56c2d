// The fictional-profile disclosure in the chat (the ACM commitments): a chat
// with a fictional profile says so above the messages, a chat with a real
// member does not. Profiles are taken from the demo seed's search, where
// about one in twenty is fictional.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DEMO, logInMember, openChat } from './harness.ts'

const suite = browserSuite(1)
let page: Page
beforeAll(() => {
  ;[page] = suite.pages as [Page]
})

type Found = { id: number; name: string; fictional: boolean }

/** The first fictional and the first real profile the member's search shows. */
async function oneOfEach(): Promise<{ fictional: Found; real: Found }> {
  return page.evaluate(async () => {
    let fictional: Found | undefined
    let real: Found | undefined
    for (let p = 1; p <= 60 && !(fictional && real); p++) {
      const res = await fetch(`/api/search.php?page=${p}`)
      const body = (await res.json()) as { profiles: Found[] }
      if (body.profiles.length === 0) break
      fictional ??= body.profiles.find((x) => x.fictional)
      real ??= body.profiles.find((x) => !x.fictional)
    }
    if (!fictional || !real) throw new Error('the seed has no fictional or no real profile')
    return { fictional, real }
  })
}

describe('the fictional-profile disclosure in the chat', () => {
  it('a chat with a fictional profile says so; a chat with a real member does not', async () => {
    await logInMember(page, DEMO)
    const { fictional, real } = await oneOfEach()

    await openChat(page, fictional.id)
    const notice = page.getByRole('note').filter({ hasText: 'fictional profile' })
    await notice.waitFor()
    expect(await notice.textContent()).toBe(
      `${fictional.name} is a fictional profile, run by the site for entertainment.`,
    )
    // Above the messages and the composer, where the member reads before writing.
    const order = await page.evaluate(() => {
      const n = document.querySelector('[data-fictional-notice]')
      const list = document.querySelector('.chat-messages')
      return n && list ? n.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING : 0
    })
    expect(order).toBeGreaterThan(0)

    await openChat(page, real.id)
    await page.locator('.chat-messages').waitFor()
    await page.getByRole('heading', { name: real.name }).first().waitFor()
    expect(await page.locator('[data-fictional-notice]').count()).toBe(0)
  })
})
