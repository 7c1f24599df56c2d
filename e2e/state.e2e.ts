// One owner for every piece of state, seen from the browser: /profile renders
// offline from the stored account; the install badge the worker computes is
// unread messages + new likes and goes to 0 at logout; a session that expires
// (403 from user.php) empties the member's picture cache like a logout does.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  describePage,
  launchBrowser,
  logIn,
  newContext,
  pageUntil,
  type Site,
  startSite,
} from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

/** Every message the page posts to the service worker, recorded before the app loads. */
const RECORD_SW_MESSAGES = () => {
  const w = window as unknown as { __swMessages: unknown[] }
  w.__swMessages = []
  const post = ServiceWorker.prototype.postMessage
  ServiceWorker.prototype.postMessage = function (this: ServiceWorker, message: unknown) {
    w.__swMessages.push(message)
    return post.call(this, message as never)
  }
}

const swMessages = (p: Page) =>
  p.evaluate(
    () => (window as unknown as { __swMessages: { type: string; count?: number }[] }).__swMessages,
  )

/** Polls `check` in the page until it holds. */
const until = (p: Page, check: () => boolean | Promise<boolean>) => pageUntil(p, check, undefined)

const lastBadge = async (p: Page) =>
  (await swMessages(p)).filter((m) => m.type === 'SET_BADGE').at(-1)?.count

/** Photos in the service worker's picture cache (sw/config.ts IMAGE_CACHE). */
const cachedPhotos = (p: Page) =>
  p.evaluate(async () => (await (await caches.open('amora-media-v1')).keys()).length)

async function logInDemo(p: Page) {
  await logIn(p)
  await p.waitForURL(/\/members/)
  await p.locator('ul.grid li.tile').nth(11).waitFor()
}

/** What the badge must be (spec §4): unread messages + new likes, as the API says. */
const expectedBadge = (p: Page) =>
  p.evaluate(async () => {
    const chats = (await (await fetch('/api/chats.php')).json()) as {
      chats: { num_unread_messages: number }[]
    }
    const likes = (await (await fetch('/api/likes.php')).json()) as {
      counts: { received_new: number }
    }
    return chats.chats.reduce((n, c) => n + c.num_unread_messages, 0) + likes.counts.received_new
  })

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  context = await newContext(browser, site)
  await context.addInitScript(RECORD_SW_MESSAGES)
  page = await context.newPage()
  // The service worker must control the page before photos are fetched.
  await page.goto('/')
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

describe('state with one owner, in Chromium', () => {
  it('badge: unread messages + new likes after a sync', async () => {
    await logInDemo(page)
    // In the app, not a page load: the worker relays a badge when it changes,
    // and a reload would start a page that missed the change (and the record).
    await page.getByRole('link', { name: 'Chats', exact: true }).first().click()
    await page.waitForURL(/\/chats$/)
    await page.locator('.chat-list__item').first().waitFor()
    const expected = await expectedBadge(page)
    expect(expected).toBeGreaterThan(0) // the demo has unread messages and new likes
    await pageUntil(
      page,
      (n: number) =>
        (window as unknown as { __swMessages: { type: string; count?: number }[] }).__swMessages
          .filter((m) => m.type === 'SET_BADGE')
          .at(-1)?.count === n,
      expected,
    )
    expect(await lastBadge(page)).toBe(expected)
  })

  it('/profile shows the member data offline', async () => {
    await page.goto('/profile')
    await page.getByRole('heading', { name: 'Your profile' }).waitFor()
    const about = page.getByRole('textbox', { name: 'About me', exact: true })
    await about.waitFor()
    const online = await about.inputValue()
    expect(online.length).toBeGreaterThan(0)
    await context.setOffline(true)
    await page.reload()
    await page.getByRole('heading', { name: 'Your profile' }).waitFor()
    await page.getByRole('textbox', { name: 'About me', exact: true }).waitFor()
    expect(await page.getByRole('textbox', { name: 'About me', exact: true }).inputValue()).toBe(
      online,
    )
    expect(await page.getByRole('alert').count()).toBe(0)
    await context.setOffline(false)
  })

  it('badge 0 and pictures dropped at logout', async () => {
    await page.goto('/members')
    await page.locator('ul.grid li.tile').nth(11).waitFor()
    await until(page, async () => (await (await caches.open('amora-media-v1')).keys()).length > 0)
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(/\/login/)
    await until(
      page,
      () =>
        (window as unknown as { __swMessages: { type: string; count?: number }[] }).__swMessages
          .filter((m) => m.type === 'SET_BADGE')
          .at(-1)?.count === 0,
    )
    await until(
      page,
      async () =>
        (await caches.keys()).includes('amora-media-v1') === false ||
        (await (await caches.open('amora-media-v1')).keys()).length === 0,
    )
    expect(await cachedPhotos(page)).toBe(0)
  })

  it('a session that expires (403 from user.php) empties the picture cache too', async () => {
    await logInDemo(page)
    // A photo through the service worker, so the picture cache holds one again
    // (the grid's own images may come from the renderer's memory cache).
    await page.evaluate(async () => {
      const img = document.querySelector<HTMLImageElement>('ul.grid img')
      if (img) await fetch(img.src)
    })
    await until(page, async () => (await (await caches.open('amora-media-v1')).keys()).length > 0)
    // The server forgets the session: the cookie goes, as an expired one would.
    await context.clearCookies()
    // Coming online syncs at once (docs/architecture.md, "Data and sync"); user.php answers 403.
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await until(page, () =>
      (window as unknown as { __swMessages: { type: string }[] }).__swMessages.some(
        (m) => m.type === 'CLEAR_USER_CACHES',
      ),
    )
    await until(page, async () => (await (await caches.open('amora-media-v1')).keys()).length === 0)
    expect(await cachedPhotos(page)).toBe(0)
    expect(await lastBadge(page)).toBe(0)
  })
})
