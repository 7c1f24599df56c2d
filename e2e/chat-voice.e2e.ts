// Voice messages in chats (docs/messages-and-credits.md, "Voice messages"),
// two members in two browsers whose microphone is Chromium's fake device (a
// beep) with the permission granted: A holds the microphone about 2 s and
// lets go; B, with the chat open, sees the voice message arrive live and
// plays it; A pays the voice price (20) once. From the keyboard: Enter
// starts, Escape discards (nothing sent), Enter again sends; held and slid
// off the button, it is discarded. Recorded
// offline (context.setOffline), it waits in the outbox, shows pending and
// plays from the device, and is delivered once when the network is back.
// B reports one: it is hidden for B. axe finds no serious or critical
// violation in the chat with a voice message and with the recorder on, in
// the three templates.
import AxeBuilder from '@axe-core/playwright'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { scaled } from '../api/test/time-scale.ts'
import {
  DEMO,
  describePage,
  launchBrowser,
  logInMember,
  pageUntil,
  type Site,
  startSite,
} from './harness.ts'

const B_LOGIN = { email: 'demo2@example.com', password: DEMO.password }
const LIVE = scaled(30_000)
/** The default price of a voice message (voice_message_credits), pinned by value. */
const VOICE_COST = 20
/** One site a template, each on its own host (api/settings `sites`), for the axe runs. */
const SITES = [
  { host: 'classic-1.localhost', template: 'classic', niche: 1 },
  { host: 'boxy-3.localhost', template: 'boxy', niche: 3 },
  { host: 'lavish-7.localhost', template: 'lavish', niche: 7 },
] as const

let site: Site
let browser: Browser
let a: Page
let b: Page

/** A context whose microphone is the fake device, allowed: Chromium asks nothing. */
async function micContext(baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    locale: 'en-GB',
    serviceWorkers: 'allow',
  })
  await context.grantPermissions(['microphone'])
  return context
}

beforeAll(async () => {
  const sites = Object.fromEntries(
    SITES.map((s) => [s.host, { template: s.template, niche: s.niche }]),
  )
  site = await startSite({ SITE_SETTINGS: JSON.stringify({ sites }) })
  browser = await launchBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
    '--host-resolver-rules=MAP *.localhost 127.0.0.1',
  ])
  a = await (await micContext(site.url)).newPage()
  b = await (await micContext(site.url)).newPage()
})

afterEach(async (t) => {
  if (t.task.result?.state === 'fail') for (const p of [a, b]) await describePage(p)
})

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

const credits = (p: Page) =>
  p.evaluate(
    async () => ((await (await fetch('/api/credits.php')).json()) as { credits: number }).credits,
  )

interface StoredVoice {
  id: number
  voice?: { url: string; type: string; duration_ms: number } | null
  voice_hidden?: true
}

/** The chat's voice messages as the server has them for the page's member. */
const voicesStored = (p: Page, conversation: number) =>
  p.evaluate(async (c) => {
    const res = await fetch(`/api/messages.php?conversation=${c}`)
    const { messages } = (await res.json()) as { messages: StoredVoice[] }
    return messages.filter((m) => m.voice !== undefined)
  }, conversation)

const mic = (p: Page) => p.getByRole('button', { name: 'Record a voice message' })
/** The recorder has run at least `s` whole seconds (its clock says so). */
const recorded = (p: Page, s: number) =>
  pageUntil(
    p,
    (least) => {
      const clock = document.querySelector(
        '.composer__recording[data-voice-recording="recording"] [data-voice-elapsed]',
      )
      return clock !== null && Number(clock.getAttribute('data-voice-elapsed')) >= least
    },
    s,
    { timeout: LIVE },
  )

/** Holds the microphone down until `s` seconds are recorded, checks `whileHeld`, then lets go (sent). */
async function holdToRecord(p: Page, s: number, whileHeld: () => Promise<void>) {
  const box = await mic(p).boundingBox()
  if (!box) throw new Error('no microphone button')
  await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await p.mouse.down()
  await recorded(p, s)
  await whileHeld()
  await p.mouse.up()
}

/** Starts with a tap, records `s` seconds, sends with the recorder's Send button. */
async function tapToRecord(p: Page, s: number) {
  await mic(p).click()
  await recorded(p, s)
  await p.getByRole('button', { name: 'Send voice message' }).click()
}

const axeProblems = async (p: Page, where: string) => {
  const { violations } = await new AxeBuilder({ page: p }).analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes[0]?.target.join(' ')}`)
}

describe('a voice message in a chat', () => {
  let chatPath = ''
  let conversation = 0

  it('A holds the microphone 2 s and lets go: B sees it live and plays it; A pays 20 credits once', async () => {
    const bMember = await logInMember(b, B_LOGIN)
    await logInMember(a, DEMO)
    await a.goto(`/members/${bMember.id}`)
    await a.getByRole('button', { name: /^Chat with / }).click()
    await a.waitForURL(/\/chats\/\d+$/)
    chatPath = new URL(a.url()).pathname
    conversation = Number(chatPath.split('/').pop())
    await a.locator('.composer__balance').waitFor()
    // A voice message never opens a conversation: no microphone before a first message.
    expect(await mic(a).count()).toBe(0)
    const box = a.getByRole('textbox', { name: 'Your message' })
    await box.fill('Hello! A voice message follows.')
    await box.press('Enter')
    await a
      .locator('.message--mine.message--sent', { hasText: 'A voice message follows.' })
      .waitFor({ timeout: LIVE })
    await mic(a).waitFor()
    await b.goto(chatPath)
    await b
      .locator('.message--theirs', { hasText: 'voice message follows' })
      .waitFor({ timeout: LIVE })

    const before = await credits(a)
    await holdToRecord(a, 2, async () => {
      // While recording: pressed, announced, and what it will cost in credits and money.
      expect(await mic(a).getAttribute('aria-pressed')).toBe('true')
      expect(await a.locator('[data-voice-status]').textContent()).toBe('Recording… 0:00')
      const price = a.locator('.composer__recording [data-credits-price]')
      expect(await price.getAttribute('data-credits-price')).toBe(String(VOICE_COST))
      expect(await price.textContent()).toMatch(/^20 credits \(€\d+\.\d\d\)$/)
    })

    await a
      .locator('.message--mine.message--sent [data-voice-message="audio/webm"]')
      .waitFor({ timeout: LIVE })
    expect(await mic(a).getAttribute('aria-pressed')).toBe('false')
    await a
      .locator(`.composer__balance[data-credits="${before - VOICE_COST}"]`)
      .waitFor({ timeout: LIVE })
    const stored = await voicesStored(a, conversation)
    expect(stored).toHaveLength(1)
    expect(stored[0]?.voice?.type).toBe('audio/webm')
    expect(stored[0]?.voice?.duration_ms).toBeGreaterThanOrEqual(2_000)
    expect(stored[0]?.voice?.duration_ms).toBeLessThanOrEqual(60_000)

    // B: live, and it plays (Debian's Chromium plays webm/Opus).
    const theirs = b.locator('.message--theirs [data-voice-message="audio/webm"]')
    await theirs.waitFor({ timeout: LIVE })
    await theirs.getByRole('button', { name: /^Play voice message \(0:0[2-9]\)$/ }).click()
    await pageUntil(
      b,
      () => {
        const audio = document.querySelector<HTMLAudioElement>('.message--theirs .voice audio')
        return audio !== null && (audio.currentTime > 0.3 || audio.ended)
      },
      null,
      { timeout: LIVE },
    )
    expect(await credits(a)).toBe(before - VOICE_COST)
  })

  it('from the keyboard: Enter starts, Escape discards (nothing sent), Enter again sends', async () => {
    const before = await credits(a)
    const count = (await voicesStored(a, conversation)).length
    await mic(a).focus()
    await a.keyboard.press('Enter')
    await recorded(a, 1)
    await a.keyboard.press('Escape')
    await a.locator('.composer__recording').waitFor({ state: 'detached' })
    expect(await a.locator('[data-voice-status]').textContent()).toBe('Recording discarded.')
    expect(await mic(a).evaluate((el) => el === document.activeElement)).toBe(true)

    await a.keyboard.press('Enter')
    await recorded(a, 1)
    await a.keyboard.press('Enter')
    await a
      .locator('.message--mine.message--sent [data-voice-message]')
      .nth(1)
      .waitFor({ timeout: LIVE })
    expect(await voicesStored(a, conversation)).toHaveLength(count + 1)
    expect(await credits(a)).toBe(before - VOICE_COST)
  })

  it('held and slid off the microphone, the recording is discarded: nothing sent', async () => {
    const before = await credits(a)
    const count = (await voicesStored(a, conversation)).length
    const box = await mic(a).boundingBox()
    if (!box) throw new Error('no microphone button')
    await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await a.mouse.down()
    await recorded(a, 1)
    await a.mouse.move(box.x + box.width / 2, box.y - 200, { steps: 5 })
    await a.locator('.composer__recording').waitFor({ state: 'detached' })
    await a.mouse.up()
    expect(await a.locator('[data-voice-status]').textContent()).toBe('Recording discarded.')
    expect(await a.locator('.message--mine.message--pending').count()).toBe(0)
    expect(await voicesStored(a, conversation)).toHaveLength(count)
    expect(await credits(a)).toBe(before)
  })

  it('recorded offline, it waits pending, plays from the device, and is delivered once when back online', async () => {
    const before = await credits(a)
    const count = (await voicesStored(a, conversation)).length
    await a.context().setOffline(true)
    try {
      await tapToRecord(a, 1)
      const pending = a.locator('.message--mine.message--pending [data-voice-message]')
      await pending.waitFor({ timeout: LIVE })
      expect(await pending.locator('audio').getAttribute('src')).toMatch(/^blob:/)
      await pending.getByRole('button', { name: /^Play voice message/ }).click()
      await pageUntil(
        a,
        () => {
          const audio = document.querySelector<HTMLAudioElement>('.message--pending .voice audio')
          // Still offline: it can only be playing the recording on the device.
          return audio !== null && (audio.currentTime > 0.2 || audio.ended)
        },
        null,
        { timeout: LIVE },
      )
    } finally {
      await a.context().setOffline(false)
    }
    await a.locator('.message--mine.message--pending').waitFor({ state: 'detached', timeout: LIVE })
    await b.locator('.message--theirs [data-voice-message]').nth(count).waitFor({ timeout: LIVE })
    expect(await voicesStored(a, conversation)).toHaveLength(count + 1)
    expect(await credits(a)).toBe(before - VOICE_COST)
  })

  it('B reports a voice message: it is hidden for B, and stays hidden', async () => {
    const first = b.locator('.message--theirs').filter({ has: b.locator('[data-voice-message]') })
    const before = await first.count()
    await first.first().getByRole('button', { name: 'Report this voice message' }).click()
    await b.getByLabel('Reason').selectOption('inappropriate')
    await b.getByRole('button', { name: 'Send report' }).click()
    await b.getByRole('status').filter({ hasText: 'Your report no.' }).waitFor({ timeout: LIVE })
    await b.keyboard.press('Escape')
    await b.getByText('This voice message is hidden.').waitFor({ timeout: LIVE })
    expect(await first.count()).toBe(before - 1)
    const hidden = (await voicesStored(b, conversation)).filter((m) => m.voice === null)
    expect(hidden).toHaveLength(1)
    expect(hidden[0]?.voice_hidden).toBe(true)
    await b.reload()
    await b.getByText('This voice message is hidden.').waitFor({ timeout: LIVE })
    // A still has it.
    expect((await voicesStored(a, conversation)).every((m) => m.voice)).toBe(true)
  })

  it('a refused microphone is told, and nothing is sent', async () => {
    const count = (await voicesStored(a, conversation)).length
    const page = await (await browser.newContext({ baseURL: site.url, locale: 'en-GB' })).newPage()
    await page.context().addCookies((await a.context().cookies()).filter((c) => c.name === 'sid'))
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
    })
    await page.goto(chatPath)
    await mic(page).click()
    await page
      .getByRole('alert')
      .filter({ hasText: 'Access to the microphone was refused.' })
      .waitFor({ timeout: LIVE })
    expect(await page.locator('.composer__recording').count()).toBe(0)
    expect(await mic(page).getAttribute('aria-pressed')).toBe('false')
    expect(await voicesStored(a, conversation)).toHaveLength(count)
    await page.context().close()
  })

  it('no serious or critical axe violation with a voice message and with the recorder on, in every template', async () => {
    const cookies = await a.context().cookies()
    const sid = cookies.find((c) => c.name === 'sid')
    if (!sid) throw new Error('A has no session cookie')
    const port = new URL(site.url).port
    const problems: string[] = []
    for (const s of SITES) {
      const context = await micContext(`http://${s.host}:${port}`)
      await context.addCookies([{ ...sid, domain: s.host, path: '/' }])
      // A niche site's adults-only notice, confirmed once (features/site/flags.ts), as screens.e2e.ts does.
      await context.addInitScript(() => localStorage.setItem('amora-entry-confirmed', '1'))
      const page = await context.newPage()
      await page.goto(chatPath)
      await page.locator('.message [data-voice-message]').first().waitFor({ timeout: LIVE })
      problems.push(...(await axeProblems(page, `${s.template} with a voice message`)))
      await mic(page).click()
      await recorded(page, 0)
      problems.push(...(await axeProblems(page, `${s.template} recording`)))
      await page.keyboard.press('Escape')
      await page.locator('.composer__recording').waitFor({ state: 'detached' })
      await context.close()
    }
    expect(problems).toEqual([])
  })
})
