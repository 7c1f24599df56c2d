// A first message held by the scam signals end to end: a member opens a
// chat asking to move to another app; the recipient sees nothing of it; a
// moderator finds it in the queue as a held first message with its signal
// named, releases it, and the recipient then has it.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { pageApi as api, browserSuite, DEMO, logInMember, staffSignIn } from './harness.ts'

const SENDER = { email: 'demo2@example.com', password: DEMO.password }
const STAFF = 'moderator@example.com'
const TEXT = 'I am rarely here, add me on WhatsApp'

const suite = browserSuite(3)
let a: Page
let b: Page
let s: Page
beforeAll(() => {
  ;[a, b, s] = suite.pages as [Page, Page, Page]
})

let conversation = 0

describe('a held first message', () => {
  it('is answered as sent but the recipient has nothing', async () => {
    const { id: aId } = await logInMember(a, DEMO)
    await logInMember(b, SENDER)
    const chat = await api<{ id: number }>(b, `/api/chat.php?profile=${aId}`)
    conversation = chat.body.id
    const before = await api<{ messages: unknown[] }>(
      a,
      `/api/messages.php?conversation=${conversation}`,
    )
    // The conversation must be new for this test: its first message is the one held.
    expect(before.body.messages).toEqual([])
    const sent = await api(b, '/api/messages.php', {
      method: 'POST',
      body: { conversation, text: TEXT, client_id: crypto.randomUUID() },
    })
    expect(sent.status).toBe(201)
    const after = await api<{ messages: unknown[] }>(
      a,
      `/api/messages.php?conversation=${conversation}`,
    )
    expect(after.body.messages).toEqual([])
  })

  it('waits in the queue with its signal named, and is delivered on release', async () => {
    await staffSignIn(s, suite.site, STAFF, DEMO.password)
    await s.goto('/operator/queue')
    const row = s.getByRole('row').filter({ hasText: `Held first message #${conversation}` })
    await row.waitFor()
    expect(await row.textContent()).toContain('messenger app')
    for (const width of [360, 1280]) {
      await s.setViewportSize({ width, height: 900 })
      await s.screenshot({ path: `/tmp/i28b-queue-${width}.png`, fullPage: true })
    }
    await row.getByRole('link').click()
    await s.getByText(TEXT).waitFor()
    await s.getByText('its recipient has not seen it').waitFor()
    for (const width of [360, 1280]) {
      await s.setViewportSize({ width, height: 900 })
      await s.screenshot({ path: `/tmp/i28b-item-${width}.png`, fullPage: true })
    }
    await s.getByLabel('Action').selectOption('dismiss')
    expect(await s.getByLabel('Action').locator('option:checked').textContent()).toBe('Release')
    await s.getByLabel('Facts and reasons (sent to the member)').fill('An ordinary invitation.')
    await s.getByRole('button', { name: 'Decide' }).click()
    await s.getByRole('status').filter({ hasText: 'Released' }).waitFor()
    const got = await api<{ messages: { text: string }[] }>(
      a,
      `/api/messages.php?conversation=${conversation}`,
    )
    expect(got.body.messages.map((m) => m.text)).toEqual([TEXT])
  })
})
