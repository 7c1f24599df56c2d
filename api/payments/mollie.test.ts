// The Mollie adapter through Mollie's own SDK, against a local HTTPS fake of
// the Mollie REST API (api/test/mollie-fake.ts): what the SDK sends (amount
// strings, metadata, sequence types, mandates) and what the orders make of
// Mollie's answers, on both databases.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Api, createApi } from '../app.ts'
import { OrderResponse, Transaction } from '../contract/index.ts'
import { balanceOf, ledgerSum } from '../credits/ledger.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { type MollieFake, startMollieFake } from '../test/mollie-fake.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { mollieProvider } from './mollie.ts'

const POPULAR_TOTAL = 275 // 250 credits + 25 bonus, pinned

// The fake's certificate is self-signed: this test process only.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'

describeEngines('the Mollie adapter on %s', (engine) => {
  let database: TestDatabase
  let fake: MollieFake
  let app: Api

  beforeAll(async () => {
    database = await freshDatabase(engine)
    fake = await startMollieFake()
    app = createApi({
      db: database.db,
      payments: mollieProvider({ apiKey: fake.apiKey, apiEndpoint: fake.endpoint }),
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
  })
  afterAll(async () => {
    await fake?.close()
    await database?.close()
  })

  const buyer = async (country = 'NL') => {
    const m = await addMember(database.db, { country })
    return { m, cookie: await login(app, m.email, TEST_PASSWORD) }
  }
  const order = async (cookie: string, body: Record<string, unknown>, query = '') => {
    const res = await send(app, `/api/orders.php${query}`, {
      method: 'POST',
      body: { client_id: randomUUID(), withdrawal_consent: true, ...body },
      cookie,
    })
    expect(res.status).toBe(201)
    return OrderResponse.parse(await res.json())
  }
  const webhook = (id: string) =>
    send(app, '/api/payments/webhook.php', {
      method: 'POST',
      body: `id=${id}`,
      contentType: 'application/x-www-form-urlencoded',
      origin: null,
    })
  const paymentOf = (transaction: string) =>
    [...fake.payments.values()].find(
      (p) => (p.metadata as { order?: string } | null)?.order === transaction,
    )
  const status = async (id: string) =>
    Transaction.parse(await (await send(app, `/api/transactions.php?id=${id}`)).json())

  it('creates a first payment for a customer with the amount as Mollie writes it, and checks out at Mollie', async () => {
    const { cookie } = await buyer()
    const { transaction, checkout_url } = await order(cookie, {
      package: 'popular',
      method: 'ideal',
    })
    const p = paymentOf(transaction.id)
    expect(p).toMatchObject({
      amount: { currency: 'EUR', value: '19.95' },
      method: 'ideal',
      sequenceType: 'first',
      redirectUrl: `http://localhost/transactions/${transaction.id}`,
      webhookUrl: 'http://localhost/api/payments/webhook.php',
    })
    expect(p?.customerId).toMatch(/^cst_/)
    expect(checkout_url).toBe(p?._links.checkout?.href)
    expect(fake.calls).toContain('POST /v2/customers')
  })

  it('grants on the webhook once Mollie says paid, once however often it is delivered', async () => {
    const { m, cookie } = await buyer()
    const { transaction } = await order(cookie, { package: 'popular', method: 'ideal' })
    const id = paymentOf(transaction.id)?.id ?? ''
    expect((await webhook(id)).status).toBe(200)
    expect(await balanceOf(database.db, m.id)).toBe(0) // still open at Mollie
    fake.setStatus(id, 'paid')
    await Promise.all(Array.from({ length: 10 }, () => webhook(id)))
    expect(await balanceOf(database.db, m.id)).toBe(POPULAR_TOTAL)
    expect(await ledgerSum(database.db, m.id)).toBe(POPULAR_TOTAL)
    expect(fake.calls).toContain(`GET /v2/payments/${id}`)
  })

  it('an expired payment grants nothing', async () => {
    const { m, cookie } = await buyer()
    const { transaction } = await order(cookie, { package: 'starter', method: 'creditcard' })
    const id = paymentOf(transaction.id)?.id ?? ''
    fake.setStatus(id, 'expired')
    await webhook(id)
    expect((await status(transaction.id)).status).toBe('expired')
    expect(await balanceOf(database.db, m.id)).toBe(0)
  })

  it('repeat order charges the mandate with a recurring payment, no checkout', async () => {
    const { m, cookie } = await buyer()
    const first = await order(cookie, { package: 'starter', method: 'ideal' })
    const firstId = paymentOf(first.transaction.id)?.id ?? ''
    fake.setStatus(firstId, 'paid')
    await webhook(firstId)
    const again = await order(cookie, {}, '?repeat=1')
    expect(again.checkout_url).toBeNull()
    const p = paymentOf(again.transaction.id)
    expect(p).toMatchObject({ sequenceType: 'recurring', status: 'pending' })
    expect(p?.mandateId).toMatch(/^mdt_/)
    fake.setStatus(p?.id ?? '', 'paid')
    await webhook(p?.id ?? '')
    expect(await balanceOf(database.db, m.id)).toBe(200)
  })

  it('a refund at Mollie takes the credits back through the ledger', async () => {
    const { m, cookie } = await buyer()
    const { transaction } = await order(cookie, { package: 'starter', method: 'ideal' })
    const id = paymentOf(transaction.id)?.id ?? ''
    fake.setStatus(id, 'paid')
    await webhook(id)
    fake.refund(id, 995)
    await webhook(id)
    expect(await balanceOf(database.db, m.id)).toBe(0)
    expect(await ledgerSum(database.db, m.id)).toBe(0)
    expect((await status(transaction.id)).status).toBe('refunded')
  })

  it('a webhook for a payment Mollie does not know is answered 200 and does nothing', async () => {
    expect((await webhook('tr_doesnotexist')).status).toBe(200)
  })

  it('Mollie refusing the call is a 503 for the order, and the order is marked failed', async () => {
    const broken = createApi({
      db: database.db,
      payments: mollieProvider({
        apiKey: 'test_wrongwrongwrongwrongwrongwrong',
        apiEndpoint: fake.endpoint,
      }),
      accounts: {
        mailer: createMailer({ devListing: true }),
        trustProxy: false,
        publicUrl: undefined,
      },
    })
    const m = await addMember(database.db, { country: 'GB' })
    const cookie = await login(broken, m.email, TEST_PASSWORD)
    const res = await broken.request('http://localhost/api/orders.php', {
      method: 'POST',
      headers: {
        host: 'localhost',
        origin: 'http://localhost',
        cookie,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        package: 'starter',
        method: 'paypal',
        client_id: randomUUID(),
        withdrawal_consent: true,
      }),
    })
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: string }).error).toBe('payment_provider_unavailable')
  })
})
