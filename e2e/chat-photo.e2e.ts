// Photos in chats (docs/messages-and-credits.md, "Photos in chats"), two
// members in two browsers: A sends B a photo with a caption; B sees it live,
// blurred, and taps to show it; A's balance goes down by the photo's price
// (30) once. Sent offline (context.setOffline), the photo waits in the
// outbox, shows pending, and is delivered once when the network is back.
// Gifts the same way in the same chat (docs/payments.md, "Gifts"): A picks a
// rose with its price shown, B sees it live, A pays 15 once, offline too.
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO, logInMember } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }
const LIVE = scaled(30_000)
/** The default price of a photo message (photo_message_credits), pinned by value. */
const PHOTO_COST = 30

const suite = browserSuite(2)
let a: Page
let b: Page
let png: Buffer
beforeAll(async () => {
  ;[a, b] = suite.pages as [Page, Page]
  png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 220, g: 120, b: 40 } },
  })
    .png()
    .toBuffer()
})

const credits = (p: Page) =>
  p.evaluate(
    async () => ((await (await fetch('/api/credits.php')).json()) as { credits: number }).credits,
  )

/** The built-in rose's price (db/migrations/0035_gift-catalogue.sql), pinned by value. */
const ROSE = 15

/** A's gift messages of that gift in the chat, as the server has them. */
const giftsStored = (p: Page, conversation: number, slug: string) =>
  p.evaluate(
    async ([c, g]) => {
      const res = await fetch(`/api/messages.php?conversation=${c}`)
      const { messages } = (await res.json()) as { messages: { gift?: { slug: string } }[] }
      return messages.filter((m) => m.gift?.slug === g)
    },
    [conversation, slug] as const,
  )

/** Opens the composer's gift list and sends that gift. */
async function give(p: Page, slug: string) {
  const open = p.getByRole('button', { name: 'Send a gift' })
  if ((await open.getAttribute('aria-expanded')) !== 'true') await open.click()
  await p.locator(`[data-gift="${slug}"]`).click()
}

/** A's messages in the chat with that caption, as the server has them. */
const storedWith = (p: Page, conversation: number, text: string) =>
  p.evaluate(
    async ([c, t]) => {
      const res = await fetch(`/api/messages.php?conversation=${c}`)
      const { messages } = (await res.json()) as { messages: { text: string; photo?: string }[] }
      return messages.filter((m) => m.text === t && m.photo)
    },
    [conversation, text] as const,
  )

async function attach(p: Page, caption: string) {
  await p
    .locator('[data-chat-photo-input]')
    .setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: png })
  await p.getByRole('img', { name: 'The photo you are about to send' }).waitFor()
  await p.getByRole('textbox', { name: 'Your message' }).fill(caption)
  await p.getByRole('button', { name: 'Send', exact: true }).click()
}

describe('a photo in a chat', () => {
  let chatPath = ''
  let conversation = 0

  it('A sends B a photo: B sees it live, blurred, taps to show it; A pays 30 credits once', async () => {
    const bMember = await logInMember(b, B_LOGIN)
    await logInMember(a, DEMO)
    await a.goto(`/members/${bMember.id}`)
    await a.getByRole('button', { name: /^Chat with / }).click()
    await a.waitForURL(/\/chats\/\d+$/)
    chatPath = new URL(a.url()).pathname
    conversation = Number(chatPath.split('/').pop())
    await a.locator('.composer__balance').waitFor()
    // A text opens the conversation (a first message carries no photo from an unverified member).
    const box = a.getByRole('textbox', { name: 'Your message' })
    await box.fill('Hello! A photo follows.')
    await box.press('Enter')
    await a
      .locator('.message--mine.message--sent', { hasText: 'A photo follows.' })
      .waitFor({ timeout: LIVE })
    await b.goto(chatPath)
    await b.locator('.message--theirs', { hasText: 'A photo follows.' }).waitFor({ timeout: LIVE })

    const before = await credits(a)
    await attach(a, 'Sunset at the beach')
    await a
      .locator('.message--mine.message--sent', { hasText: 'Sunset at the beach' })
      .locator('.message__photo img')
      .waitFor({ timeout: LIVE })
    expect(await credits(a)).toBe(before - PHOTO_COST)
    await a
      .locator(`.composer__balance[data-credits="${before - PHOTO_COST}"]`)
      .waitFor({ timeout: LIVE })

    // B: live, blurred, with a button to show it.
    const theirs = b.locator('.message--theirs', { hasText: 'Sunset at the beach' })
    await theirs.locator('.message__photo--blurred img').waitFor({ timeout: LIVE })
    await theirs.getByRole('button', { name: 'Show photo' }).click()
    await theirs.locator('.message__photo:not(.message__photo--blurred) img').waitFor()
    const loaded = await theirs
      .locator('.message__photo img')
      .evaluate(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth,
      )
    expect(loaded).toBeGreaterThan(0)
    expect(await storedWith(a, conversation, 'Sunset at the beach')).toHaveLength(1)
    expect(await credits(a)).toBe(before - PHOTO_COST)
  })

  it('sent offline, the photo waits pending and is delivered once when the network is back', async () => {
    const before = await credits(a)
    await a.context().setOffline(true)
    try {
      await attach(a, 'Sent from the tunnel')
      const pending = a.locator('.message--mine.message--pending', {
        hasText: 'Sent from the tunnel',
      })
      await pending.locator('.message__photo img').waitFor({ timeout: LIVE })
    } finally {
      await a.context().setOffline(false)
    }
    await a
      .locator('.message--mine.message--sent', { hasText: 'Sent from the tunnel' })
      .waitFor({ timeout: LIVE })
    await b
      .locator('.message--theirs', { hasText: 'Sent from the tunnel' })
      .locator('.message__photo img')
      .waitFor({ timeout: LIVE })
    expect(await storedWith(a, conversation, 'Sent from the tunnel')).toHaveLength(1)
    expect(await credits(a)).toBe(before - PHOTO_COST)
  })

  it('A sends B a rose, its price shown in credits and money: B sees it live; A pays 15 once', async () => {
    const before = await credits(a)
    await a.getByRole('button', { name: 'Send a gift' }).click()
    const rose = a.locator('[data-gift="rose"]')
    await rose.waitFor({ timeout: LIVE })
    expect(await rose.locator('[data-credits-price]').getAttribute('data-credits-price')).toBe(
      String(ROSE),
    )
    expect(await rose.textContent()).toMatch(/^🌹Rose15 credits \(€\d+\.\d\d\)$/)
    await give(a, 'rose')
    await a
      .locator('.message--mine.message--sent [data-gift-message="rose"]')
      .waitFor({ timeout: LIVE })
    await b
      .locator('.message--theirs [data-gift-message="rose"]', { hasText: 'A gift for you: Rose' })
      .waitFor({ timeout: LIVE })
    expect(await giftsStored(a, conversation, 'rose')).toHaveLength(1)
    expect(await credits(a)).toBe(before - ROSE)
  })

  it('a rose sent offline waits pending and is delivered once when the network is back', async () => {
    const before = await credits(a)
    await a.context().setOffline(true)
    try {
      await give(a, 'rose')
      await a
        .locator('.message--mine.message--pending [data-gift-message="rose"]')
        .waitFor({ timeout: LIVE })
    } finally {
      await a.context().setOffline(false)
    }
    await a.locator('.message--mine.message--pending').waitFor({ state: 'detached', timeout: LIVE })
    await b.locator('.message--theirs [data-gift-message="rose"]').nth(1).waitFor({ timeout: LIVE })
    expect(await giftsStored(a, conversation, 'rose')).toHaveLength(2)
    expect(await credits(a)).toBe(before - ROSE)
  })
})
