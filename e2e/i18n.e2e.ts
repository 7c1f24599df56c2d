// Spec §1/§4: the site in the visitor's language. The page shell carries the
// chosen `<html lang>` before any script runs, and a German visitor sees the
// sign-up, the members, a profile, the chats and a chat with no English text
// of messages/en.json on them (dates and credits in German too).
import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEMO, describePage, launchBrowser, type Site, startSite } from './harness.ts'

let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  site = await startSite()
  browser = await launchBrowser()
  context = await browser.newContext({ baseURL: site.url, locale: 'de-DE' })
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

type Catalogue = Record<string, string | unknown[]>
const read = (locale: string): Catalogue =>
  JSON.parse(readFileSync(new URL(`../messages/${locale}.json`, import.meta.url), 'utf8'))

/**
 * A line of English on the page: a whole line that is an en.json text (its
 * placeholders standing for anything), where German says something else,
 * and which is no German text either: English "Chat" (the chat button,
 * German "Chatten") is also the German title of a chat whose member is not
 * loaded yet, which the chat page may show for a moment.
 */
function englishLines(): RegExp[] {
  const en = read('en')
  const de = read('de')
  const german = new Set(Object.values(de).filter((text) => typeof text === 'string'))
  const literal = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  return Object.entries(en)
    .filter(
      ([key, text]) =>
        key !== '$schema' && typeof text === 'string' && text !== de[key] && !german.has(text),
    )
    .map(([, text]) => new RegExp(`^${literal(text as string).replace(/\{\w+\}/g, '.+')}$`))
}

async function expectNoEnglish() {
  const patterns = englishLines()
  // Rendered text, one line per block, as the visitor reads it.
  const lines = (await page.locator('body').allInnerTexts())
    .flatMap((t) => t.split('\n'))
    .map((l) => l.trim())
    .filter(Boolean)
  expect(lines.filter((line) => patterns.some((p) => p.test(line)))).toEqual([])
}

const langOf = async (path: string, headers: Record<string, string>) => {
  const html = await (await fetch(new URL(path, site.url), { headers })).text()
  return html.match(/<html[^>]*\slang="([^"]*)"/)?.[1]
}

describe('the page shell', () => {
  it('has <html lang> of the locale cookie, else the browser language, else en', async () => {
    expect(await langOf('/', { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' })).toBe('nl')
    expect(await langOf('/login', { 'accept-language': 'nl', cookie: 'PARAGLIDE_LOCALE=pl' })).toBe(
      'pl',
    )
    expect(await langOf('/index.html', { 'accept-language': 'fr-CA' })).toBe('fr')
    expect(await langOf('/members', { 'accept-language': 'ja' })).toBe('en')
  })
})

describe('a German visitor', () => {
  it('gets the sign-up in German', async () => {
    await page.goto('/signup')
    await page.getByRole('heading', { name: 'Erstelle dein Konto' }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('de')
    await expectNoEnglish()
  })

  it('logs in and sees the members, a profile, the chats and a chat in German', async () => {
    await page.goto('/login')
    await page.getByLabel('E-Mail-Adresse').fill(DEMO.email)
    await page.getByLabel('Passwort').fill(DEMO.password)
    await page.getByRole('button', { name: 'Anmelden' }).click()
    await page.waitForURL(/\/members/)
    await page.getByRole('heading', { name: 'Mitglieder', exact: true }).waitFor()
    await page.locator('ul.grid li.tile').first().waitFor()
    await expectNoEnglish()

    await page.locator('ul.grid li.tile a[href^="/members/"]').first().click()
    await page.waitForURL(/\/members\/\d+$/)
    await page.getByRole('link', { name: 'Zurück zu den Mitgliedern' }).waitFor()
    await expectNoEnglish()

    await page.getByRole('button', { name: /chatten/ }).click()
    await page.waitForURL(/\/chats\/\d+$/)
    // The balance in German words and digits (Guthaben: 1.000 Credits).
    await page
      .locator('.composer__balance')
      .getByText(/^Guthaben: [\d.]+ Credits?$/)
      .waitFor()
    await page.getByLabel('Deine Nachricht').fill('Hallo!')
    await page.getByRole('button', { name: 'Senden', exact: true }).click()
    await page.locator('.chat-messages').getByText('Heute').waitFor()
    await expectNoEnglish()

    await page.goto('/chats')
    await page.getByRole('heading', { name: 'Chats' }).first().waitFor()
    await page.locator('.chat-list__item').first().waitFor()
    await expectNoEnglish()
  })
})

describe('a Polish visitor on a 360 px phone', () => {
  it('gets the header on one row, as a guest and as a member', async () => {
    const polish = await browser.newContext({
      baseURL: site.url,
      locale: 'pl-PL',
      viewport: { width: 360, height: 740 },
    })
    const p = await polish.newPage()
    /** Every part of the header sits on the brand's row (their vertical middles agree). */
    const oneRow = () =>
      p.evaluate(() => {
        const nav = document.querySelector('.top-nav')
        const brand = nav?.querySelector('.brand')?.getBoundingClientRect()
        if (!nav || !brand) return false
        const middle = brand.top + brand.height / 2
        const parts = [...nav.querySelectorAll('.top-nav__guest a, .top-nav__toggle')]
        return (
          parts.length > 0 &&
          parts.every((el) => {
            const r = el.getBoundingClientRect()
            return Math.abs(r.top + r.height / 2 - middle) < r.height / 2
          })
        )
      })
    await p.goto('/login')
    await p.getByRole('link', { name: 'Zarejestruj się' }).first().waitFor()
    expect(await oneRow()).toBe(true)
    await p.locator('form[data-ready]').first().waitFor({ state: 'attached' })
    await p.getByLabel('Adres e-mail').fill(DEMO.email)
    await p.getByLabel('Hasło').fill(DEMO.password)
    await p.getByRole('button', { name: 'Zaloguj się' }).click()
    await p.waitForURL(/\/members/)
    await p.locator('.top-nav__toggle').waitFor()
    expect(await oneRow()).toBe(true)
    await polish.close()
  })
})
