// Issue "Foundation": log in as the demo member, see the member grid and the
// conversations, cut the network, reload, still see both; log out and find
// the local store empty.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import { DEMO, describePage, launchBrowser, newContext, type Site, startSite } from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  context = await newContext(browser, site)
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

/** Tiles whose photo has actually loaded (naturalWidth > 0). */
const loadedPhotos = (p: Page) =>
  p
    .locator('ul.grid img.tile__photo')
    .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)

/** Rows in every table of the app's IndexedDB database. */
const localRows = (p: Page) =>
  p.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('amora')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const counts: Record<string, number> = {}
    for (const name of Array.from(db.objectStoreNames)) {
      counts[name] = await new Promise<number>((resolve) => {
        const req = db.transaction(name).objectStore(name).count()
        req.onsuccess = () => resolve(req.result)
      })
    }
    db.close()
    return counts
  })

/** The keys of the app's key-value table (what a failed wipe left). */
const kvKeys = (p: Page) =>
  p.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('amora')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const keys = await new Promise<IDBValidKey[]>((resolve) => {
      const req = db.transaction('kv').objectStore('kv').getAllKeys()
      req.onsuccess = () => resolve(req.result)
    })
    db.close()
    return JSON.stringify(keys)
  })

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

describe('foundation slice in Chromium', () => {
  it('sends a guest to the login page and refuses a wrong password', async () => {
    await page.goto('/members')
    await page.waitForURL(/\/login/)
    await page.getByRole('heading', { name: 'Log in' }).waitFor()
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill('wrong-password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').textContent()).toContain('not correct')
  })

  it('shows 404 Page Not Found for an unknown path', async () => {
    await page.goto('/no-such-page')
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor()
    expect(await page.textContent('main')).toContain('Page Not Found: /no-such-page')
  })

  it('logs in and shows 12 member tiles with photos', async () => {
    await page.goto('/login')
    await page.getByLabel('Email address').fill(DEMO.email)
    await page.getByLabel('Password').fill(DEMO.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/members/)
    await page.locator('ul.grid li.tile').nth(11).waitFor()
    expect(await page.locator('ul.grid li.tile').count()).toBe(12)
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>('ul.grid img')).filter(
          (i) => i.complete && i.naturalWidth > 0,
        ).length === 12,
    )
    const root = await page.getAttribute('#app-root', 'class')
    expect(root).toContain('classic')
    expect(root).toContain('logged-in')
    expect(root).toContain('app-members-page')
    expect(await page.locator('link[rel="manifest"]').count()).toBe(1)
    // Spec §4: the browser language (en-GB here) picks the locale.
    expect(await page.getAttribute('html', 'lang')).toBe('en')
  })

  it('lists the demo conversations on /chats', async () => {
    await page.getByRole('link', { name: 'Chats' }).click()
    await page.waitForURL(/\/chats/)
    await page.locator('.chat-list__item').first().waitFor()
    expect(await page.locator('.chat-list__item').count()).toBeGreaterThanOrEqual(3)
  })

  it('shows members and chats from the device with the network cut', async () => {
    // The service worker must control the page, and the photos must have been
    // fetched through it once, before the network goes away.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await page.goto('/members')
    await page.locator('ul.grid li.tile').nth(11).waitFor()
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('ul.grid img')).every(
        (i) => i.complete && i.naturalWidth > 0,
      ),
    )
    const chatNames = await (async () => {
      await page.goto('/chats')
      await page.locator('.chat-list__item').first().waitFor()
      return page.locator('.chat-list__name').allTextContents()
    })()

    await context.setOffline(true)
    await page.reload()
    await page.locator('.chat-list__item').first().waitFor()
    expect(await page.locator('.chat-list__name').allTextContents()).toEqual(chatNames)
    await page.getByRole('status').filter({ hasText: 'offline' }).waitFor()

    await page.goto('/members')
    await page.locator('ul.grid li.tile').nth(11).waitFor()
    expect(await page.locator('ul.grid li.tile').count()).toBe(12)
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>('ul.grid img')).filter(
          (i) => i.complete && i.naturalWidth > 0,
        ).length === 12,
    )
    expect(await loadedPhotos(page)).toBe(12)
    await context.setOffline(false)
  })

  it('paints the stored chat list with the HTML on a repeat visit offline, before any script ran; the app then replaces it', async () => {
    await page.goto('/chats')
    await page.locator('.chat-list__item').first().waitFor()
    const chatNames = await page.locator('.chat-list__name').allTextContents()
    // The page keeps its copy once the rows are there (app/features/site/stored-page.ts).
    await page.waitForFunction(async () => {
      const cache = await caches.open('amora-page-snapshots-v1')
      return (await cache.match('/chats')) !== undefined
    })
    await context.setOffline(true)
    const cdp = await context.newCDPSession(page)
    try {
      // No script of the page runs: what shows is the service worker's HTML alone.
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true })
      await page.goto('/chats')
      const layer = page.locator('#page-snapshot')
      expect(await layer.getAttribute('aria-hidden')).toBe('true')
      expect(await layer.getAttribute('inert')).toBe('')
      expect(await layer.locator('.chat-list__name').allTextContents()).toEqual(chatNames)
      expect(await layer.boundingBox()).toMatchObject({ x: 0, y: 0 })
      // The shell's skeleton under it is not drawn (its pulse held the first frame back).
      expect(await page.locator('#root > .boot-skeleton').isVisible()).toBe(false)
      expect(await page.locator('#root > .boot-skeleton').count()).toBe(1)
      // No id of the copy clashes with the app's own (#app-root, labels).
      expect(await layer.locator('[id], [name]').count()).toBe(0)
    } finally {
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: false })
      await cdp.detach()
    }
    // With its scripts, the app's own rows replace the copy: never both.
    await page.reload()
    await page.locator('#root .chat-list__item').first().waitFor()
    await page.locator('#page-snapshot').waitFor({ state: 'detached' })
    expect(await page.locator('.chat-list__name').allTextContents()).toEqual(chatNames)
    await context.setOffline(false)
  })

  it('logs out, shows login and leaves the local store empty', async () => {
    await page.goto('/members')
    await page.locator('ul.grid li.tile').first().waitFor()
    expect(Object.values(await localRows(page)).some((n) => n > 0)).toBe(true)
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(/\/login/)
    // The worker empties the store as the session ends; the page may get there first.
    let rows = await localRows(page)
    const until = Date.now() + scaled(5_000)
    while (Date.now() < until && Object.values(rows).some((n) => n > 0)) {
      await page.waitForTimeout(100)
      rows = await localRows(page)
    }
    expect(Object.keys(rows).length).toBeGreaterThan(0)
    expect(rows, `keys left in kv: ${await kvKeys(page)}`).toEqual(
      Object.fromEntries(Object.keys(rows).map((k) => [k, 0])),
    )
    // The stored pages went with the session (sw/snapshot.ts): another
    // member of this device never sees them.
    await page.waitForFunction(async () => !(await caches.has('amora-page-snapshots-v1')))
    // The session is gone server-side too.
    const status = await page.evaluate(async () => (await fetch('/api/user.php')).status)
    expect(status).toBe(403)
  })
})

describe('the login form before the app has run', () => {
  // A prerendered /login (no session cookie) runs the app only through its
  // boot script (app/boot.ts); blocked here, the page stays the server's
  // HTML, as it is for a member who submits before hydration ends.
  let guest: BrowserContext
  let p: Page
  beforeAll(async () => {
    guest = await newContext(browser, site)
    await guest.route('**/assets/boot-*.js', (route) => route.abort())
    p = await guest.newPage()
  })
  afterAll(async () => {
    await guest?.close()
  })
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await describePage(p)
  })

  it('refuses a wrong password with the same message, as a page from the server', async () => {
    await p.goto('/login')
    await p.getByLabel('Email address').fill(DEMO.email)
    await p.getByLabel('Password').fill('wrong-password')
    await p.getByRole('button', { name: 'Log in' }).click()
    await p.waitForURL((url) => url.search.includes('failed=invalid'))
    expect(await p.getByRole('alert').textContent()).toContain('not correct')
    // The password never went into an address.
    expect(p.url()).not.toContain('wrong-password')
  })

  it('logs in with a form post and the app opens the members', async () => {
    await p.goto('/login?redirect=/likes')
    await p.getByLabel('Email address').fill(DEMO.email)
    await p.getByLabel('Password').fill(DEMO.password)
    await p.getByRole('button', { name: 'Log in' }).click()
    // With the session cookie the likes page is the app's plain shell, which
    // starts from the cookie (the worker asks the server who is logged in).
    await p.waitForURL(/\/likes$/)
    await p.getByRole('heading', { level: 1 }).waitFor()
    expect(await p.getAttribute('#app-root', 'class')).toContain('logged-in')
  })
})
