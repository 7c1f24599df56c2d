// Who takes the money (api/config.ts loadPaymentsConfig): Mollie with a key;
// the built-in test provider only when asked for (PAYMENTS=test) or on a demo
// start; a production start without a key takes no orders at all. The audit's
// finding: with DEMO_SEED=off and no key the test provider stayed live and its
// checkout granted credits to anyone.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '../../db/schema/index.ts'
import { type Api, createApi, paymentsFromEnv } from '../app.ts'
import { loadPaymentsConfig, paymentsBanner } from '../config.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'

describe('payments configuration', () => {
  it('a production start without a key has no provider: never the test provider', () => {
    expect(loadPaymentsConfig({ DEMO_SEED: 'off' })).toEqual({ kind: 'off' })
    expect(paymentsBanner({ kind: 'off' })).toContain('buying credits is unavailable')
  })

  it('the test provider only when asked for: PAYMENTS=test, or a demo start', () => {
    expect(loadPaymentsConfig({ DEMO_SEED: 'off', PAYMENTS: 'test' })).toEqual({ kind: 'test' })
    expect(loadPaymentsConfig({})).toEqual({ kind: 'test' })
    expect(loadPaymentsConfig({ DEMO_SEED: 'on' })).toEqual({ kind: 'test' })
    expect(paymentsBanner({ kind: 'test' })).toMatch(/WARNING .*TEST provider/)
  })

  it('Mollie with a key, whatever the demo setting; PAYMENTS=mollie without a key refuses to start', () => {
    for (const DEMO_SEED of ['on', 'off'])
      expect(loadPaymentsConfig({ DEMO_SEED, MOLLIE_API_KEY: 'test_abc' })).toEqual({
        kind: 'mollie',
        apiKey: 'test_abc',
        apiEndpoint: undefined,
      })
    expect(() => loadPaymentsConfig({ PAYMENTS: 'mollie' })).toThrow(/MOLLIE_API_KEY/)
    expect(loadPaymentsConfig({ PAYMENTS: 'off', MOLLIE_API_KEY: 'test_abc' })).toEqual({
      kind: 'off',
    })
  })
})

describeEngines('no payment provider on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let cookie: string
  let memberId: number

  beforeAll(async () => {
    t = await freshDatabase(engine)
    const payments = paymentsFromEnv(t.db, { DEMO_SEED: 'off' })
    expect(payments.name).toBe('none')
    app = createApi({ db: t.db, payments })
    const m = await addMember(t.db, { country: 'NL' })
    memberId = m.id
    cookie = await login(app, m.email, TEST_PASSWORD)
  })
  afterAll(() => t.close())

  it('an order answers 503 payments_unavailable and stores nothing', async () => {
    const res = await app.request('http://localhost/api/orders.php', {
      method: 'POST',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ package: 'popular', method: 'ideal', client_id: randomUUID() }),
    })
    expect(res.status).toBe(503)
    expect((await res.json()).error).toBe('payments_unavailable')
    expect(await t.db.select().from(orders).where(eq(orders.memberId, memberId))).toEqual([])
  })

  it('has no test checkout to press', async () => {
    const res = await send(app, '/api/payments/checkout.php', {
      method: 'POST',
      body: 'id=tr_x&action=paid',
      contentType: 'application/x-www-form-urlencoded',
      cookie,
    })
    expect(res.status).toBe(404)
  })

  it('still shows the packages and their prices (prices are public before sign-up)', async () => {
    const res = await send(app, '/api/packages.php', { cookie })
    expect(res.status).toBe(200)
  })
})
