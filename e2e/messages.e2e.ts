// Messages paid with credits, two members in two browser contexts: A opens a
// chat from B's profile, each message appears in the other's open tab through
// the live stream (the fallback poll is 60 s, far beyond these waits), every
// send costs the message price once, offline sends arrive once on reconnect,
// 402 keeps the text, a block stops messages, reading clears the unread count
// and deleting removes the chat at once; at 360 px the chat opens at the first
// unread message, follows a reply at the bottom and, scrolled up, shows a pill.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { DB_NAME } from '../sync/store/store.ts'
import { browserSuite, chatOpened, DEMO, logInMember, pageUntil } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }
/** Credits a message costs by default (api/credits/ledger.ts). */
const COST = 10
/** Well below the 60 s fallback poll of spec §9: an arrival this fast came by the stream. */
const LIVE = scaled(10_000)

const suite = browserSuite(2)
let a: Page
let b: Page
let chatId = 0
let aId = 0
beforeAll(() => {
  ;[a, b] = suite.pages as [Page, Page]
})

/** The balance the composer shows (data-credits). */
const balance = async (p: Page) =>
  Number(await p.locator('.composer__balance').getAttribute('data-credits'))

const waitBalance = (p: Page, credits: number) =>
  p.locator(`.composer__balance[data-credits="${credits}"]`).waitFor({ timeout: LIVE })

/** Waits until the message with `text` is wholly inside the list's visible part and the window. */
const inView = (p: Page, text: string) =>
  p.waitForFunction(
    (t) => {
      const list = document.querySelector('.chat-messages')!
      const item = [...list.querySelectorAll('.message')].find((m) => m.textContent?.includes(t))
      if (!item) return false
      const box = list.getBoundingClientRect()
      const r = item.getBoundingClientRect()
      const top = Math.max(box.top, 0)
      const bottom = Math.min(box.bottom, window.innerHeight)
      return r.top >= top - 1 && r.bottom <= bottom + 1
    },
    text,
    { timeout: LIVE },
  )

async function send(p: Page, text: string) {
  const box = composerBox(p)
  await box.fill(text)
  await box.press('Enter')
}

/**
 * Holds a read-write transaction on the worker's outbox store (IndexedDB
 * runs them one after another), so a send waits to be stored until
 * releaseOutbox: a slow device's storage, on demand.
 */
const holdOutbox = (p: Page) =>
  p.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const tx = db.transaction('outbox', 'readwrite')
          const store = tx.objectStore('outbox')
          const w = window as unknown as { outboxHeld: boolean }
          w.outboxHeld = true
          // A transaction with a request in flight stays open.
          const spin = () => {
            if (w.outboxHeld) store.count().onsuccess = spin
          }
          spin()
          tx.oncomplete = () => db.close()
          resolve()
        }
      }),
    DB_NAME,
  )

const releaseOutbox = (p: Page) =>
  p.evaluate(() => {
    ;(window as unknown as { outboxHeld: boolean }).outboxHeld = false
  })

const composerBox = (p: Page) => p.getByRole('textbox', { name: 'Your message' })

const messageIn = (p: Page, text: string) =>
  p.getByRole('list', { name: 'Messages' }).locator('.message__text', { hasText: text })

describe('messages paid with credits, two members', () => {
  it("A opens a chat from B's profile; B has it open too", async () => {
    const { id: bId } = await logInMember(b, B_LOGIN)
    aId = (await logInMember(a, DEMO)).id
    await a.goto(`/members/${bId}`)
    await a.getByRole('button', { name: 'Chat with Demo Two' }).click()
    chatId = await chatOpened(a)
    await b.goto(`/chats/${chatId}`)
    await b.locator('.composer__balance').waitFor()
  })

  it('a chat only opened is in neither list: a conversation begins with its first message', async () => {
    // The worker has stored the opened conversation (GET /api/chats.php lists it) ...
    await a.goto('/chats')
    await a.getByRole('heading', { name: 'Chats' }).waitFor()
    await pageUntil(
      a,
      (args: { name: string; id: number }) =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open(args.name)
          open.onerror = () => resolve(false)
          open.onsuccess = () => {
            const get = open.result.transaction('chats').objectStore('chats').get(args.id)
            get.onsuccess = () => {
              open.result.close()
              resolve(get.result !== undefined)
            }
            get.onerror = () => resolve(false)
          }
        }),
      { name: DB_NAME, id: chatId },
      { every: 200, timeout: LIVE },
    )
    // ... and the list still leaves it out, on both sides.
    expect(await a.getByText('No messages yet').count()).toBe(0)
    expect(await a.locator(`.chat-list a[href="/chats/${chatId}"]`).count()).toBe(0)
    await b.goto('/chats')
    await b.getByRole('heading', { name: 'Chats' }).waitFor()
    expect(await b.getByText('No messages yet').count()).toBe(0)
    await a.goto(`/chats/${chatId}`)
    await b.goto(`/chats/${chatId}`)
    await a.locator('.composer__balance').waitFor()
    await b.locator('.composer__balance').waitFor()
  })

  it("A writes: the message appears in B's open tab without a reload, and A pays its price once", async () => {
    const before = await balance(a)
    await send(a, 'Hello from A <b>bold?</b>')
    await messageIn(b, 'Hello from A <b>bold?</b>').waitFor({ timeout: LIVE })
    // Markup stays text: nothing bold was made of it.
    expect(await b.locator('.chat-messages b').count()).toBe(0)
    await waitBalance(a, before - COST)
  })

  it('B answers, A sees it live, B pays once', async () => {
    const before = await balance(b)
    await send(b, 'Hi A, nice to hear from you')
    await messageIn(a, 'Hi A, nice to hear from you').waitFor({ timeout: LIVE })
    await waitBalance(b, before - COST)
    // The browser is en-GB: its times are on a 24-hour clock, as the locale writes them.
    const time = await a.locator('.message__meta time').last().textContent()
    expect(time).toMatch(/^\d{2}:\d{2}$/)
  })

  it('a message typed while the previous one is still being stored is kept and sent', async () => {
    const before = await balance(a)
    await holdOutbox(a)
    await send(a, 'Quick one')
    // The box empties at once, though the worker has not stored the message yet.
    expect(await composerBox(a).inputValue()).toBe('')
    await composerBox(a).fill('Quick two')
    await releaseOutbox(a)
    await messageIn(a, 'Quick one').waitFor()
    // Storing the first message did not wipe the second one.
    expect(await composerBox(a).inputValue()).toBe('Quick two')
    await composerBox(a).press('Enter')
    await messageIn(b, 'Quick one').waitFor({ timeout: LIVE })
    await messageIn(b, 'Quick two').waitFor({ timeout: LIVE })
    await waitBalance(a, before - 2 * COST)
  })

  it("offline, A's two messages wait; back online each arrives once and is charged once", async () => {
    const before = await balance(a)
    await a.context().setOffline(true)
    await send(a, 'Offline one')
    await send(a, 'Offline two')
    await a.getByText('Will be sent when you are back online').first().waitFor()
    await a.context().setOffline(false)
    await a.evaluate(() => window.dispatchEvent(new Event('online')))
    await messageIn(b, 'Offline one').waitFor({ timeout: LIVE })
    await messageIn(b, 'Offline two').waitFor({ timeout: LIVE })
    await waitBalance(a, before - 2 * COST)
    await b.reload()
    await messageIn(b, 'Offline two').waitFor()
    expect(await messageIn(b, 'Offline one').count()).toBe(1)
    expect(await messageIn(b, 'Offline two').count()).toBe(1)
  })

  it("over the send limit, A's message waits in the chat saying why and until when, then arrives once by itself", async () => {
    // The limit counts per wall-clock minute on the server: start early
    // enough in one that filling it and sending cannot straddle two.
    const second = new Date().getUTCSeconds()
    if (second >= 40) await a.waitForTimeout((61 - second) * 1000)
    // A script's pace, through the API, until the server says 429.
    const accepted = await a.evaluate(async (conversation) => {
      let n = 0
      for (; n < 30; n++) {
        const res = await fetch('/api/messages.php', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            conversation,
            text: `burst ${n}`,
            client_id: crypto.randomUUID(),
          }),
        })
        if (res.status === 429) break
      }
      return n
    }, chatId)
    // 20 a minute for an account older than a day, some already used above.
    expect(accepted).toBeGreaterThan(0)
    expect(accepted).toBeLessThanOrEqual(20)
    await send(a, 'Held by the limit')
    await a
      .getByText(/You're sending messages very fast\. This message will be sent automatically at/)
      .waitFor({ timeout: LIVE })
    expect(await messageIn(a, 'Held by the limit').count()).toBe(1)
    // Not lost: it goes out when the minute is over, once.
    await messageIn(b, 'Held by the limit').waitFor({ timeout: scaled(75_000) })
    await a.getByText(/You're sending messages very fast/).waitFor({ state: 'detached' })
    expect(await messageIn(b, 'Held by the limit').count()).toBe(1)
  })

  it('opening the chat clears its unread count in the list', async () => {
    await b.goto('/chats')
    await send(a, 'Are you there?')
    const row = b.locator('.chat-list__item', { hasText: 'Are you there?' })
    await row.locator('.badge').waitFor({ timeout: LIVE })
    // The header counts it too, from the same stored numbers as the app badge.
    await b.getByRole('link', { name: 'Chats', exact: true }).locator('.nav-count').waitFor()
    await row.getByRole('link').click()
    await b.waitForURL(new RegExp(`/chats/${chatId}$`))
    await messageIn(b, 'Are you there?').waitFor()
    // The read reaches the server before this page is left (a full page load
    // here would end the worker mid-request; the in-app link does not).
    await pageUntil(
      b,
      async (id: number) => {
        const res = await fetch('/api/chats.php')
        const { chats } = (await res.json()) as {
          chats: { conversation: { id: number }; num_unread_messages: number }[]
        }
        return chats.find((c) => c.conversation.id === id)?.num_unread_messages === 0
      },
      chatId,
      { every: 200, timeout: LIVE },
    )
    await b.goto('/chats')
    await b.locator('.chat-list__item', { hasText: 'Are you there?' }).waitFor()
    await b.waitForFunction(() => document.querySelectorAll('.chat-list__item .badge').length === 0)
  })

  it('at 360 px the chat opens at the first unread message, follows a reply at the bottom, and scrolled up shows the pill', async () => {
    await b.setViewportSize({ width: 360, height: 640 })
    // B's own long message first: what came before fills more than the list.
    await b.goto(`/chats/${chatId}`)
    await send(b, Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n'))
    await messageIn(a, 'line 39').waitFor({ timeout: LIVE })
    await b.goto('/chats')
    await b.getByRole('heading', { name: 'Chats' }).waitFor()
    await send(a, 'Unread one')
    await send(a, 'Unread two')
    await b.locator('.chat-list__item', { hasText: 'Unread two' }).waitFor({ timeout: LIVE })
    await b.goto(`/chats/${chatId}`)
    // The "New" divider sits above the first unread one, and both are in view.
    const divider = b.locator('.chat-messages__new', { hasText: 'New' })
    await divider.waitFor()
    await b.waitForFunction(() => {
      const next = document.querySelector('.chat-messages__new + .message')
      return next?.textContent?.includes('Unread one')
    })
    await inView(b, 'Unread one')
    await inView(b, 'Unread two')
    // At the bottom, a reply arriving is in view.
    await send(a, 'Live at the bottom')
    await messageIn(b, 'Live at the bottom').waitFor({ timeout: LIVE })
    await inView(b, 'Live at the bottom')
    // Scrolled up, a reply leaves the reader where they are and shows the pill.
    const list = b.getByRole('list', { name: 'Messages' })
    await list.hover()
    await b.mouse.wheel(0, -2000)
    await b.waitForFunction(() => document.querySelector('.chat-messages')!.scrollTop < 200)
    await send(a, 'While scrolled up')
    const pill = b.getByRole('button', { name: 'New messages' })
    await pill.waitFor({ timeout: LIVE })
    expect(
      await b.evaluate(() => document.querySelector('.chat-messages')!.scrollTop),
    ).toBeLessThan(200)
    await pill.click()
    await inView(b, 'While scrolled up')
    await pill.waitFor({ state: 'detached' })
    await b.setViewportSize({ width: 1280, height: 720 })
  })

  it('deleting a chat removes it from the list at once', async () => {
    await b.goto(`/chats/${chatId}`)
    b.once('dialog', (d) => void d.accept())
    await b.getByRole('button', { name: 'Delete chat' }).click()
    await b.waitForURL(/\/chats$/)
    expect(await b.locator('.chat-list__item', { hasText: 'Are you there?' }).count()).toBe(0)
  })

  it('with too few credits, A sees "not sent" with a way to buy credits, and keeps the text', async () => {
    await a.evaluate(async () => {
      await fetch('/api/_dev/credits.php', { method: 'POST' })
    })
    await a.reload()
    await waitBalance(a, 0)
    await send(a, 'Can I still write?')
    await a.getByText('Not sent: you do not have enough credits.').waitFor({ timeout: LIVE })
    await a.getByRole('link', { name: 'Buy credits' }).waitFor()
    expect(await messageIn(a, 'Can I still write?').count()).toBe(1)
    // One clear message where the member looks: no vague toast besides it.
    expect(await a.locator('.toast').count()).toBe(0)
  })

  it('after B blocks A, A can no longer send', async () => {
    await b.goto(`/members/${aId}/chat`)
    await b.waitForURL(new RegExp(`/chats/${chatId}$`))
    b.once('dialog', (d) => void d.accept())
    await b.getByRole('button', { name: 'Block' }).click()
    await b.waitForURL(/\/chats$/)
    // The server checks the block before the balance: the refusal names the block.
    await a.getByRole('button', { name: 'Discard' }).click()
    await send(a, 'Blocked now?')
    await a.getByText('Not sent: you cannot write to this member.').waitFor({ timeout: LIVE })
    const sent = await b.evaluate(async (id) => {
      const res = await fetch(`/api/messages.php?conversation=${id}`)
      return res.status === 200
        ? ((await res.json()) as { messages: { text: string }[] }).messages.map((m) => m.text)
        : []
    }, chatId)
    expect(sent).not.toContain('Blocked now?')
  })
})
