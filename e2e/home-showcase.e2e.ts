// A guest's home paints its member photos with its HTML (docs/performance.md,
// "HTML that paints before JavaScript"): the server renders the showcase
// (GET /api/showcase.php, reviewed photos only) into the page, so the photos
// do not wait for the sync worker, which starts only once the page settled;
// the hero's "from" price comes with them (GET /api/packages.php's answer).
// Needs `npm run build` (dist-ssr/ holds the server render).
import { request } from 'node:http'
import type { Browser, ConsoleMessage } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser, type Site, startSite } from './harness.ts'

let site: Site
let browser: Browser
let shown: { id: number; name: string; age: number; main_image: { thumb_filename: string } }[]

/** GET without a browser or a session: the HTML as the server sent it. */
function getHtml(path: string) {
  return new Promise<string>((resolve, reject) => {
    const req = request(
      new URL(path, site.url),
      { headers: { 'accept-language': 'en', 'user-agent': 'Mozilla/5.0 Chrome/140.0' } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve(body))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

beforeAll(async () => {
  // The default settings: logged-out search is closed, so the home shows the showcase.
  site = await startSite()
  browser = await launchBrowser()
  shown = (
    (await (await fetch(`${site.url}/api/showcase.php`)).json()) as { profiles: typeof shown }
  ).profiles
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

it("has the showcase's photos, names and ages, and the hero's price, in a guest's home HTML", async () => {
  expect(shown.length).toBeGreaterThan(0)
  const html = await getHtml('/')
  const root = /<div id="root">([\s\S]*)<script type="application\/json" id="page-seed">/.exec(
    html,
  )?.[1]
  expect(root).toBeTruthy()
  // The first screen's photos: the first six, loaded at once, with their box.
  for (const p of shown.slice(0, 6)) {
    expect(root).toMatch(
      new RegExp(
        `<li><img src="/media/${p.main_image.thumb_filename}" alt="[^"]*${p.name}[^"]*" width="160" height="200" loading="eager"/></li>`,
      ),
    )
  }
  // The hero's price is in the HTML too: free to join, and a message's money
  // from the best package (the one rule, api/contract/rules/credit-value.ts).
  expect(root).toMatch(
    /<p class="guest-hero__price" data-packages="">Free to join and to browse(<!-- -->)? · (<!-- -->)?a message from €\d+\.\d\d<\/p>/,
  )
  // The showcase's tiles: every member with name, age and photo; the first row at once.
  for (const [i, p] of shown.entries()) {
    expect(root).toContain(`id="member-${p.id}-name"`)
    expect(root).toMatch(new RegExp(`href="/members/${p.id}"[^>]*>${p.name}</a>`))
    expect(root).toMatch(
      new RegExp(
        `<img class="tile__photo" alt="[^"]*${p.name}[^"]*" src="/media/${p.main_image.thumb_filename}" loading="${i < 6 ? 'eager' : 'lazy'}" width="240" height="320"/>`,
      ),
    )
    expect(root).toMatch(
      new RegExp(`id="member-${p.id}-name"[\\s\\S]*?<p class="tile__meta">${p.age} years`),
    )
  }
})

it.each([360, 1280])(
  'shows the photos at %i px with the sync worker and the service worker blocked, hydrating without an error',
  async (width) => {
    const context = await browser.newContext({
      baseURL: site.url,
      locale: 'en-GB',
      serviceWorkers: 'block',
      viewport: { width, height: 800 },
    })
    const problems: string[] = []
    const watch = (msg: ConsoleMessage) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text())
    }
    context.on('console', watch)
    context.on('weberror', (e) => problems.push(e.error().message))
    // The sync worker's script never arrives: nothing here may wait for it.
    await context.route(/\/assets\/worker-[^/]*\.js$/, (route) => route.abort())
    const page = await context.newPage()
    await page.goto('/')
    const complete = (selector: string) =>
      page.waitForFunction((sel) => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>(sel)]
        return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0)
      }, selector)
    await complete('.guest-hero__photos img')
    // Hydrated (the form has its handlers): no mismatch has been reported.
    await page.locator('form[data-ready]').first().waitFor({ state: 'attached' })
    expect(await page.locator('.guest-hero__photos img').count()).toBe(Math.min(6, shown.length))
    const tiles = page.locator('ul.grid li.tile')
    expect(await tiles.count()).toBe(shown.length)
    await tiles.first().scrollIntoViewIfNeeded()
    await complete('ul.grid li.tile:first-child img')
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    )
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: `/tmp/i39-home-${width}.png`, fullPage: true })
    // The failed worker script may be reported; a hydration mismatch (React's
    // own words, or its minified error #418/#423/#425) may not.
    expect(
      problems.filter((p) => /hydrat|did not match|Minified React error #4(18|19|23|25)/i.test(p)),
    ).toEqual([])
    await context.close()
  },
)
