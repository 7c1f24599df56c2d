// Issue "Members: search, profiles, likes and webcam tiles", its "Done when":
// as the demo member, filter by a neighbour country and an age bucket, page
// forward, open a profile, like it, see it under likes given; cut the
// network, unlike another profile, restore it and see the unlike reach the
// server once; log in as the liked member and see the like first and marked
// new, cleared after opening it; webcam tiles sit after tiles 2 and 6 for an
// eligible member and are absent for a paid one.
//
// Logging in as "the liked member" needs a second known password. Options
// weighed: a test-only login route or an env switch that lets the test set
// passwords would be a backdoor the day someone sets it in production; the
// database cannot be reached while the site runs (PGlite belongs to the
// server process); sign-up would make a new member nobody else could have
// liked. So the demo seed (DEMO_SEED=on, never in production) creates a
// second published login, demo2@example.com / demopassword ("Demo Two", a
// paid woman in Antwerp, last active long ago; db/seed/second-demo.ts): the
// demo member finds her in a Belgian 26-35 search on a later page, likes her,
// and she is also the paid member without webcam tiles.
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  logIn,
  newContext,
  type Site,
  startSite,
} from './harness.ts'

const DEMO2 = { email: 'demo2@example.com', password: DEMO.password, name: 'Demo Two' }

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page
/** Every answer the server gave to a like or unlike, by request. */
const answered = new Map<Request, { method: string; status: number }>()
const likeWrites = (method: string) => [...answered.values()].filter((w) => w.method === method)

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  context = await newContext(browser, site)
  const record = (r: Response) => {
    const req = r.request()
    const path = new URL(req.url()).pathname
    if (path === '/api/likes.php' && req.method() !== 'GET') {
      answered.set(req, { method: req.method(), status: r.status() })
    }
  }
  // The context hears the page's requests and its sync worker's alike.
  context.on('response', record)
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

// ---- helpers -------------------------------------------------------------------

async function logInTo(who: { email: string; password: string }) {
  await logIn(page, who)
  await page.waitForURL(/\/members/)
}

async function logOut() {
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(/\/login/)
}

/** The app's own API, called from the page with its session cookie. */
const api = <T>(path: string): Promise<T> =>
  page.evaluate(async (p) => (await fetch(p)).json(), path)

type LikesJson = {
  profiles: { id: number; name: string }[]
  liked_by: { id: number; like_new: boolean }[]
}

/** The sync worker's outbox (IndexedDB `amora`, store `outbox`): what each entry went through. */
const outbox = () =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('amora')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const rows = await new Promise<{ kind: string; attempts: number; lastError?: string }[]>(
      (resolve) => {
        const req = db.transaction('outbox').objectStore('outbox').getAll()
        req.onsuccess = () => resolve(req.result)
      },
    )
    db.close()
    return rows.map(({ kind, attempts, lastError }) => ({ kind, attempts, lastError }))
  })
const outboxRows = async () => (await outbox()).length

/** Waits until `check` holds, polling (no fixed sleeps). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = scaled(30_000)) {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await page.waitForTimeout(200)
  }
}

const grid = () => page.locator('ul.grid')
const memberTiles = () => page.locator('ul.grid > li.tile')

// ---- the story -------------------------------------------------------------------

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

describe('members, profiles, likes and webcam tiles in Chromium', () => {
  it('shows webcam tiles after tiles 2 and 6 to an eligible member, marked as ads', async () => {
    // The demo member signed up 30 days ago and is not paid; settings resell cams.
    await logInTo(DEMO)
    await memberTiles().nth(11).waitFor()
    await page.locator('ul.grid > li.cam-tile').nth(1).waitFor()
    const kinds = await grid()
      .locator(':scope > li')
      .evaluateAll((lis) => lis.map((li) => (li.classList.contains('cam-tile') ? 'cam' : 'tile')))
    expect(kinds).toEqual([
      'tile',
      'tile',
      'cam',
      'tile',
      'tile',
      'tile',
      'tile',
      'cam',
      ...Array(6).fill('tile'),
    ])
    const cam = page.locator('ul.grid > li.cam-tile a').first()
    expect(await cam.getAttribute('href')).toMatch(/^\/api\/xcams\/redirect\.php\?account=.+/)
    expect(await cam.getAttribute('target')).toBe('_blank')
    expect(await cam.getAttribute('rel')).toContain('noopener')
    // Labelled as advertising, visibly and for assistive technology.
    expect(await cam.locator('.cam-tile__badge').textContent()).toMatch(/^ad$/i)
    expect(await cam.textContent()).toContain('advertisement')
    expect(
      await grid()
        .getByRole('link', { name: /advertisement/ })
        .count(),
    ).toBe(2)
  })

  let demoTwoId = 0

  it('filters by a neighbour country and an age bucket, pages forward, opens and likes a profile', async () => {
    await page.getByRole('combobox', { name: /^Country/ }).selectOption('BE')
    await page.getByRole('combobox', { name: /^Age/ }).selectOption('26_35')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/country=BE/)
    await page.waitForURL(/age=26_35/)

    let pageNo = 1
    await page.getByText(/^Page 1 of \d+$/).waitFor()
    const demoTwoTile = memberTiles().filter({ hasText: DEMO2.name })
    while (!(await demoTwoTile.count())) {
      // Every member shown is in the chosen bucket.
      const ages = await memberTiles().locator('.tile__meta').allInnerTexts()
      expect(ages.length).toBeGreaterThan(0)
      for (const a of ages) {
        const age = Number(/^(\d+) years/.exec(a)?.[1])
        expect(age).toBeGreaterThanOrEqual(26)
        expect(age).toBeLessThanOrEqual(35)
      }
      await page.getByRole('link', { name: 'Next page' }).click()
      pageNo++
      await page.getByText(new RegExp(`^Page ${pageNo} of \\d+$`)).waitFor()
      await memberTiles().first().waitFor()
    }
    expect(pageNo).toBeGreaterThan(1)
    expect(page.url()).toContain(`page=${pageNo}`)

    await demoTwoTile.getByRole('link', { name: DEMO2.name }).click()
    await page.waitForURL(/\/members\/\d+$/)
    demoTwoId = Number(/\/members\/(\d+)$/.exec(page.url())?.[1])
    await page.getByRole('heading', { level: 1, name: DEMO2.name }).waitFor()
    expect(await page.textContent('main')).toContain('Antwerp')
    expect(await page.getByRole('img', { name: /Photo 1 of 2 of Demo Two/ }).count()).toBe(1)

    const like = page.getByRole('button', { name: `Like ${DEMO2.name}` })
    expect(await like.getAttribute('aria-pressed')).toBe('false')
    await like.click()
    await page.waitForFunction(
      (name) =>
        document
          .querySelector(`button[aria-label="Like ${name}"]`)
          ?.getAttribute('aria-pressed') === 'true',
      DEMO2.name,
    )
    await eventually(
      async () => (await api<LikesJson>('/api/likes.php')).profiles.some((p) => p.id === demoTwoId),
      'the like to reach the server',
    )
    // The server can hold the like a moment before the page's answer reaches
    // this process (two channels), so wait for the answer before counting.
    await eventually(async () => likeWrites('POST').length > 0, "the like's answer")
    expect(likeWrites('POST')).toEqual([{ method: 'POST', status: 200 }])
  })

  it("shows the member's own text, the site's visible fields and notes, and a photo gallery", async () => {
    const main = page.locator('main')
    await main.getByText('Loves the harbour, markets and long bike rides.').waitFor()
    await main.getByText('Someone to share a coffee and a walk along the Scheldt.').waitFor()
    await page.getByRole('heading', { name: 'Details' }).waitFor()
    expect(await page.locator('.profile-page__fields dt').count()).toBeGreaterThan(0)

    // Arrows over the photo, a dot per photo, the arrow keys and a swipe.
    const gallery = page.getByRole('region', { name: `Photos of ${DEMO2.name}` })
    const photo = (n: number) => gallery.getByRole('img', { name: `Photo ${n} of 2 of Demo Two` })
    expect(await gallery.getByRole('button', { name: /^Show photo \d$/ }).count()).toBe(2)
    await gallery.getByRole('button', { name: 'Next photo' }).click()
    await photo(2).waitFor()
    expect(
      await gallery.getByRole('button', { name: 'Show photo 2' }).getAttribute('aria-current'),
    ).toBe('true')
    await page.keyboard.press('ArrowLeft')
    await photo(1).waitFor()
    await page.keyboard.press('ArrowRight')
    await photo(2).waitFor()
    const box = await gallery.boundingBox()
    if (!box) throw new Error('no gallery box')
    const y = box.y + box.height / 3
    await page.mouse.move(box.x + box.width * 0.3, y)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.8, y, { steps: 4 })
    await page.mouse.up()
    await photo(1).waitFor()
    // The arrows sit over the photo, not under it.
    const next = await gallery.getByRole('button', { name: 'Next photo' }).boundingBox()
    const img = await photo(1).boundingBox()
    if (!next || !img) throw new Error('no boxes')
    expect(next.y).toBeGreaterThan(img.y)
    expect(next.y + next.height).toBeLessThan(img.y + img.height)
  })

  it('starts a chat from the profile page', async () => {
    await page.getByRole('button', { name: `Chat with ${DEMO2.name}` }).click()
    await page.waitForURL(/\/chats\/\d+$/)
    await page.getByRole('heading', { level: 1, name: `Chat with ${DEMO2.name}` }).waitFor()
    await page.goBack()
    await page.getByRole('heading', { level: 1, name: DEMO2.name }).waitFor()
  })

  it('lists the liked profile under likes given', async () => {
    await page.getByRole('link', { name: 'Likes', exact: true }).click()
    await page.waitForURL(/\/likes$/)
    await page.getByRole('link', { name: 'Given' }).click()
    await page.waitForURL(/\/likes\/given$/)
    const list = page.getByRole('list', { name: 'Given' })
    await list.getByRole('link', { name: DEMO2.name }).waitFor()
    // The newest like comes first.
    expect(await list.locator('.likes-list__name').first().textContent()).toBe(DEMO2.name)
  })

  it('unlikes offline, and the unlike reaches the server once when the network returns', async () => {
    const list = page.getByRole('list', { name: 'Given' })
    await eventually(async () => (await outboxRows()) === 0, 'the outbox to be empty')
    // A profile the demo member liked in the seed (not Demo Two); names may
    // repeat, so it is told apart by the id in its link.
    const href = await list
      .locator('li')
      .filter({ hasNotText: DEMO2.name })
      .first()
      .locator('a.likes-list__name')
      .getAttribute('href')
    const otherId = Number(/\/members\/(\d+)$/.exec(href ?? '')?.[1])
    const other = list.locator('li').filter({ has: page.locator(`a[href="${href}"]`) })
    const name = await other.locator('.likes-list__name').textContent()
    const before = await api<LikesJson>('/api/likes.php')
    expect(before.profiles.some((p) => p.id === otherId)).toBe(true)

    await context.setOffline(true)
    await page.getByRole('status').filter({ hasText: 'offline' }).waitFor()
    const button = other.getByRole('button', { name: `Like ${name}` })
    expect(await button.getAttribute('aria-pressed')).toBe('true')
    await button.click()
    // Shown at once: the profile leaves the list of likes given.
    await other.waitFor({ state: 'detached' })
    // The worker tried, found no network and kept the unlike for later.
    await eventually(
      async () => ((await outbox())[0]?.attempts ?? 0) >= 1,
      'a first, failed attempt',
    )
    expect(await outbox()).toEqual([
      {
        kind: 'unlike',
        attempts: expect.any(Number),
        lastError: expect.stringMatching(/^offline/),
      },
    ])
    expect(likeWrites('DELETE')).toEqual([])

    await context.setOffline(false)
    await eventually(async () => (await outboxRows()) === 0, 'the outbox to drain')
    const after = await api<LikesJson>('/api/likes.php')
    expect(after.profiles.some((p) => p.id === otherId)).toBe(false)
    expect(after.profiles.some((p) => p.id === demoTwoId)).toBe(true)
    await eventually(async () => likeWrites('DELETE').length > 0, "the unlike's answer")
    expect(likeWrites('DELETE')).toEqual([{ method: 'DELETE', status: 200 }])
    // Still unliked after a fresh look at the server's list.
    await page.reload()
    await list.getByRole('link', { name: DEMO2.name }).waitFor()
    expect(await other.count()).toBe(0)
  })

  it('shows the liked member the like first, marked new, and clears the mark once opened', async () => {
    await logOut()
    await logInTo(DEMO2)
    // Counters: the new likes on the header's Likes link (its name stays
    // "Likes", the number is its description), on the mobile menu button and
    // in the document title.
    const likesLink = page.getByRole('link', { name: 'Likes', exact: true })
    await likesLink.locator('.nav-count').waitFor()
    expect(Number(await likesLink.locator('.nav-count').textContent())).toBeGreaterThan(0)
    const described = await likesLink.getAttribute('aria-describedby')
    expect(await page.locator(`[id="${described}"]`).textContent()).toMatch(/^\d+ new$/)
    await page.waitForFunction(() => /^\(\d+\) /.test(document.title))
    await page.setViewportSize({ width: 360, height: 720 })
    await page.locator('.top-nav__toggle .nav-count').waitFor()
    await page.setViewportSize({ width: 1280, height: 720 })
    await likesLink.click()
    await page.waitForURL(/\/likes$/)
    // The tab reads "Received 1 new", not "Received1 new".
    await page
      .getByRole('navigation', { name: 'Likes lists' })
      .getByRole('link', { name: /^Received \d+ new$/ })
      .waitFor()
    const list = page.getByRole('list', { name: 'Received' })
    await list.locator('li').first().waitFor()
    const first = list.locator('li').first()
    expect(await first.locator('.likes-list__name').textContent()).toBe('Demo')
    expect(await first.getByText('New', { exact: true }).count()).toBe(1)

    await first.getByRole('link', { name: 'Demo' }).click()
    await page.waitForURL(/\/likes\/m\/\d+$/)
    await page.getByRole('heading', { level: 1, name: 'Demo' }).waitFor()
    const demoId = Number(/\/likes\/m\/(\d+)$/.exec(page.url())?.[1])
    await eventually(
      async () =>
        (await api<LikesJson>('/api/likes.php')).liked_by.find((l) => l.id === demoId)?.like_new ===
        false,
      'the server to clear the new flag',
    )

    await page.goBack()
    await page.waitForURL(/\/likes$/)
    const entry = list.locator('li').filter({ has: page.getByRole('link', { name: 'Demo' }) })
    await entry.waitFor()
    expect(await entry.getByText('New', { exact: true }).count()).toBe(0)
  })

  it('shows a paid member no webcam tiles', async () => {
    await page.getByRole('link', { name: 'Members' }).click()
    await page.waitForURL(/\/members/)
    await memberTiles().first().waitFor()
    // Wait until the page knows the settings (what cam tiles depend on) and the
    // grid is complete, so "no cams" is not just "not loaded yet".
    await eventually(
      () =>
        page.evaluate(async () => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const req = indexedDB.open('amora')
            req.onsuccess = () => resolve(req.result)
            req.onerror = () => reject(req.error)
          })
          const row = await new Promise<unknown>((resolve) => {
            const req = db.transaction('kv').objectStore('kv').get('settings')
            req.onsuccess = () => resolve(req.result)
          })
          db.close()
          return row !== undefined
        }),
      'the settings to be stored',
    )
    await memberTiles().nth(11).waitFor()
    expect(await page.locator('ul.grid > li.cam-tile').count()).toBe(0)
    const cams = await api<{ cams: unknown[] }>('/api/xcams/search.php')
    expect(cams.cams).toEqual([])
  })

  it('shows a guest the profile with a sign-up call to action, and 404 for no such member', async () => {
    const demo = await api<LikesJson>('/api/likes.php')
    const demoId = demo.liked_by[0]?.id
    await logOut()
    await page.goto(`/members/${demoId}`)
    await page.getByRole('heading', { level: 1, name: 'Demo' }).waitFor()
    expect(await page.getByRole('link', { name: 'Sign up for free' }).getAttribute('href')).toBe(
      '/signup',
    )
    expect(await page.getByRole('button', { name: 'Like Demo' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Chat with Demo' }).count()).toBe(0)

    await page.goto('/members/999999999')
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor()
  })
})

it('shows a member logged in by a plain form post a profile as a member, before the app has stored them', async () => {
  // Demo Two's id, as Demo Two sees it.
  const two = await newContext(browser, site)
  await two.request.post('/api/login.php', { data: DEMO2, headers: { origin: site.url } })
  const { profile } = (await (await two.request.get('/api/user.php')).json()) as {
    profile: { id: number }
  }
  await two.close()
  const ctx = await newContext(browser, site)
  try {
    // The login form sent before the page hydrated (api/site/form-login.ts):
    // the browser has the session cookie, the app's store no member.
    const res = await ctx.request.post('/login', {
      form: { email: DEMO.email, password: DEMO.password },
      headers: { origin: site.url },
      maxRedirects: 0,
    })
    expect(res.status()).toBe(303)
    const p = await ctx.newPage()
    await p.goto(`/members/${profile.id}`)
    // The member's actions, not the guest's sign-up call.
    await p.getByRole('button', { name: `Chat with ${DEMO2.name}` }).waitFor()
    expect(await p.getByText(`Would you like to meet ${DEMO2.name}?`).count()).toBe(0)
  } finally {
    await ctx.close()
  }
})

it('forgets a signed-in note the server no longer backs (no session)', async () => {
  const ctx = await newContext(browser, site)
  try {
    await ctx.addCookies([{ name: 'signed_in', value: '1', url: site.url }])
    const p = await ctx.newPage()
    await p.goto('/pages/faq')
    // The page asked the server (no session: 403) and cleared the note.
    const end = Date.now() + scaled(15_000)
    while ((await ctx.cookies()).some((c) => c.name === 'signed_in')) {
      if (Date.now() > end) throw new Error('the signed_in cookie was not cleared')
      await new Promise((r) => setTimeout(r, 100))
    }
    await p.getByRole('link', { name: 'Log in' }).first().waitFor()
  } finally {
    await ctx.close()
  }
})
