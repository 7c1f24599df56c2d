// Live signals offline (docs/live.md): read marks and visitors are kept in
// the device's store, so after going offline (context.setOffline) a reload
// still shows the "Seen" mark under the member's message and their visitors
// on /likes/visitors, with no network at all.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { browserSuite, DEMO, logIn, profileOf } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }
const LIVE = scaled(30_000)

const suite = browserSuite(2)
let a: Page
let b: Page
beforeAll(() => {
  ;[a, b] = suite.pages as [Page, Page]
})

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
    await a.context().setOffline(true)
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
      await a.context().setOffline(false)
    }
  })

  it('offline: B still sees A among the visitors on /likes/visitors', async () => {
    await controlled(b)
    await b.context().setOffline(true)
    try {
      await b.reload()
      await b
        .getByRole('list', { name: 'Visitors' })
        .getByRole('link', { name: aName })
        .waitFor({ timeout: LIVE })
      expect(await b.evaluate(() => navigator.onLine)).toBe(false)
    } finally {
      await b.context().setOffline(false)
    }
  })
})
