// Push in Chromium, end to end (spec §4 push states, lastMessage, click
// URLs). This Chromium has no push service of its own (no network), so the
// page's PushManager hands out a subscription of the local RFC 8030 push
// service (api/push/local-push-service.ts), which the site trusts through
// PUSH_HTTP_ORIGINS: the app sends it on every load while notifications are
// allowed; a message from A makes the server push to it; what the service
// decrypts is delivered to the service worker with CDP
// ServiceWorker.deliverPushMessage and shows a notification with the right
// title and badge; its click opens /chats/{id} for a signed-in member and
// the open URL (login, then the chat) after logout. /sw-push.js?v=2 is a
// worker script, not the shell.
import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import {
  type BrowserSubscription,
  type LocalPushService,
  startLocalPushService,
} from '../api/push/local-push-service.ts'
import { scaled } from '../api/test/time-scale.ts'
import { DEMO, describePage, launchBrowser, newContext, type Site, startSite } from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }

let service: LocalPushService
let site: Site
let browser: Browser
let ctx: BrowserContext
let page: Page
let cdp: CDPSession
const registrations = new Map<string, string>() // scope URL -> registration id

let chat = 0
let pushed = '' // the payload B's push service received and decrypted

beforeAll(async () => {
  service = await startLocalPushService()
  site = await startSite({ PUSH_HTTP_ORIGINS: service.origin })
  browser = await launchBrowser()
  ctx = await newContext(browser, site)
  await ctx.grantPermissions(['notifications'], { origin: site.url })
  await ctx.addInitScript(stubPushManager, service.subscribe())
  page = await ctx.newPage()
  cdp = await ctx.newCDPSession(page)
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const r of list) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId)
  })
  await cdp.send('ServiceWorker.enable')
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
  await service?.close()
})

/**
 * In the page: PushManager gives out the local push service's subscription
 * (a real key pair and auth secret), as a browser with network would give
 * out its vendor's. Permission and the service worker stay Chromium's own.
 */
function stubPushManager(sub: BrowserSubscription) {
  // Kept across loads, as a browser keeps its subscription.
  const KEY = 'e2e.push.subscribed'
  const make = () =>
    ({
      endpoint: sub.endpoint,
      expirationTime: null,
      toJSON: () => ({ ...sub, expirationTime: null }),
      unsubscribe: async () => {
        localStorage.removeItem(KEY)
        return true
      },
    }) as unknown as PushSubscription
  PushManager.prototype.getSubscription = async () =>
    localStorage.getItem(KEY) === '1' ? make() : null
  PushManager.prototype.subscribe = async () => {
    localStorage.setItem(KEY, '1')
    return make()
  }
}

/** A's side, as the site's own pages would call it. */
async function loginA(): Promise<(path: string, body?: unknown) => Promise<Response>> {
  const res = await fetch(`${site.url}/api/login.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.url },
    body: JSON.stringify(DEMO),
  })
  const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!
  return (path, body) =>
    fetch(`${site.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { cookie, origin: site.url, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
}

afterEach(async (c) => {
  if (c.task.result?.state === 'fail') await describePage(page)
})

async function serviceWorker(): Promise<Worker> {
  const running = ctx.serviceWorkers()[0]
  return running ?? ctx.waitForEvent('serviceworker')
}

async function deliver(data: string): Promise<void> {
  const scope = `${site.url}/`
  await expect.poll(() => registrations.has(scope), { timeout: scaled(10_000) }).toBe(true)
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: site.url,
    registrationId: registrations.get(scope)!,
    data,
  })
}

type Shown = { title: string; body: string; data: { url: string; openUrl: string; badge: number } }
const shown = (): Promise<Shown[]> =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready
    return (await reg.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      data: n.data as Shown['data'],
    }))
  })

/** The click's own code in the worker (a headless browser cannot click a notification). */
async function clickNotification(): Promise<void> {
  const sw = await serviceWorker()
  await sw.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope & {
      __amoraNotificationClick(n: Notification): Promise<void>
    }
    const [n] = await scope.registration.getNotifications()
    if (!n) throw new Error('no notification to click')
    n.close()
    await scope.__amoraNotificationClick(n)
  })
}

it('serves /sw-push.js?v=2 as a worker script that /sw.js imports', async () => {
  const res = await fetch(`${site.url}/sw-push.js?v=2`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/javascript/)
  const code = await res.text()
  expect(code).not.toMatch(/<!doctype html>/i)
  expect(code).toContain('notificationclick')
  expect(await (await fetch(`${site.url}/sw.js`)).text()).toContain('importScripts')
})

it('with notifications allowed the app sends the subscription on every load', async () => {
  const sent = () =>
    page.waitForResponse(
      (r) => r.url().endsWith('/api/user.php?push=1') && r.request().method() === 'POST',
    )
  await page.goto('/login')
  await page.getByLabel('Email address').fill(B_LOGIN.email)
  await page.getByLabel('Password').fill(B_LOGIN.password)
  const first = sent()
  await page.getByRole('button', { name: 'Log in' }).click()
  expect((await first).status()).toBe(200)
  await page.waitForURL(/\/members/)
  const again = sent()
  await page.reload()
  expect((await again).status()).toBe(200)
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
})

it("a message from A reaches B's push service, and the push shows a notification with A's name and B's badge", async () => {
  // B is not looking at the site (spec: a visible page hears through the stream).
  const [sid] = (await ctx.cookies()).filter((c) => c.name === 'sid')
  await fetch(`${site.url}/api/push-visibility.php?visible=0`, {
    method: 'POST',
    headers: { cookie: `sid=${sid!.value}`, origin: site.url },
  })
  const a = await loginA()
  const bId = await page.evaluate(
    async () =>
      ((await (await fetch('/api/user.php')).json()) as { profile: { id: number } }).profile.id,
  )
  chat = ((await (await a(`/api/chat.php?profile=${bId}`)).json()) as { id: number }).id
  const before = service.deliveries.length
  const res = await a('/api/messages.php', {
    conversation: chat,
    text: 'Coffee tomorrow?',
    client_id: crypto.randomUUID(),
  })
  expect(res.status).toBe(201)
  const [delivery] = (await service.waitForDeliveries(before + 1, 20_000)).slice(before)
  pushed = delivery!.payload.toString()
  const payload = JSON.parse(pushed) as { title: string; badge: number; url: string }
  expect(payload.title).toBe('New message from Demo')
  expect(payload.url).toBe(`/chats/${chat}`)

  await deliver(pushed)
  await expect.poll(async () => (await shown()).length, { timeout: scaled(10_000) }).toBe(1)
  const [n] = await shown()
  expect(n!.title).toBe(payload.title)
  expect(n!.body).toBe('Coffee tomorrow?')
  expect(n!.data.badge).toBe(payload.badge)
  expect(payload.badge).toBeGreaterThanOrEqual(1)
  // Spec §4 lastMessage: kept by the worker.
  const last = await page.evaluate(async () => {
    const res = await (await caches.open('amora-sw-state-v1')).match('/__sw-state/last-message')
    return res ? ((await res.json()) as { title: string }).title : null
  })
  expect(last).toBe(payload.title)
})

it('a click on it opens the chat for the signed-in member', async () => {
  await clickNotification()
  await page.waitForURL(new RegExp(`/chats/${chat}$`))
})

it('/notifications: push state of this device, off and on again, a test notification, and what notifies', async () => {
  await page.goto('/notifications')
  const state = page.locator('[data-push-state]')
  await expect.poll(() => state.getAttribute('data-push-state')).toBe('subscribed')
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `/tmp/push-notifications-${width}.png`, fullPage: true })
    // This page's own content fits (the top bar is another part's).
    expect(
      await page.evaluate(() => {
        const main = document.querySelector('main')!
        return main.scrollWidth <= main.clientWidth
      }),
    ).toBe(true)
  }
  await page.getByRole('button', { name: 'Turn off notifications' }).click()
  await expect.poll(() => state.getAttribute('data-push-state')).toBe('not_subscribed')
  await page.reload() // off stays off: the load does not subscribe again
  await expect.poll(() => state.getAttribute('data-push-state')).toBe('not_subscribed')
  await page.getByRole('button', { name: 'Turn on notifications' }).click()
  await expect.poll(() => state.getAttribute('data-push-state')).toBe('subscribed')

  const before = service.deliveries.length
  await page.getByRole('button', { name: 'Send a test notification' }).click()
  await page.getByText('Sent. It should appear in a moment.').waitFor()
  const [test] = (await service.waitForDeliveries(before + 1, 20_000)).slice(before)
  expect(JSON.parse(test!.payload.toString())).toMatchObject({
    kind: 'test',
    url: '/notifications',
  })

  const likes = page.getByRole('checkbox', { name: 'New likes' })
  await expect.poll(() => likes.isChecked()).toBe(true)
  await likes.uncheck()
  await page.getByText('Saved.').waitFor()
  await page.reload()
  await expect.poll(() => page.getByRole('checkbox', { name: 'New likes' }).isChecked()).toBe(false)
  await page.getByRole('checkbox', { name: 'New likes' }).check()
  await page.getByText('Saved.').waitFor()
})

it('after logout the notifications are gone, and a click opens the open URL (login, then the chat)', async () => {
  await deliver(pushed)
  await expect.poll(async () => (await shown()).length, { timeout: scaled(10_000) }).toBe(1)
  await page.goto('/members')
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(/\/login/)
  // Nothing of B stays on a shared device.
  await expect.poll(async () => (await shown()).length, { timeout: scaled(10_000) }).toBe(0)
  await page.goto('/')
  // The service worker's end of the session (sw/sw.ts endSession) may still
  // be closing notifications when this push arrives, and close it too; a
  // real push cannot come now (the subscription ended with the session), so
  // the push is delivered again until one stays. What is checked is where
  // its click goes.
  await expect
    .poll(
      async () => {
        if ((await shown()).length === 0) await deliver(pushed)
        return (await shown()).length
      },
      { timeout: scaled(10_000) },
    )
    .toBe(1)
  await clickNotification()
  await page.waitForURL((url) => url.pathname === '/login' && url.search.includes('redirect='))
  expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/chats/${chat}`)
})
