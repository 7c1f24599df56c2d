// Who may read stored mails at GET /api/_dev/mail.php (api/mail/routes.ts):
// a signed-in member their own (never a reset link), whatever the
// configuration; every stored mail only on a development configuration that
// asks for it (DEV_MAIL=all), since other members' links open their accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../app.ts'
import { loadAccountsConfig } from '../config.ts'
import { DevMailResponse } from '../contract/index.ts'
import { freshEmail, ip } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { createMailer } from './mailer.ts'
import { accountsFromEnv } from './site.ts'

describe('the full developer listing', () => {
  it('is off on a demo start unless DEV_MAIL=all asks for it', () => {
    expect(loadAccountsConfig({}).devMail).toBe(false)
    expect(loadAccountsConfig({ DEMO_SEED: 'on', NODE_ENV: 'development' }).devMail).toBe(false)
    expect(loadAccountsConfig({ DEV_MAIL: 'on' }).devMail).toBe(false)
    expect(loadAccountsConfig({ DEV_MAIL: 'all' }).devMail).toBe(true)
    expect(loadAccountsConfig({ DEV_MAIL: 'all', NODE_ENV: 'development' }).devMail).toBe(true)
    expect(accountsFromEnv({}).mailer.devListing).toBe(false)
    expect(accountsFromEnv({ DEV_MAIL: 'all' }).mailer.devListing).toBe(true)
  })

  it.each([
    [{ DEMO_SEED: 'off' }],
    [{ DEMO_SEED: 'off', DEV_MAIL: 'all' }],
    [{ NODE_ENV: 'production' }],
    [{ NODE_ENV: 'production', DEV_MAIL: 'all', DEMO_SEED: 'on' }],
    [{ DEV_MAIL: 'off' }],
    [{ SMTP_URL: 'smtp://127.0.0.1:25' }],
    [{ SMTP_URL: 'smtp://127.0.0.1:25', DEV_MAIL: 'all' }],
  ])('is off for %j', (env) => {
    expect(loadAccountsConfig(env).devMail).toBe(false)
  })

  it('refuses a DEV_MAIL it does not know', () => {
    expect(() => loadAccountsConfig({ DEV_MAIL: 'everything' })).toThrow()
  })

  it('leaves the developer tools of a demo start on (the panel, credits to zero)', () => {
    expect(loadAccountsConfig({}).development).toBe(true)
    expect(loadAccountsConfig({ DEV_MAIL: 'all' }).development).toBe(true)
    expect(loadAccountsConfig({ DEV_MAIL: 'off' }).development).toBe(false)
    expect(loadAccountsConfig({ DEMO_SEED: 'off' }).development).toBe(false)
    expect(loadAccountsConfig({ NODE_ENV: 'production' }).development).toBe(false)
    expect(accountsFromEnv({}).development).toBe(true)
  })
})

describeEngines('stored mails on a demo start on %s', (engine) => {
  let t: TestDatabase
  // The accounts of a demo start as api/start.ts makes them (no SMTP, demo
  // seed on, not production), and of one started with DEV_MAIL=all.
  let demo: ReturnType<typeof accountsFromEnv>
  let all: ReturnType<typeof accountsFromEnv>
  let demoApp: ReturnType<typeof createApi>
  let allApp: ReturnType<typeof createApi>
  let client = 100

  beforeAll(async () => {
    t = await freshDatabase(engine)
    demo = accountsFromEnv({ TRUST_PROXY: '1' })
    all = accountsFromEnv({ TRUST_PROXY: '1', DEV_MAIL: 'all' })
    demoApp = createApi({ db: t.db, accounts: demo })
    allApp = createApi({ db: t.db, accounts: all })
  })
  afterAll(async () => {
    await demo?.mailer.idle()
    await all?.mailer.idle()
    await t?.close()
  })

  const mailsFor = async (app: ReturnType<typeof createApi>, cookie?: string) => {
    const res = await send(app, '/api/_dev/mail.php', { cookie })
    return res.status === 200 ? DevMailResponse.parse(await res.json()).mails : res.status
  }

  it('answers 404 without a session', async () => {
    expect(await mailsFor(demoApp)).toBe(404)
  })

  it('shows a member only the mails sent to them, never another member’s nor a reset link', async () => {
    const ann = await addMember(t.db, { email: freshEmail('demo-ann') })
    const bob = await addMember(t.db, { email: freshEmail('demo-bob') })
    const annCookie = await login(demoApp, ann.email, TEST_PASSWORD)
    const bobCookie = await login(demoApp, bob.email, TEST_PASSWORD)
    const annNew = freshEmail('demo-ann-new')
    const bobNew = freshEmail('demo-bob-new')
    // Both ask for a mail change (mailed to the old and the new address) and a reset.
    for (const [cookie, email] of [
      [annCookie, annNew],
      [bobCookie, bobNew],
    ] as const) {
      const change = await send(demoApp, '/api/mail_change.php', {
        method: 'POST',
        cookie,
        body: { password: TEST_PASSWORD, email },
      })
      expect(change.status).toBe(200)
    }
    for (const email of [ann.email, bob.email]) {
      const reset = await send(demoApp, '/api/reset_password.php', {
        method: 'POST',
        body: { email },
        headers: ip(++client),
      })
      expect(reset.status).toBeLessThan(300)
    }
    await demo.mailer.idle()

    const annMails = await mailsFor(demoApp, annCookie)
    if (!Array.isArray(annMails)) throw new Error(`Ann's listing answered ${annMails}`)
    expect(annMails.map((m) => m.kind).sort()).toEqual([
      'mail_change_confirm',
      'mail_change_notice',
    ])
    for (const mail of annMails) expect([ann.email, annNew]).toContain(mail.to)
    const bobMails = await mailsFor(demoApp, bobCookie)
    if (!Array.isArray(bobMails)) throw new Error(`Bob's listing answered ${bobMails}`)
    expect(bobMails.map((m) => m.to).sort()).toEqual([bob.email, bobNew].sort())
    // Nothing of Bob's reaches Ann, nor of Ann's Bob.
    const annIds = new Set(annMails.map((m) => m.id))
    expect(bobMails.filter((m) => annIds.has(m.id))).toEqual([])

    // With DEV_MAIL=all every stored mail is listed, resets and all, without a session.
    const everything = await mailsFor(allApp)
    if (!Array.isArray(everything)) throw new Error(`the full listing answered ${everything}`)
    const kindsTo = (to: string) =>
      everything
        .filter((m) => m.to === to)
        .map((m) => m.kind)
        .sort()
    expect(kindsTo(ann.email)).toEqual(['mail_change_notice', 'reset'])
    expect(kindsTo(bob.email)).toEqual(['mail_change_notice', 'reset'])
    expect(kindsTo(annNew)).toEqual(['mail_change_confirm'])
    expect(kindsTo(bobNew)).toEqual(['mail_change_confirm'])
  })
})

describeEngines('stored mails outside development on %s', (engine) => {
  let t: TestDatabase
  let app: ReturnType<typeof createApi>
  const mailer = createMailer({ devListing: false })
  let client = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
    app = createApi({ db: t.db, accounts: { mailer, trustProxy: true } })
  })
  afterAll(async () => {
    await mailer.idle()
    await t.close()
  })

  const mailsFor = async (cookie?: string) => {
    const res = await send(app, '/api/_dev/mail.php', { cookie })
    return res.status === 200 ? DevMailResponse.parse(await res.json()).mails : res.status
  }

  it('answers 404 without a session', async () => {
    expect(await mailsFor()).toBe(404)
  })

  it('shows a member the mails sent to them, never another member’s nor a reset link', async () => {
    const ann = await addMember(t.db, { email: freshEmail('ann') })
    const bob = await addMember(t.db, { email: freshEmail('bob') })
    const annCookie = await login(app, ann.email, TEST_PASSWORD)
    const bobCookie = await login(app, bob.email, TEST_PASSWORD)
    // Ann asks for a mail change (mailed to both addresses) and a reset; Bob a reset.
    const change = await send(app, '/api/mail_change.php', {
      method: 'POST',
      cookie: annCookie,
      body: { password: TEST_PASSWORD, email: freshEmail('ann-new') },
    })
    expect(change.status).toBe(200)
    for (const email of [ann.email, bob.email]) {
      await send(app, '/api/reset_password.php', {
        method: 'POST',
        body: { email },
        headers: ip(++client),
      })
    }
    await mailer.idle()
    const annMails = await mailsFor(annCookie)
    expect(Array.isArray(annMails) && annMails.map((m) => m.kind).sort()).toEqual([
      'mail_change_confirm',
      'mail_change_notice',
    ])
    expect(await mailsFor(bobCookie)).toEqual([])
  })
})
