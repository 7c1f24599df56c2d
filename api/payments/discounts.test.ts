// A discount code's uses on both databases: an order reserves a use of its
// code in the transaction of the order row (so max_uses holds when orders
// race), the reservation is given back exactly once when the payment fails,
// is canceled or expires, a paid order keeps it (also when refunded later),
// settling never counts it again, and replaying an order reserves nothing.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { discountCodes, localPayments, orders } from '../../db/schema/index.ts'
import type { Api } from '../app.ts'
import { DiscountResponse, OrderResponse } from '../contract/index.ts'
import { balanceOf } from '../credits/ledger.ts'
import { ApiFailure } from '../http/errors.ts'
import { describeEngines, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { checkoutId, type PaymentsApp, paymentsApp } from '../test/payments-app.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import type { LocalProvider } from './local.ts'
import { createOrder, PAYMENT_CHECK } from './orders.ts'
import { paymentJobs } from './settle.ts'

const POPULAR = { credits: 250, bonus: 25 }
const WELCOME_BONUS = 50 // percent of the package's credits

describeEngines('discount code uses on %s', (engine) => {
  let payments: PaymentsApp
  let database: TestDatabase
  let app: Api
  let local: LocalProvider
  let webhook: PaymentsApp['webhook']

  beforeAll(async () => {
    payments = await paymentsApp(engine)
    ;({ database, app, local, webhook } = payments)
  })
  afterAll(() => payments?.close())

  const member = async () => {
    const m = await addMember(database.db, { country: 'NL' })
    return { m, cookie: await login(app, m.email, TEST_PASSWORD) }
  }
  const order = (cookie: string, code: string, clientId = randomUUID()) =>
    send(app, '/api/orders.php', {
      method: 'POST',
      body: {
        package: 'popular',
        method: 'ideal',
        discount_code: code,
        client_id: clientId,
        withdrawal_consent: true,
      },
      cookie,
    })
  const created = async (res: Response) => {
    expect(res.status).toBe(201)
    return OrderResponse.parse(await res.json())
  }
  /** The provider's word on a payment, then its webhook (once, as Mollie does). */
  const providerSays = async (id: string, status: 'paid' | 'failed' | 'canceled' | 'expired') => {
    await database.db.update(localPayments).set({ status }).where(eq(localPayments.id, id))
    expect((await webhook(id)).status).toBe(200)
  }
  const uses = async (code: string) => {
    const [row] = await database.db
      .select({ uses: discountCodes.uses })
      .from(discountCodes)
      .where(eq(discountCodes.code, code))
    return row?.uses
  }
  const expectUsedUp = async (res: Response) => {
    const body = (await res.json()) as { error: string; field?: string }
    expect({ status: res.status, error: body.error, field: body.field }).toEqual({
      status: 409,
      error: 'discount_used_up',
      field: 'discount_code',
    })
  }
  const ordersWith = (code: string) =>
    database.db.select().from(orders).where(eq(orders.discountCode, code))
  /** A shared code with bonus credits and a use limit. */
  const bonusCode = async (maxUses: number) => {
    const code = `BONUS${randomUUID().slice(0, 8).toUpperCase()}`
    await database.db
      .insert(discountCodes)
      .values({ code, kind: 'normal', bonusPercent: 20, maxUses })
    return code
  }

  it('the welcome code (max_uses 1): two orders at once make one, a third 409, paying adds the bonus once', async () => {
    const { m, cookie } = await member()
    const welcome = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?welcome=true', { cookie })).json(),
    )
    const code = welcome.discount?.code ?? ''
    expect(code).not.toBe('')
    const answers = await Promise.all([order(cookie, code), order(cookie, code)])
    const ok = answers.filter((r) => r.status === 201)
    const refused = answers.filter((r) => r.status !== 201)
    expect(ok).toHaveLength(1)
    expect(refused).toHaveLength(1)
    await expectUsedUp(refused[0] as Response)
    await expectUsedUp(await order(cookie, code))
    expect(await ordersWith(code)).toHaveLength(1)
    expect(await uses(code)).toBe(1)

    const { transaction: t, checkout_url } = await created(ok[0] as Response)
    const expected = POPULAR.credits + POPULAR.bonus + (POPULAR.credits * WELCOME_BONUS) / 100
    expect(t.credits).toBe(expected)
    const id = checkoutId(checkout_url)
    await providerSays(id, 'paid')
    for (let i = 0; i < 3; i++) await webhook(id)
    expect(await balanceOf(database.db, m.id)).toBe(expected)
    expect(await uses(code)).toBe(1)
  })

  it('a shared code of max_uses 2 ordered by 6 members at once makes exactly 2 orders', async () => {
    const code = await bonusCode(2)
    const buyers = await Promise.all(Array.from({ length: 6 }, () => member()))
    const answers = await Promise.all(buyers.map((b) => order(b.cookie, code)))
    expect(answers.filter((r) => r.status === 201)).toHaveLength(2)
    for (const r of answers.filter((a) => a.status !== 201)) await expectUsedUp(r)
    expect(await ordersWith(code)).toHaveLength(2)
    expect(await uses(code)).toBe(2)
  })

  it('a failed, canceled or expired payment gives the use back, so a new order can take it', async () => {
    const { cookie } = await member()
    const code = await bonusCode(1)
    for (const status of ['failed', 'canceled', 'expired'] as const) {
      const { checkout_url } = await created(await order(cookie, code))
      expect(await uses(code)).toBe(1)
      await expectUsedUp(await order(cookie, code))
      await providerSays(checkoutId(checkout_url), status)
      expect(await uses(code)).toBe(0)
    }
    // And the use is taken for good by the order that is paid.
    const { checkout_url } = await created(await order(cookie, code))
    await providerSays(checkoutId(checkout_url), 'paid')
    expect(await uses(code)).toBe(1)
    await expectUsedUp(await order(cookie, code))
  })

  it('repeated failure webhooks and the reconcile job give a use back once', async () => {
    const { cookie } = await member()
    const code = await bonusCode(2)
    const first = await created(await order(cookie, code))
    await created(await order(cookie, code))
    expect(await uses(code)).toBe(2)
    const id = checkoutId(first.checkout_url)
    await providerSays(id, 'failed')
    expect(await uses(code)).toBe(1)
    const again = await Promise.all(Array.from({ length: 10 }, () => webhook(id)))
    expect(again.every((r) => r.status === 200)).toBe(true)
    for (let i = 0; i < 3; i++) await webhook(id)
    const handlers = paymentJobs(database.db, () => ({ provider: local, base: 'http://localhost' }))
    await handlers[PAYMENT_CHECK]({ order: first.transaction.id })
    // The second order still holds its use.
    expect(await uses(code)).toBe(1)
  })

  it('an order that never reached the provider expires by the reconcile job and gives its use back once', async () => {
    const { cookie } = await member()
    const code = await bonusCode(1)
    const { transaction: t } = await created(await order(cookie, code))
    expect(await uses(code)).toBe(1)
    // A crash between our insert and the provider's answer: no payment id stored.
    await database.db.update(orders).set({ paymentId: null }).where(eq(orders.publicId, t.id))
    const handlers = paymentJobs(database.db, () => ({ provider: local, base: 'http://localhost' }))
    await handlers[PAYMENT_CHECK]({ order: t.id })
    await handlers[PAYMENT_CHECK]({ order: t.id })
    const [row] = await database.db.select().from(orders).where(eq(orders.publicId, t.id))
    expect(row?.status).toBe('expired')
    expect(await uses(code)).toBe(0)
  })

  it('a provider that fails the order gives the use back (503, the order failed)', async () => {
    const { m } = await member()
    const code = await bonusCode(1)
    const down = {
      ...local,
      createPayment: () => Promise.reject(new Error('provider down')),
    }
    const input = { package: 'popular', method: 'ideal' as const, discountCode: code }
    const failed = await createOrder(
      database.db,
      { provider: down, base: 'http://localhost' },
      m.id,
      {
        ...input,
        clientId: randomUUID(),
      },
    ).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(ApiFailure)
    expect((failed as ApiFailure).status).toBe(503)
    expect((await ordersWith(code)).map((o) => o.status)).toEqual(['failed'])
    expect(await uses(code)).toBe(0)
    const ok = await createOrder(database.db, { provider: local, base: 'http://localhost' }, m.id, {
      ...input,
      clientId: randomUUID(),
    })
    expect(ok.created).toBe(true)
    expect(await uses(code)).toBe(1)
  })

  it('replaying an order (same client id, at once or later) reserves no second use', async () => {
    const { cookie } = await member()
    const code = await bonusCode(5)
    const clientId = randomUUID()
    const first = await Promise.all(Array.from({ length: 5 }, () => order(cookie, code, clientId)))
    expect(first.filter((r) => r.status === 201)).toHaveLength(1)
    expect(first.every((r) => [200, 201, 409].includes(r.status))).toBe(true)
    const replay = await order(cookie, code, clientId)
    expect(replay.status).toBe(200)
    expect(await ordersWith(code)).toHaveLength(1)
    expect(await uses(code)).toBe(1)
  })

  it('a paid order that is refunded keeps its use', async () => {
    const { m, cookie } = await member()
    const code = await bonusCode(1)
    const { transaction: t, checkout_url } = await created(await order(cookie, code))
    const id = checkoutId(checkout_url)
    await providerSays(id, 'paid')
    await local.reverse(id, 'refund', t.amount)
    await webhook(id)
    const [row] = await database.db.select().from(orders).where(eq(orders.publicId, t.id))
    expect(row?.status).toBe('refunded')
    expect(await balanceOf(database.db, m.id)).toBe(0)
    expect(await uses(code)).toBe(1)
    await expectUsedUp(await order(cookie, code))
  })

  it('a payment paid after its order was closed takes the use again and grants once', async () => {
    const { m, cookie } = await member()
    const code = await bonusCode(2)
    const { transaction: t, checkout_url } = await created(await order(cookie, code))
    const id = checkoutId(checkout_url)
    await providerSays(id, 'failed')
    expect(await uses(code)).toBe(0)
    // The provider changes its mind (a payment our side gave up on that was paid after all).
    await providerSays(id, 'paid')
    await webhook(id)
    expect(await balanceOf(database.db, m.id)).toBe(t.credits)
    expect(await uses(code)).toBe(1)
  })
})
