// Who may read stored mails at GET /api/_dev/mail.php (api/mail/routes.ts):
// everyone only on a development configuration; elsewhere a member their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../app.ts'
import { loadAccountsConfig } from '../config.ts'
import { DevMailResponse } from '../contract/index.ts'
import { freshEmail, ip } from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { createMailer } from './mailer.ts'

describe('the full developer listing', () => {
  it('is on only for a development configuration with the demo on', () => {
    expect(loadAccountsConfig({}).devMail).toBe(true)
    expect(loadAccountsConfig({ DEMO_SEED: 'on', NODE_ENV: 'development' }).devMail).toBe(true)
  })

  it.each([
    [{ DEMO_SEED: 'off' }],
    [{ DEMO_SEED: 'off', DEV_MAIL: 'on' }],
    [{ NODE_ENV: 'production' }],
    [{ NODE_ENV: 'production', DEV_MAIL: 'on', DEMO_SEED: 'on' }],
    [{ DEV_MAIL: 'off' }],
    [{ SMTP_URL: 'smtp://127.0.0.1:25' }],
  ])('is off for %j', (env) => {
    expect(loadAccountsConfig(env).devMail).toBe(false)
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
