// Moderation end to end: a member reports another member's message; a
// moderator signs in with password and TOTP, sees the report with the
// message in context and suspends the member for 7 days with a reason; the
// member's session ends and login is refused with the end date; the member
// has the statement of reasons by mail and the reporter the decision; the
// member appeals from the mail's link, a second moderator lifts it, and the
// member can log in again. A reported voice message plays in the queue item
// (a data: URL the console's policy allows), named with its length.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { webmRecording } from '../api/test/voice-fixtures.ts'
import {
  pageApi as api,
  browserSuite,
  DEMO,
  logIn,
  logInMember,
  newContext,
  staffSignIn as signIn,
} from './harness.ts'

const REPORTED = { email: 'demo2@example.com', password: DEMO.password }
const STAFF_PASSWORD = 'demopassword'

// The reporter reads the statement mailed to the suspended member (who can
// no longer log in): only the full developer listing shows another member's mail.
// The pages: the reporting member, the reported member and a moderator.
const suite = browserSuite(3, { DEV_MAIL: 'all' })
let a: Page
let b: Page
let s: Page
beforeAll(() => {
  ;[a, b, s] = suite.pages as [Page, Page, Page]
})

const staffSignIn = (p: Page, email: string) => signIn(p, suite.site, email, STAFF_PASSWORD)

type Mail = { kind: string; to: string; subject: string; text: string }
const mails = async (p: Page) => (await api<{ mails: Mail[] }>(p, '/api/_dev/mail.php')).body.mails

let reportedId = 0
/** The report of the voice message (the queue item the moderator listens to). */
let voiceReportId = 0

/**
 * Sends a voice message from the member of `p` (POST /api/message-voice.php,
 * multipart as the chat sends it): a 3 s WebM built as the API tests build
 * it, its length stated in the container so a browser knows it.
 */
async function sendVoice(p: Page, conversation: number): Promise<{ status: number; id: number }> {
  const b64 = Buffer.from(webmRecording({ durationMs: 3000, statedMs: 3000 })).toString('base64')
  return p.evaluate(
    async ({ conversation, b64 }) => {
      const form = new FormData()
      form.append('conversation', String(conversation))
      form.append('client_id', crypto.randomUUID())
      form.append('duration_ms', '3000')
      const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))
      form.append('file', new File([bytes], 'voice.webm', { type: 'audio/webm' }))
      const res = await fetch('/api/message-voice.php', { method: 'POST', body: form })
      const body = (await res.json()) as { message?: { id: number } }
      return { status: res.status, id: body.message?.id ?? 0 }
    },
    { conversation, b64 },
  )
}

describe('moderation: report, suspension, statement of reasons, appeal', () => {
  it('a member reports a message another member sent', async () => {
    const { id: aId } = await logInMember(a, DEMO)
    reportedId = (await logInMember(b, REPORTED)).id
    const chat = await api<{ id: number }>(b, `/api/chat.php?profile=${aId}`)
    expect(chat.status).toBe(200)
    // An opening line first: a first message asking for money would be held
    // for a moderator instead of delivered (api/chats/scam-cases.ts).
    const hello = await api(b, '/api/messages.php', {
      method: 'POST',
      body: { conversation: chat.body.id, text: 'Hi there.', client_id: crypto.randomUUID() },
    })
    expect(hello.status).toBeLessThan(300)
    const sent = await api<{ message: { id: number } }>(b, '/api/messages.php', {
      method: 'POST',
      body: {
        conversation: chat.body.id,
        text: 'Send me money or else.',
        client_id: crypto.randomUUID(),
      },
    })
    expect(sent.status).toBeLessThan(300)
    const report = await api(a, '/api/reports.php', {
      method: 'POST',
      body: {
        profile: reportedId,
        message: sent.body.message.id,
        reason: 'harassment',
        text: 'Threats',
      },
    })
    expect(report.status).toBe(201)
    // A voice message after it, reported too: the moderator listens to it below.
    const voice = await sendVoice(b, chat.body.id)
    expect(voice.status).toBe(201)
    const voiceReport = await api<{ report: { id: number } }>(a, '/api/reports.php', {
      method: 'POST',
      body: { profile: reportedId, message: voice.id, reason: 'harassment', text: 'Shouting' },
    })
    expect(voiceReport.status).toBe(201)
    voiceReportId = voiceReport.body.report.id
  })

  it('a moderator sees it with the message in context and suspends for 7 days', async () => {
    await staffSignIn(s, 'moderator@example.com')
    await s.goto('/operator/queue')
    await s
      .getByRole('link', { name: /Report #/ })
      .first()
      .click()
    await s.getByText('Send me money or else.').waitFor()
    await s.getByLabel('Action').selectOption('suspend')
    await s.getByLabel('Rule').selectOption('harassment')
    await s.getByLabel('Days').fill('7')
    await s.getByLabel('Facts and reasons (sent to the member)').fill('Threatened another member.')
    await s.getByRole('button', { name: 'Decide' }).click()
    await s.getByRole('status').filter({ hasText: 'Decided on' }).waitFor()
  })

  it('a moderator listens to a reported voice message: a labelled player whose length is known', async () => {
    await s.goto(`/operator/queue?type=report&id=${voiceReportId}`)
    const player = s.getByRole('figure').filter({ hasText: 'Voice message, 0:03' }).locator('audio')
    await player.waitFor()
    // Named by its caption, for screen readers.
    expect(await s.getByLabel('Voice message, 0:03').evaluate((el) => el.tagName)).toBe('AUDIO')
    // The data: URL loads under the console's Content-Security-Policy (media-src data:):
    // its metadata, the length the container states, reach the player.
    await s.waitForFunction(
      () => (document.querySelector<HTMLAudioElement>('.mod-voice audio')?.readyState ?? 0) >= 1,
    )
    const duration = await player.evaluate((el) => (el as HTMLAudioElement).duration)
    expect(duration).toBeCloseTo(3, 1)
  })

  it('the suspended member is logged out, cannot log in, and has the statement; the reporter has the decision', async () => {
    expect((await api(b, '/api/user.php')).status).toBe(403)
    // The app learns at its next look at the session that it has ended.
    await b.goto('/members')
    await b.getByRole('link', { name: 'Log in' }).first().waitFor()
    await logIn(b, REPORTED)
    await b.getByRole('alert').filter({ hasText: 'Your account is suspended until' }).waitFor()
    const all = await mails(a)
    const statement = all.find((m) => m.kind === 'statement_of_reasons' && m.to === REPORTED.email)
    expect(statement?.text).toContain('Threatened another member.')
    expect(all.some((m) => m.kind === 'report_decision' && m.to === DEMO.email)).toBe(true)
  })

  it('the member appeals from the mail, a second moderator lifts it, and the member logs in', async () => {
    const statement = (await mails(a)).find((m) => m.kind === 'statement_of_reasons')
    const link = statement?.text.match(/https?:\/\/\S+\/appeal\?token=[\w-]+/)?.[0]
    expect(link).toBeTruthy()
    await b.goto(new URL(link as string).pathname + new URL(link as string).search)
    await b.getByText('Threatened another member.').waitFor()
    await b.getByLabel('Why do you disagree?').fill('It was a joke between friends, nothing more.')
    await b.getByRole('button', { name: 'Send my appeal' }).click()
    await b.getByRole('status').waitFor()

    const second = await newContext(suite.browser, suite.site)
    const s2 = await second.newPage()
    await staffSignIn(s2, 'moderator2@example.com')
    await s2.goto('/operator/queue')
    await s2
      .getByRole('link', { name: /Appeal #/ })
      .first()
      .click()
    await s2.getByLabel('Action').selectOption('lift')
    await s2.getByLabel('Facts and reasons (sent to the member)').fill('Read in context, a joke.')
    await s2.getByRole('button', { name: 'Decide' }).click()
    await s2.getByRole('status').filter({ hasText: 'Decided on' }).waitFor()
    await second.close()

    await logIn(b, REPORTED)
    await b.waitForURL(/\/members/)
    expect((await mails(a)).some((m) => m.kind === 'appeal_decision')).toBe(true)
  })
})
