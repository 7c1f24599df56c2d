// Live signals offline (docs/live.md): read marks and visitors are kept in
// the device's store, so after going offline (context.setOffline) a reload
// still shows the "Seen" mark under the member's message and their visitors
// on /likes/visitors, with no network at all.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  DEMO,
  describePage,
  launchBrowser,
  logIn,
  newContext,
  type Site,
  startSite,
} from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }
const LIVE = 30_000

let site: Site
let browser: Browser
let ctxA: BrowserContext
let ctxB: BrowserContext
let a: Page
let b: Page

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  ctxA = await newContext(browser, site)
  ctxB = await newContext(browser, site)
  a = await ctxA.newPage()
  b = await ctxB.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') {
    await describePage(a)
    await describePage(b)
  }
})

const profileOf = (p: Page) =>
  p.evaluate(
    async () =>
      ((await (await fetch('/api/user.php')).json()) as { profile: { id: number; name: string } })
        .profile,
  )

/** The service worker controls the page: a reload offline is answered from its cache. */
const controlled = (p: Page) =>
  p.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: LIVE,
  })

describe('seen marks and visitors from the local store, offline', () => {
  let aName = ''
  let chatPath = ''

  it('online: A visits B and writes; B reads; A sees "Seen", B sees A among the visitors', async () => {
    await logIn(b, B_LOGIN)
    await b.waitForURL(/\/members/)
    const bId = (await profileOf(b)).id
    await logIn(a, DEMO)
    await a.waitForURL(/\/members/)
    aName = (await profileOf(a)).name
    await a.goto(`/members/${bId}`)
    await a.getByRole('button', { name: /^Chat with / }).click()
    await a.waitForURL(/\/chats\/\d+$/)
    chatPath = new URL(a.url()).pathname
    await a.locator('.composer__balance').waitFor()
    const box = a.getByRole('textbox', { name: 'Your message' })
    await box.fill('Still there when the network is gone?')
    await box.press('Enter')
    await a
      .locator('.message--mine.message--sent', { hasText: 'Still there when the network is gone?' })
      .waitFor({ timeout: LIVE })
    await b.goto(chatPath)
    await b
      .getByRole('list', { name: 'Messages' })
      .locator('.message__text', { hasText: 'Still there when the network is gone?' })
      .waitFor({ timeout: LIVE })
    await a.locator('.message--mine .seen-mark', { hasText: 'Seen' }).waitFor({ timeout: LIVE })
    await b.goto('/likes/visitors')
    await b
      .getByRole('list', { name: 'Visitors' })
      .getByRole('link', { name: aName })
      .waitFor({ timeout: LIVE })
  })

  it('offline: A still sees "Seen" under the message after a reload', async () => {
    await controlled(a)
    await ctxA.setOffline(true)
    try {
      await a.reload()
      await a
        .getByRole('list', { name: 'Messages' })
        .locator('.message__text', { hasText: 'Still there when the network is gone?' })
        .waitFor({ timeout: LIVE })
      await a.locator('.message--mine .seen-mark', { hasText: 'Seen' }).waitFor({ timeout: LIVE })
      expect(await a.locator('.seen-mark').count()).toBe(1)
      expect(await a.evaluate(() => navigator.onLine)).toBe(false)
    } finally {
      await ctxA.setOffline(false)
    }
  })

  it('offline: B still sees A among the visitors on /likes/visitors', async () => {
    await controlled(b)
    await ctxB.setOffline(true)
    try {
      await b.reload()
      await b
        .getByRole('list', { name: 'Visitors' })
        .getByRole('link', { name: aName })
        .waitFor({ timeout: LIVE })
      expect(await b.evaluate(() => navigator.onLine)).toBe(false)
    } finally {
      await ctxB.setOffline(false)
    }
  })
})
