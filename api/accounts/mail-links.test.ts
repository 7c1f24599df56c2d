// Reset-link poisoning: a mailed link goes only to a site address
// (PUBLIC_URL, or the request's host when it is one of SITE_HOSTS, loopback
// in development). A request to any other Host gets the usual answer and no
// mail, so a link with a token never points at a host an attacker named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../app.ts'
import { createMailer } from '../mail/mailer.ts'
import {
  type AccountsApi,
  accountsApi,
  freshEmail,
  ip,
  mailsTo,
  signUp,
  signupBody,
} from '../test/accounts.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { addMember } from '../test/seed.ts'

describeEngines('links in mails on %s', (engine) => {
  let t: TestDatabase
  let client = 0

  beforeAll(async () => {
    t = await freshDatabase(engine)
  })
  afterAll(() => t.close())

  const askReset = (
    api: AccountsApi,
    email: string,
    base: string,
    headers = {},
    origin: string | undefined = undefined,
  ) =>
    send(api.app, '/api/reset_password.php', {
      method: 'POST',
      body: { email },
      base,
      origin,
      headers: { ...ip(++client), ...headers },
    })
  const linksTo = async (email: string) =>
    (await mailsTo(t.db, email)).flatMap((m) =>
      [...m.text.matchAll(/https?:\/\/[^\s<>"/]+/g)].map((x) => x[0]),
    )

  describe('without PUBLIC_URL or SITE_HOSTS (development)', () => {
    let api: AccountsApi
    beforeAll(() => {
      api = accountsApi(t.db)
    })
    afterAll(() => api.mailer.idle())

    it('mails a reset for a loopback host, with its link', async () => {
      const member = await addMember(t.db, { email: freshEmail('dev') })
      const res = await askReset(api, member.email, 'http://localhost:3000')
      expect(await res.json()).toEqual({ status: 'sent' })
      expect(await linksTo(member.email)).toEqual(['http://localhost:3000'])
    })

    it('answers a reset for a foreign Host the same, and mails nothing', async () => {
      const member = await addMember(t.db, { email: freshEmail('poison') })
      const res = await askReset(api, member.email, 'http://evil.example')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'sent' })
      await api.mailer.idle()
      expect(await mailsTo(t.db, member.email)).toEqual([])
    })

    it('signs up on a foreign Host without mailing a link', async () => {
      const body = signupBody()
      const { res } = await signUp(api.app, body, {
        base: 'http://evil.example',
        headers: ip(++client),
      })
      expect(await res.json()).toEqual({ status: 'received' })
      expect(await mailsTo(t.db, body.email)).toEqual([])
    })
  })

  describe('with SITE_HOSTS', () => {
    let api: AccountsApi
    beforeAll(() => {
      api = accountsApi(t.db, { siteHosts: ['amora.example', 'www.amora.example'] })
    })
    afterAll(() => api.mailer.idle())

    it('links to the listed host the request came to', async () => {
      const member = await addMember(t.db, { email: freshEmail('site') })
      await askReset(api, member.email, 'https://www.amora.example')
      expect(await linksTo(member.email)).toEqual(['https://www.amora.example'])
    })

    it('mails nothing for a host not listed, loopback included', async () => {
      for (const base of [
        'https://evil.example',
        'http://localhost',
        'https://amora.example:8443',
      ]) {
        const member = await addMember(t.db, { email: freshEmail('unlisted') })
        const res = await askReset(api, member.email, base)
        expect(await res.json()).toEqual({ status: 'sent' })
        expect(await mailsTo(t.db, member.email), base).toEqual([])
      }
    })

    it('takes X-Forwarded-Host only behind a trusted proxy', async () => {
      // accountsApi trusts the proxy: the forwarded host decides.
      const viaProxy = await addMember(t.db, { email: freshEmail('proxy') })
      await askReset(
        api,
        viaProxy.email,
        'http://10.0.0.2',
        { 'x-forwarded-host': 'amora.example', 'x-forwarded-proto': 'https' },
        'https://amora.example',
      )
      expect(await linksTo(viaProxy.email)).toEqual(['https://amora.example'])
      // Without TRUST_PROXY the header is the client's to forge and is ignored.
      const mailer = createMailer({ devListing: true })
      const direct = createApi({
        db: t.db,
        accounts: { mailer, trustProxy: false, siteHosts: ['amora.example'] },
      })
      const forged = await addMember(t.db, { email: freshEmail('forged') })
      await send(direct, '/api/reset_password.php', {
        method: 'POST',
        body: { email: forged.email },
        base: 'https://evil.example',
        headers: { 'x-forwarded-host': 'amora.example' },
      })
      await mailer.idle()
      expect(await mailsTo(t.db, forged.email)).toEqual([])
    })
  })

  describe('with PUBLIC_URL', () => {
    it('links to PUBLIC_URL whatever the Host', async () => {
      const api = accountsApi(t.db, { publicUrl: 'https://amora.example' })
      const member = await addMember(t.db, { email: freshEmail('public') })
      await askReset(api, member.email, 'http://evil.example')
      await api.mailer.idle()
      expect(await linksTo(member.email)).toEqual(['https://amora.example'])
    })
  })
})
