// The built-in test wallet, on both databases: on a demo start (or with
// AGE_TEST_WALLET=on) the test issuer is trusted and the member's own check
// can be answered from the site's test wallet page, "Present: over 18"
// marking them age-assured through the real OpenID4VP flow and "Decline"
// leaving them unverified; on a production start (DEMO_SEED=off, no switch)
// the page does not exist and nothing is trusted but the configured anchors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { ageTestWalletOn } from '../config.ts'
import { AgeRequestState, AgeStartResponse, AgeStatus } from '../contract/index.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { ageFromEnv } from './config.ts'
import { testIssuer } from './testing/wallet.ts'

describe('the test wallet switch', () => {
  it('is on on a demo start or with AGE_TEST_WALLET=on, off in production or with AGE_TEST_WALLET=off', () => {
    expect(ageTestWalletOn({})).toBe(true)
    expect(ageTestWalletOn({ DEMO_SEED: 'on' })).toBe(true)
    expect(ageTestWalletOn({ DEMO_SEED: 'off' })).toBe(false)
    expect(ageTestWalletOn({ DEMO_SEED: 'off', AGE_TEST_WALLET: '' })).toBe(false)
    expect(ageTestWalletOn({ DEMO_SEED: 'off', AGE_TEST_WALLET: 'on' })).toBe(true)
    expect(ageTestWalletOn({ DEMO_SEED: 'on', AGE_TEST_WALLET: 'off' })).toBe(false)
    expect(() => ageTestWalletOn({ AGE_TEST_WALLET: 'yes' })).toThrow()
  })
})

describeEngines('the built-in test wallet on %s', (engine) => {
  let t: TestDatabase
  let demo: Api
  let production: Api
  let productionWithAnchor: Api
  const accounts = { mailer: createMailer({ devListing: true }), trustProxy: false }

  beforeAll(async () => {
    t = await freshDatabase(engine)
    demo = createApi({ db: t.db, accounts, age: ageFromEnv(t.db, { DEMO_SEED: 'on' }) })
    production = createApi({ db: t.db, accounts, age: ageFromEnv(t.db, { DEMO_SEED: 'off' }) })
    const other = await testIssuer('Configured Issuer')
    productionWithAnchor = createApi({
      db: t.db,
      accounts,
      age: ageFromEnv(t.db, { DEMO_SEED: 'off', AGE_TRUST_ANCHORS: other.anchorPem }),
    })
  })
  afterAll(async () => {
    await t?.close()
  })

  async function member(app: Api) {
    const m = await addMember(t.db)
    return { id: m.id, cookie: await login(app, m.email, TEST_PASSWORD) }
  }
  const start = (app: Api, cookie: string) =>
    send(app, '/api/age_assurance.php', { method: 'POST', body: { provider: 'eu-av' }, cookie })
  const started = async (app: Api, cookie: string) => {
    const res = await start(app, cookie)
    expect(res.status).toBe(201)
    return AgeStartResponse.parse(await res.json())
  }
  const press = (
    app: Api,
    cookie: string | undefined,
    form: Record<string, string>,
    origin?: string | null,
  ) =>
    send(app, '/api/age_test_wallet.php', {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      contentType: 'application/x-www-form-urlencoded',
      cookie,
      ...(origin === undefined ? {} : { origin }),
    })
  const status = async (app: Api, cookie: string) =>
    AgeStatus.parse(await (await send(app, '/api/age_assurance.php', { cookie })).json())
  const stateOf = async (app: Api, cookie: string, request: string) =>
    AgeRequestState.parse(
      await (await send(app, `/api/age_request.php?request=${request}`, { cookie })).json(),
    ).state

  it('production: no test wallet page, and without configured anchors nothing is trusted (no check can start)', async () => {
    const m = await member(production)
    expect(
      (await send(production, '/api/age_test_wallet.php?request=x', { cookie: m.cookie })).status,
    ).toBe(404)
    expect((await press(production, m.cookie, { request: 'x', action: 'present' })).status).toBe(
      404,
    )
    // The test issuer is no anchor: with none configured the provider is unavailable.
    const res = await start(production, m.cookie)
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ error: 'age_provider_unavailable' })
  })

  it('production with a configured issuer: checks start, but offer no test wallet and its page stays 404', async () => {
    const m = await member(productionWithAnchor)
    const s = await started(productionWithAnchor, m.cookie)
    expect(s.test_wallet).toBeNull()
    const page = await send(productionWithAnchor, `/api/age_test_wallet.php?request=${s.request}`, {
      cookie: m.cookie,
    })
    expect(page.status).toBe(404)
    expect(
      (await press(productionWithAnchor, m.cookie, { request: s.request, action: 'present' }))
        .status,
    ).toBe(404)
    expect(await stateOf(productionWithAnchor, m.cookie, s.request)).toBe('pending')
    expect((await status(productionWithAnchor, m.cookie)).assured).toBe(false)
  })

  it('demo: the page is marked as a test, and "Present: over 18" passes the check the way a wallet does', async () => {
    const m = await member(demo)
    expect((await status(demo, m.cookie)).assured).toBe(false)
    const s = await started(demo, m.cookie)
    expect(s.test_wallet).toBe(`/api/age_test_wallet.php?request=${s.request}`)

    const page = await send(demo, `${s.test_wallet}&next=%2Fmembers%2F7%2Fchat`, {
      cookie: m.cookie,
    })
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('TEST WALLET: not a real proof of age.')
    expect(text).toContain('>Present: over 18</button>')
    expect(text).toContain('>Decline</button>')
    expect(text).toContain('name="next" value="/members/7/chat"')

    const res = await press(demo, m.cookie, {
      request: s.request,
      next: '/members/7/chat',
      action: 'present',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/age?next=%2Fmembers%2F7%2Fchat')
    expect(await stateOf(demo, m.cookie, s.request)).toBe('passed')
    const after = await status(demo, m.cookie)
    expect(after.assured).toBe(true)
    expect(after.provider).toBe('eu-av')

    // Answered: pressing again changes nothing and says so.
    const again = await press(demo, m.cookie, { request: s.request, action: 'present' })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('This request was answered: your age is confirmed.')
  })

  it('demo: "Decline" closes the request and leaves the member unverified, with a clear message', async () => {
    const m = await member(demo)
    const s = await started(demo, m.cookie)
    const res = await press(demo, m.cookie, { request: s.request, action: 'decline' })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(
      'You declined: no proof of age was shared, and your age is not confirmed.',
    )
    expect(await stateOf(demo, m.cookie, s.request)).toBe('refused')
    expect((await status(demo, m.cookie)).assured).toBe(false)
  })

  it("demo: only the member's own request, only signed in, only from the site's own page", async () => {
    const owner = await member(demo)
    const other = await member(demo)
    const s = await started(demo, owner.cookie)
    const path = `/api/age_test_wallet.php?request=${s.request}`
    expect((await send(demo, path, { cookie: other.cookie })).status).toBe(404)
    expect((await send(demo, path)).status).toBe(404)
    expect(
      (await press(demo, other.cookie, { request: s.request, action: 'present' })).status,
    ).toBe(404)
    expect((await press(demo, undefined, { request: s.request, action: 'present' })).status).toBe(
      404,
    )
    expect(
      (
        await press(
          demo,
          owner.cookie,
          { request: s.request, action: 'present' },
          'https://evil.example',
        )
      ).status,
    ).toBe(403)
    expect((await press(demo, owner.cookie, { request: s.request, action: 'pay' })).status).toBe(
      400,
    )
    expect(await stateOf(demo, owner.cookie, s.request)).toBe('pending')
    expect((await status(demo, owner.cookie)).assured).toBe(false)
    expect((await status(demo, other.cookie)).assured).toBe(false)
  })
})
