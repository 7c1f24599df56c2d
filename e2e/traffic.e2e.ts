// Issue "Where visitors arrive and what they can read", its "Done when": a
// visitor arrives at /landers/video?network=aff1&sub1=x, is sent to the
// English slug with the tracking keys gone from the address, signs up from
// the lander, and the new account records network aff1; the same lander in
// Dutch on a niche-2 site uses the Dutch she- slug; /members/{id}/landing2
// goes to its slug and leads to sign-up; every /pages/* shows the company's
// KvK and VAT number; a complaint is stored, receipted by mail, and the 11th
// complaint in an hour from one client gets 429.
import { rmSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type SmtpCapture, startSmtpCapture } from '../api/test/smtp.ts'
import { openDatabase } from '../db/client.ts'
import { complaints, members } from '../db/schema/index.ts'
import { describePage, formReady, launchBrowser, type Site, startSite } from './harness.ts'

const KVK = '87654321'
const VAT = 'NL123456789B01'
const EMAIL = `lander.e2e.${Date.now()}@example.com`
const PAGES = ['ban', 'faq', 'terms', 'cookies', 'privacy', 'service', 'return-policy']
const COMPLAINTS_PER_HOUR = 10

let smtp: SmtpCapture
let site: Site
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  smtp = await startSmtpCapture()
  site = await startSite({
    SMTP_URL: smtp.url,
    DEMO_MEMBERS: '30',
    SITE_SETTINGS: JSON.stringify({ company_kvk: KVK, company_vat_numbers: [VAT] }),
  })
  browser = await launchBrowser()
  context = await browser.newContext({ baseURL: site.url, locale: 'en-GB' })
  page = await context.newPage()
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
  await smtp?.close()
})

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await describePage(page)
})

describe('landers, tracking, pages and complaints in Chromium', () => {
  it('an affiliate visitor lands on the English slug without tracking keys and signs up from the lander', async () => {
    const first = await page.goto('/landers/video?network=aff1&sub1=x')
    expect(first?.request().redirectedFrom()?.url()).toContain('/landers/video?network=aff1')
    await page.waitForURL((u) => u.pathname === '/landers/video/meet-singles-on-video-eng')
    await page.waitForFunction(() => window.location.search === '')
    await page.getByRole('heading', { name: 'Singles near you, one after another' }).waitFor()
    // Real members' photos play as a slideshow.
    await page.locator('.lander-video__screen img').first().waitFor()
    const cookie = (await context.cookies()).find((c) => c.name === 'amora_tracking')
    expect(cookie?.sameSite).toBe('Lax')
    expect(JSON.parse(decodeURIComponent(cookie?.value ?? '{}'))).toEqual({
      network: 'aff1',
      sub1: 'x',
      lander: 'video',
    })

    await page.getByRole('link', { name: 'Sign up free' }).first().click()
    await page.getByRole('heading', { name: 'Create your account' }).waitFor()
    await formReady(page)
    await page.getByLabel('Email address').fill(EMAIL)
    await page.getByLabel('Name').fill('Lena')
    await page.getByLabel('Password').fill('a-lander-password-1')
    const signup = page.waitForRequest((r) => r.url().includes('/api/user.php?new=1'))
    await page.getByRole('button', { name: 'Sign up' }).click()
    const body = (await signup).postDataJSON()
    expect(body.trafficsource).toEqual({ network: 'aff1', sub1: 'x', lander: 'video' })
    expect((await (await signup).response())?.status()).toBe(200)
  })

  it('/members/{id}/landing2 goes to its slug and leads a guest to sign-up', async () => {
    const guest = await browser.newContext({ baseURL: site.url, locale: 'en-GB' })
    const p = await guest.newPage()
    const cards = await (await p.request.get('/api/lander_members.php')).json()
    const anna = cards.members[0]
    await p.goto(`/members/${anna.id}/landing2`)
    await p.waitForURL(`**/members/${anna.id}/landing2/chat-with-me-eng`)
    await p
      .getByRole('heading', { name: new RegExp(`Chat with ${anna.name}, ${anna.age}`) })
      .waitFor()
    await p.getByRole('link', { name: `Write to ${anna.name}` }).click()
    await p.getByRole('heading', { name: 'Create your account' }).waitFor()
    // An unknown member still converts: similar members and the sign-up.
    await p.goto('/members/999999999/landing2/chat-with-me-eng')
    await p.getByRole('heading', { name: /no longer available/ }).waitFor()
    expect(await p.getByRole('link', { name: 'Sign up free' }).count()).toBeGreaterThan(0)
    await guest.close()
  })

  it('every information page shows the company’s KvK and VAT number', async () => {
    for (const name of PAGES) {
      await page.goto(`/pages/${name}`)
      await page.getByTestId('kvk').waitFor()
      expect(await page.getByTestId('kvk').textContent(), name).toBe(KVK)
      expect(await page.getByTestId('vat').textContent(), name).toBe(VAT)
    }
  })

  it('a complaint is stored and receipted by mail; the 11th in an hour from one client gets 429', async () => {
    await page.goto('/complaints')
    await page.getByLabel('What (a short description)').fill('Stolen photos')
    await page.getByLabel('Where (link to the profile or message)').fill(`${site.url}/members/3`)
    await page.getByLabel('Why (explain what is wrong)').fill('This profile uses my photos.')
    await page.getByLabel('Your name').fill('Jan')
    await page.getByLabel('Your email address').fill('jan.complaint@example.com')
    await page.getByLabel(/I declare in good faith/).check()
    await page.getByRole('button', { name: 'Send complaint' }).click()
    const receipt = page.getByTestId('complaint-reference')
    await receipt.waitFor()
    const reference = /C-[A-Z0-9]{8}/.exec((await receipt.textContent()) ?? '')?.[0]
    expect(reference).toBeTruthy()
    const mail = await smtp.waitFor((m) => m.to.includes('jan.complaint@example.com'))
    expect(mail.subject).toContain(reference)

    const statuses: number[] = await page.evaluate(async (n) => {
      const out: number[] = []
      for (let i = 0; i < n; i++) {
        const res = await fetch('/api/complaints.php', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Jan',
            email: 'jan.complaint@example.com',
            subject: 'More',
            text: 'Another complaint text.',
            good_faith: true,
          }),
        })
        out.push(res.status)
      }
      return out
    }, COMPLAINTS_PER_HOUR)
    // One complaint went through the form: 9 more pass, the 11th is refused.
    expect(statuses).toEqual([...Array(COMPLAINTS_PER_HOUR - 1).fill(201), 429])
  })

  it('the new account and the complaint are in the database', async () => {
    await browser.close()
    await site.stop({ keepData: true })
    const { db, close } = await openDatabase({ kind: 'pglite', dataDir: `${site.dataDir}/pglite` })
    try {
      const [member] = await db.select().from(members).where(eq(members.email, EMAIL))
      expect(member?.trafficsource).toMatchObject({ network: 'aff1', sub1: 'x', lander: 'video' })
      const stored = await db.select().from(complaints)
      expect(stored.length).toBe(COMPLAINTS_PER_HOUR)
    } finally {
      await close()
      rmSync(site.dataDir, { recursive: true, force: true })
    }
  })
})

describe('a niche-2 site in Dutch', () => {
  it('sends /landers/video to the Dutch she- slug', async () => {
    const nicheSite = await startSite({ DEMO_MEMBERS: '10', SITE_SETTINGS: '{"niche":2}' })
    const b = await launchBrowser()
    try {
      const p = await (await b.newContext({ baseURL: nicheSite.url, locale: 'nl-NL' })).newPage()
      await p.goto('/landers/video?network=aff2')
      await p.waitForURL((u) => u.pathname === '/landers/video/she-singles-ontmoeten-op-video-nl')
      await p
        .getByRole('heading', { name: 'Singles bij jou in de buurt, de een na de ander' })
        .waitFor()
    } finally {
      await b.close()
      await nicheSite.stop()
    }
  })
})
