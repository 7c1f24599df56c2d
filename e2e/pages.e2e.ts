// The site's face (spec §2, §4): the guest home (photos, sign-up step 0 on
// the page, footer with the imprint and a language switcher), the error page
// for guests and members with HTTP 404, redirects of pages that do not fit a
// member, and the 18+ site-entry warning of a niche site (niche 3 here).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  describePage,
  formReady,
  launchBrowser,
  logIn,
  newContext,
  type Site,
  startSite,
} from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

const KVK = '87654321'
const VAT = 'NL009876543B01'

beforeAll(async () => {
  site = await startSite({
    DEMO_MEMBERS: '60',
    SITE_SETTINGS: JSON.stringify({
      niche: 3,
      company_kvk: KVK,
      company_vat_numbers: [VAT],
    }),
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

/** A guest context that confirmed the entry warning before (its flag is set). */
async function confirmedContext(options: { locale?: string } = {}) {
  const ctx = options.locale
    ? await browser.newContext({ baseURL: site.url, locale: options.locale })
    : await newContext(browser, site)
  await ctx.addInitScript(() => localStorage.setItem('amora-entry-confirmed', '1'))
  return ctx
}

async function login(p: Page) {
  await logIn(p)
  await p.waitForURL(/\/members/)
}

describe('the site-entry warning (spec §2, niche site)', () => {
  it('asks a new visitor to confirm 18+ once, in a modal dialog, then remembers it', async () => {
    context = await newContext(browser, site)
    page = await context.newPage()
    await page.goto('/')
    const dialog = page.getByRole('dialog', { name: 'Adults only (18+)' })
    await dialog.waitFor()
    // Esc does not dismiss it: only confirming or leaving may.
    await page.keyboard.press('Escape')
    expect(await dialog.isVisible()).toBe(true)
    await dialog.getByRole('button', { name: 'I am 18 or older – enter' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.reload()
    await page.getByRole('heading', { name: 'How it works' }).waitFor()
    expect(await page.getByRole('dialog', { name: 'Adults only (18+)' }).count()).toBe(0)
    await context.close()
  })
})

describe('the guest home', () => {
  beforeAll(async () => {
    context = await confirmedContext()
    page = await context.newPage()
  })
  afterAll(() => context.close())

  it('shows member photos, sign-up step 0 and how it works', async () => {
    await page.goto('/')
    await page.getByRole('heading', { name: 'Some of our members' }).waitFor()
    await page.locator('ul.grid li.tile img').first().waitFor()
    expect(await page.locator('ul.grid li.tile').count()).toBeGreaterThan(3)
    await page.getByRole('heading', { name: 'Sign up free' }).waitFor()
    expect(await page.getByLabel('Email address').count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'How it works' }).count()).toBe(1)
  })

  it('has a footer with the information pages and the imprint (KvK, VAT)', async () => {
    const footer = page.locator('footer.site-footer')
    await footer.getByText(`KvK) no. ${KVK}`).waitFor()
    expect(await footer.getByText(`VAT no. ${VAT}`).count()).toBe(1)
    for (const name of ['FAQ', 'Terms and conditions', 'Privacy policy', 'Complaints', 'Pricing']) {
      expect(await footer.getByRole('link', { name }).count()).toBe(1)
    }
    expect(await footer.getByRole('link', { name: 'Blocked accounts' }).getAttribute('href')).toBe(
      '/pages/ban',
    )
  })

  it('starts the sign-up on the home page and goes on at /signup', async () => {
    await formReady(page)
    await page.getByLabel('Email address').fill(`home-${Date.now()}@example.com`)
    await page.getByLabel('Name').fill('Homer')
    await page.getByLabel('Password').fill('a long and unusual passphrase 42')
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await page.waitForURL(/\/signup$/)
    await page.getByText(/Step [23] of 8/).waitFor()
  })
})

describe('the language switcher (spec §4)', () => {
  it('switches to German: texts and <html lang> follow, and the cookie keeps it', async () => {
    context = await confirmedContext()
    page = await context.newPage()
    await page.goto('/')
    await page.getByRole('heading', { name: 'How it works' }).waitFor()
    // The home comes rendered by the server (its photos and price too): the
    // switcher acts once the page hydrated, which the sign-up form marks.
    await page.locator('form[data-ready]').first().waitFor({ state: 'attached' })
    expect(await page.getAttribute('html', 'lang')).toBe('en')
    await page.getByLabel('Language').selectOption('de')
    await page.getByRole('heading', { name: 'So funktioniert’s' }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('de')
    expect(await page.getByLabel('Sprache').inputValue()).toBe('de')
    const cookie = (await context.cookies()).find((c) => c.name === 'PARAGLIDE_LOCALE')
    expect(cookie?.value).toBe('de')
    await page.goto('/login')
    await page.getByLabel('Sprache').waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('de')
    await context.close()
  })
})

describe('the error page (spec §2)', () => {
  it('answers an unknown path with 404, the status and message, and a guest the sign-up form', async () => {
    context = await confirmedContext()
    page = await context.newPage()
    const res = await page.goto('/no-such-page')
    expect(res?.status()).toBe(404)
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor()
    expect(await page.locator('.error-page__status').textContent()).toBe('404')
    expect(await page.getByText('Page Not Found: /no-such-page').count()).toBe(1)
    await page.getByRole('heading', { name: 'New here? Sign up free' }).waitFor()
    expect(await page.getByLabel('Email address').count()).toBe(1)
    expect(await page.locator('#app-root').getAttribute('class')).toContain('app-error-page')
  })

  it('gives a logged-in member a profile overview instead', async () => {
    await login(page)
    // The server's own answer: page.request skips the service worker, which
    // (once it controls the page, and the login may leave it in control)
    // serves known routes from its cached shell with a 200.
    const res = await page.request.get('/members/1/nothing', { headers: { accept: 'text/html' } })
    expect(res.status()).toBe(404)
    // And the page the member sees, from the server or the worker's shell alike.
    await page.goto('/members/1/nothing')
    await page.getByRole('heading', { name: 'Your profile' }).waitFor()
    expect(await page.getByRole('link', { name: 'Edit your profile' }).count()).toBe(1)
    expect(await page.getByLabel('Email address').count()).toBe(0)
  })

  it('answers the profile and the chat of a member who does not exist with 404', async () => {
    for (const path of ['/members/999999999', '/members/999999999/chat']) {
      // The server's own answer: page.request skips the service worker, which
      // (once it controls the page) serves known routes from its cached shell.
      const res = await page.request.get(path, { headers: { accept: 'text/html' } })
      expect(res.status(), path).toBe(404)
      // And the page the member sees, from the server or the worker's shell alike.
      await page.goto(path)
      await page.getByRole('heading', { name: 'Your profile' }).waitFor()
    }
  })

  it('says at once that a transaction id that cannot exist does not exist', async () => {
    await page.goto('/transactions/doesnotexist123')
    await page.getByRole('alert').filter({ hasText: 'This transaction does not exist.' }).waitFor()
    expect(await page.getByText('Waiting for the payment…').count()).toBe(0)
  })
})

describe('pages that do not fit a logged-in member redirect (spec §2)', () => {
  // Continues the logged-in context of the error page tests; the demo
  // member's sign-up is complete (step 7).
  it.each(['/login', '/account-deleted', '/complete-signup', '/signup'])(
    '%s goes to the members area',
    async (path) => {
      await page.goto(path)
      await page.waitForURL(/\/members$/)
    },
  )

  it('a login link with a target goes to that target instead', async () => {
    await page.goto('/login?redirect=/likes')
    await page.waitForURL(/\/likes$/)
  })
})

describe('developer panel and pages (spec §2, development configuration)', () => {
  it('/_dev lists the developer pages to a member; top-nav shows guest and member navigation', async () => {
    await page.goto('/_dev')
    await page.getByRole('heading', { name: 'Developer pages' }).waitFor()
    await page.getByRole('link', { name: 'Every navigation state' }).click()
    await page.getByRole('heading', { name: 'Logged-in member' }).waitFor()
    expect(await page.getByRole('link', { name: 'Sign up' }).count()).toBeGreaterThan(0)
  })

  it('opens with ?dev=1 and sets the credits to zero', async () => {
    await page.goto('/members?dev=1')
    const panel = page.getByRole('complementary', { name: 'Developer panel' })
    await panel.waitFor()
    await panel.getByRole('button', { name: 'Set credits to zero' }).click()
    await panel.getByText('Credits set to zero.').waitFor()
    await panel.getByRole('button', { name: 'Close the panel' }).click()
    await panel.waitFor({ state: 'detached' })
  })

  it('keeps a guest out of /_dev (login first)', async () => {
    const guest = await confirmedContext()
    const p = await guest.newPage()
    await p.goto('/_dev/dialogs')
    await p.waitForURL(/\/login\?redirect=/)
    await guest.close()
  })

  afterAll(() => context?.close())
})

describe('/match-finder (spec §2)', () => {
  it('puts each radio button in line with its label', async () => {
    const ctx = await confirmedContext()
    const p = await ctx.newPage()
    await p.goto('/match-finder')
    const radio = p.getByRole('radio', { name: 'Women' })
    await radio.waitFor()
    // Per label: how far the radio's middle is from its text's middle, and
    // whether the text starts after the radio (side by side).
    const rows = await p.evaluate(() =>
      [...document.querySelectorAll('label.radio')].map((label) => {
        const input = label.querySelector('input')?.getBoundingClientRect()
        const text = [...label.childNodes].filter(
          (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
        )
        const range = document.createRange()
        if (text[0]) range.selectNodeContents(text[0])
        const word = range.getBoundingClientRect()
        if (!input) return { offset: 99, beside: false }
        const middle = (r: DOMRect) => r.top + r.height / 2
        return {
          offset: Math.round(Math.abs(middle(input) - middle(word))),
          beside: word.left >= input.right,
        }
      }),
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.beside).toBe(true)
      expect(row.offset).toBeLessThanOrEqual(4)
    }
    await ctx.close()
  })
})

describe('a slow device (spec §2 member pages)', () => {
  it('shows the layout skeleton at once, before the app script has run', async () => {
    const ctx = await confirmedContext()
    // No script ever arrives: what shows is the shell's own HTML and CSS.
    await ctx.route('**/*.js', (route) => route.abort())
    const p = await ctx.newPage()
    await p.goto('/members', { waitUntil: 'load' })
    const bar = p.locator('.boot-skeleton .top-nav')
    expect(await bar.isVisible()).toBe(true)
    const box = await bar.boundingBox()
    expect(box?.height ?? 0).toBeGreaterThan(40)
    expect(await p.locator('.boot-skeleton__tile').count()).toBeGreaterThan(0)
    expect(await p.locator('.boot-skeleton__tile').first().isVisible()).toBe(true)
    await ctx.close()
  })
})
