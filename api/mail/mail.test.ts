// Mail delivery: real SMTP through nodemailer when SMTP_URL is set
// (proved against a local capture server), store-only with the /_dev listing
// otherwise, and a failed send never loses the mail: the job queue retries it.
import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs, mails } from '../../db/schema/index.ts'
import { loadAccountsConfig } from '../config.ts'
import { DevMailResponse } from '../contract/index.ts'
import { createJobRunner } from '../jobs/queue.ts'
import { accountsApi, freshEmail, ip, signUpOk, signupBody } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { linkIn, type SmtpCapture, startSmtpCapture } from '../test/smtp.ts'
import { createMailer, MAIL_SEND, mailJobs, storeMail } from './mailer.ts'
import * as mailMessages from './messages.ts'
import { MAIL_KINDS, MAIL_TEMPLATES, renderMail } from './templates.ts'

describeEngines('mail on %s', (engine) => {
  let database: TestDatabase
  let smtp: SmtpCapture

  beforeAll(async () => {
    database = await freshDatabase(engine)
    smtp = await startSmtpCapture()
  })
  afterAll(async () => {
    await smtp?.close()
    await database?.close()
  })

  it('sends the activation mail over SMTP with a text and an HTML part, and marks it sent', async () => {
    const api = accountsApi(database.db, { smtpUrl: smtp.url, publicUrl: 'https://amora.example' })
    const body = signupBody({ email: freshEmail('smtp'), language: 'nl' })
    const cookie = await signUpOk(api.app, body, { headers: ip(1) })
    const mail = await smtp.waitFor((m) => m.to.includes(body.email))
    expect(mail.subject).toContain('Activeer')
    expect(mail.lang).toBe('nl')
    expect(mail.html).toContain('<a href="https://amora.example/api/activate.php?token=')
    const link = linkIn(mail, '/api/activate.php')
    expect(link.origin).toBe('https://amora.example')
    await api.mailer.idle()
    const status = await send(api.app, '/api/activate.php', { cookie })
    expect(await status.json()).toMatchObject({ delivered: true })
    // The dev listing is off whenever SMTP is on.
    expect((await send(api.app, '/api/_dev/mail.php')).status).toBe(404)
    // The link works against the API (path and token as mailed).
    const follow = await send(api.app, `${link.pathname}${link.search}`)
    expect(follow.headers.get('location')).toBe('/activate/done')
  })

  it('keeps the row with the error when SMTP fails; delivered stays false', async () => {
    const closed = await startSmtpCapture()
    const url = closed.url
    await closed.close()
    const api = accountsApi(database.db, { smtpUrl: url })
    const body = signupBody({ email: freshEmail('fail') })
    const cookie = await signUpOk(api.app, body, { headers: ip(2) })
    await api.mailer.idle()
    const [row] = await database.db.select().from(mails).where(eq(mails.to, body.email))
    expect(row).toMatchObject({ kind: 'activate', sentAt: null })
    expect(row!.error).toEqual(expect.any(String))
    const status = await send(api.app, '/api/activate.php', { cookie })
    expect(await status.json()).toMatchObject({ delivered: false })
  })

  it('lists every stored mail at GET /api/_dev/mail.php with DEV_MAIL=all and no SMTP', async () => {
    // accountsApi's store-only mailer lists every mail, as DEV_MAIL=all does.
    const api = accountsApi(database.db)
    const body = signupBody({ email: freshEmail('dev') })
    await signUpOk(api.app, body, { headers: ip(3) })
    await api.mailer.idle()
    const res = await send(api.app, '/api/_dev/mail.php')
    expect(res.status).toBe(200)
    const { mails: listed } = DevMailResponse.parse(await res.json())
    const mine = listed.find((m) => m.to === body.email)
    expect(mine).toMatchObject({ kind: 'activate', error: null })
    expect(mine!.sent_at).not.toBeNull()
    expect(mine!.text).toContain('/api/activate.php?token=')
  })

  it('never lists mails when dev mail is off (production without SMTP)', async () => {
    const mailer = createMailer({ devListing: false })
    const { createApi } = await import('../app.ts')
    const app = createApi({ db: database.db, accounts: { mailer } })
    expect((await send(app, '/api/_dev/mail.php')).status).toBe(404)
    expect(loadAccountsConfig({ DEMO_SEED: 'off' }).devMail).toBe(false)
    // A demo start lists a member's own mails only; every mail needs DEV_MAIL=all.
    expect(loadAccountsConfig({}).devMail).toBe(false)
    expect(loadAccountsConfig({ DEV_MAIL: 'all' }).devMail).toBe(true)
    expect(loadAccountsConfig({ SMTP_URL: 'smtp://127.0.0.1:25' }).devMail).toBe(false)
  })

  it('a mail whose first SMTP attempt fails is delivered by a retry', async () => {
    // A database of its own: the runners of the other tests' APIs must not
    // take this mail's job with their (store-only) mailers.
    const own = await freshDatabase(engine)
    try {
      await retriedDelivery(own)
    } finally {
      await own.close()
    }
  })

  async function retriedDelivery(database: TestDatabase) {
    // The runner's clock; set after the mail is stored, a second past the
    // database's now() that made its job due (a fixed date here would make
    // the job due only on the days before it).
    let clock = 0
    const runner = createJobRunner({
      db: database.db,
      handlers: {},
      now: () => new Date(clock),
      random: () => 0.5, // no jitter: the first retry is due after exactly 2 s
      log: () => {},
    })
    const mailer = createMailer({ smtpUrl: smtp.url })
    runner.register(mailJobs(database.db, mailer))
    mailer.attach(runner)
    const to = freshEmail('retry')
    const id = await database.db.transaction((tx) =>
      storeMail(tx, {
        memberId: null,
        kind: 'reset',
        to,
        locale: 'en',
        vars: { name: 'x', site: 'Amora', link: 'https://a.example/x' },
      }),
    )
    clock = Date.now() + 1_000
    const jobOf = async () => {
      const rows = await database.db.select().from(jobs).where(eq(jobs.kind, MAIL_SEND))
      return rows.find((j) => (j.payload as { mailId: number }).mailId === id)
    }

    smtp.refuseNext(1)
    mailer.send(database.db, [id])
    await mailer.idle()
    const [failed] = await database.db.select().from(mails).where(eq(mails.id, id))
    expect(failed?.sentAt).toBeNull()
    expect(failed?.error).toContain('451')
    expect(await jobOf()).toMatchObject({ status: 'queued', attempts: 1 })
    expect((await jobOf())?.runAt.getTime()).toBe(clock + 2_000)

    clock += 1_999
    await runner.runDue()
    expect(smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(0)

    clock += 1
    await runner.runDue()
    await smtp.waitFor((m) => m.to.includes(to))
    const [sent] = await database.db.select().from(mails).where(eq(mails.id, id))
    expect(sent?.sentAt).not.toBeNull()
    expect(await jobOf()).toMatchObject({ status: 'done', attempts: 2 })

    // Delivered once: running the queue again sends nothing more.
    clock += 60_000
    await runner.runDue()
    expect(smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(1)
  }

  it('sends only after the commit: a rolled-back transaction mails nothing', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url })
    const to = freshEmail('rollback')
    await expect(
      database.db.transaction(async (tx) => {
        await storeMail(tx, {
          memberId: null,
          kind: 'reset',
          to,
          locale: 'en',
          vars: { name: 'x', site: 'Amora', link: 'https://a.example/x' },
        })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await database.db.select().from(mails).where(eq(mails.to, to))).toEqual([])
    await mailer.idle()
    expect(smtp.messages.some((m) => m.to.includes(to))).toBe(false)
  })
})

describe('mail templates', () => {
  const vars = {
    name: 'Sam',
    site: 'Amora',
    link: 'https://a.example/x?token=1&y=<2>',
    newEmail: 'n@e.x',
    report: { id: 7, reason: 'spam', reported: 2, reporter: 1, text: 'Sells things' },
  }

  it('has every kind in English, with a text part holding the link and an escaped HTML part', () => {
    for (const kind of MAIL_KINDS) {
      const mail = renderMail(kind, 'en', vars)
      expect(mail.subject.length, kind).toBeGreaterThan(0)
      expect(mail.text).toContain(vars.link)
      expect(mail.html).toContain('https://a.example/x?token=1&#38;y=&#60;2&#62;')
      expect(mail.html).not.toContain('<2>')
    }
  })

  it('picks the member language and falls back to English for an unknown locale', () => {
    expect(renderMail('reset', 'nl', vars).locale).toBe('nl')
    expect(renderMail('reset', 'xx', vars)).toMatchObject({ locale: 'en' })
    expect(renderMail('reset', 'xx', vars).subject).toBe(renderMail('reset', 'en', vars).subject)
  })

  const locales = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl'] as const

  it.each(locales)('has every kind translated in %s, with no fallback', (locale) => {
    const own: Partial<Record<string, unknown>> = MAIL_TEMPLATES[locale] ?? {}
    for (const kind of MAIL_KINDS) {
      expect(own[kind], `${locale}/${kind}`).toBeTypeOf('function')
      const mail = renderMail(kind, locale, vars)
      expect(mail.locale, `${locale}/${kind}`).toBe(locale)
      expect(mail.html).toContain(`<html lang="${locale}">`)
      expect(mail.subject.length, `${locale}/${kind}`).toBeGreaterThan(0)
      expect(mail.subject).toContain(vars.site)
      if (locale !== 'en') {
        expect(mail.subject, `${locale}/${kind} is translated`).not.toBe(
          renderMail(kind, 'en', vars).subject,
        )
      }
      expect(mail.text, `${locale}/${kind}`).toContain(vars.link)
      expect(mail.html, `${locale}/${kind}`).toContain(
        'https://a.example/x?token=1&#38;y=&#60;2&#62;',
      )
      expect(mail.html).not.toContain('<2>')
      expect(mail.text).not.toContain('undefined')
      if (kind.startsWith('mail_change_') && kind !== 'mail_change_taken') {
        expect(mail.text, `${locale}/${kind} names the new address`).toContain(vars.newEmail)
      }
    }
  })

  /** A locale file of messages/ as stored. */
  const messagesOf = (locale: string): Record<string, unknown> =>
    JSON.parse(
      readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'),
    ) as Record<string, unknown>

  it.each(locales)('writes a mail in %s with the texts of messages/%s.json', (locale) => {
    const texts = messagesOf(locale)
    const text = (key: string) => String(texts[key]).replace('{site}', vars.site)
    const mail = renderMail('activate', locale, vars)
    expect(mail.subject).toBe(text('mail_activate_subject'))
    expect(mail.text).toContain(`${text('mail_activate_action')}: ${vars.link}`)
    const decision = renderMail('report_decision', locale, {
      ...vars,
      decision: { acted: false, action: '' },
    })
    expect(decision.text).toContain(text('mail_report_decision_not_acted'))
    expect(decision.text).not.toContain(text('mail_report_decision_acted'))
  })

  it('writes each of the seven languages in its own words', () => {
    const subjects = new Set(locales.map((l) => renderMail('activate', l, vars).subject))
    expect(subjects.size).toBe(locales.length)
  })

  it('reads every mail text of messages/en.json (api/mail/messages.ts lists them all)', () => {
    const prefixes = [...MAIL_KINDS.map((k) => `mail_${k}_`), 'mail_rule_', 'mail_restriction_']
    const mailKeys = Object.keys(messagesOf('en')).filter((k) =>
      prefixes.some((p) => k.startsWith(p)),
    )
    expect(Object.keys(mailMessages).sort()).toEqual(mailKeys.sort())
  })
})
