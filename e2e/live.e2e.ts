// Conversations that feel alive (docs/live.md), two members in two browser
// contexts: a visit to B's profile appears in B's open visitors list, A's
// typing shows "… is typing" in B's open chat and goes away after 5 s of
// silence, and A's message shows "Seen" once B, with the chat open, has it.
// All of it through the live stream: the fallback poll is 60 s, far beyond
// these waits.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, chatOpened, DEMO, logInMember } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }
/** Well below the 60 s fallback poll of spec §9: what shows this fast came by the stream. */
const LIVE = scaled(10_000)

const suite = browserSuite(2)
let a: Page
let b: Page
let aName = ''
let bId = 0
let chatId = 0
beforeAll(() => {
  ;[a, b] = suite.pages as [Page, Page]
})

const composerBox = (p: Page) => p.getByRole('textbox', { name: 'Your message' })

describe('seen, typing and visits, live between two members', () => {
  it("a visit to B's profile appears in B's open visitors list", async () => {
    bId = (await logInMember(b, B_LOGIN)).id
    aName = (await logInMember(a, DEMO)).name
    await b.goto('/likes/visitors')
    await b.getByText('Nobody has visited your profile yet.').waitFor()
    await a.goto(`/members/${bId}`)
    await b
      .getByRole('list', { name: 'Visitors' })
      .getByRole('link', { name: aName })
      .waitFor({ timeout: LIVE })
  })

  it("A types: B's open chat shows that A is typing, gone after 5 s of silence", async () => {
    await a.getByRole('button', { name: /^Chat with / }).click()
    chatId = await chatOpened(a)
    await b.goto(`/chats/${chatId}`)
    await b.locator('.composer__balance').waitFor()
    const typing = b.getByRole('status').filter({ hasText: `${aName} is typing…` })
    // A keeps typing, a key a second and a bit (the server lets one signal
    // a second through), until B shows it: B's event stream comes up once
    // its page painted, and a signal sent before that is gone (typing is
    // never pulled later), as it would be for a member.
    const end = Date.now() + LIVE
    for (let n = 0; ; n++) {
      await composerBox(a).pressSequentially('Hel'[n % 3] ?? 'l')
      const shown = await typing
        .waitFor({ timeout: 1_200 })
        .then(() => true)
        .catch(() => false)
      if (shown) break
      if (Date.now() > end) throw new Error(`B never showed that ${aName} is typing`)
    }
    // No more keys: the line goes (5 s after the last signal), without a reload.
    await typing.waitFor({ state: 'detached', timeout: LIVE + 5_000 })
  })

  it("A's message shows Seen once B, with the chat open, has it", async () => {
    await composerBox(a).fill('Hello, did you read this?')
    await composerBox(a).press('Enter')
    await b
      .getByRole('list', { name: 'Messages' })
      .locator('.message__text', { hasText: 'Hello, did you read this?' })
      .waitFor({ timeout: LIVE })
    await a.locator('.message--mine .seen-mark', { hasText: 'Seen' }).waitFor({ timeout: LIVE })
    expect(await a.locator('.seen-mark').count()).toBe(1)
  })
})
