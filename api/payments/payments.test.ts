// Buying credits on both databases, through the built-in local provider:
// packages per country, every order error, idempotent orders, credits granted
// only on the provider's word and exactly once (webhook replays, 200
// concurrent deliveries), failed and canceled payments grant nothing, refunds
// never make a balance negative, repeat orders on a mandate, discount codes.
// The ledger's rules as a property: api/credits/ledger.property.test.ts; 1,000
// distinct payments delivered twice at once: bench/payments.ts.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  discountCodes,
  localPayments,
  mails,
  members,
  orders,
  siteSettings,
} from '../../db/schema/index.ts'
import type { Api } from '../app.ts'
import {
  CreditHistoryResponse,
  CreditsResponse,
  DiscountResponse,
  OrderResponse,
  PackagesResponse,
  Transaction,
} from '../contract/index.ts'
import { balanceOf, debit, ledgerSum } from '../credits/ledger.ts'
import { describeEngines, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { checkoutId, type PaymentsApp, paymentsApp } from '../test/payments-app.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'
import type { LocalProvider } from './local.ts'
import { PAYMENT_CHECK } from './orders.ts'
import { paymentJobs } from './settle.ts'

/** The seeded packages (credits + bonus) and their euro and złoty prices, pinned. */
const POPULAR = { credits: 250, bonus: 25, eur: 1995, pln: 8999 }
const STARTER = { credits: 100, bonus: 0, eur: 995 }
const WELCOME_BONUS = 50 // percent of the package's credits

describeEngines('payments on %s', (engine) => {
  let database: TestDatabase
  let app: Api
  let local: LocalProvider
  let nl: MemberRow
  let cookie: string

  let payments: PaymentsApp
  let webhook: PaymentsApp['webhook']

  beforeAll(async () => {
    payments = await paymentsApp(engine)
    ;({ database, app, local, webhook } = payments)
    nl = await addMember(database.db, { name: 'Noor', country: 'NL', language: 'nl' })
    cookie = await login(app, nl.email, TEST_PASSWORD)
  })
  afterAll(() => payments?.close())

  const member = async (country: string) => {
    const m = await addMember(database.db, { country })
    return { m, cookie: await login(app, m.email, TEST_PASSWORD) }
  }
  /** The checkout's consent (CRD Art. 16(m)) goes with every order the tests place. */
  const order = (c: string, body: unknown, query = '') =>
    send(app, `/api/orders.php${query}`, {
      method: 'POST',
      body:
        body && typeof body === 'object' && !Array.isArray(body)
          ? { withdrawal_consent: true, ...body }
          : body,
      cookie: c,
    })
  const orderOk = async (c: string, body: Record<string, unknown>) => {
    const res = await order(c, { client_id: randomUUID(), ...body })
    expect(res.status).toBe(201)
    return OrderResponse.parse(await res.json())
  }
  /** Paid at the provider without the webhook telling us (yet). */
  const markPaid = (id: string) =>
    database.db.update(localPayments).set({ status: 'paid' }).where(eq(localPayments.id, id))
  /** A button of the test checkout, pressed on its page by the member who ordered. */
  const press = (id: string, action: string, c: string, headers: Record<string, string> = {}) =>
    send(app, '/api/payments/checkout.php', {
      method: 'POST',
      body: new URLSearchParams({ id, action }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      cookie: c,
      headers,
    })
  const transaction = async (id: string) => {
    const res = await send(app, `/api/transactions.php?id=${id}`)
    expect(res.status).toBe(200)
    return Transaction.parse(await res.json())
  }
  const expectError = async (res: Response, status: number, error: string, field?: string) => {
    const body = (await res.json()) as { error: string; field?: string }
    expect({ status: res.status, error: body.error, field: body.field }).toEqual({
      status,
      error,
      field,
    })
  }

  describe('packages', () => {
    it('prices packages in the member country currency with the price of a message', async () => {
      const res = await send(app, '/api/packages.php', { cookie })
      const body = PackagesResponse.parse(await res.json())
      expect(body.currency).toBe('EUR')
      expect(body.methods[0]).toBe('ideal')
      const popular = body.packages.find((p) => p.id === 'popular')
      expect(popular).toMatchObject({
        credits: POPULAR.credits,
        bonus: POPULAR.bonus,
        price: POPULAR.eur,
      })
      // 275 credits at 10 a message is 27.5 messages: 1995 / 27.5 = 72.5 cents, rounded down (credit-value.ts)
      expect(popular?.message_price).toBe(72)
    })

    it('prices them for a guest from the asked country: złoty and BLIK for Poland', async () => {
      const body = PackagesResponse.parse(
        await (await send(app, '/api/packages.php?country=PL')).json(),
      )
      expect(body.currency).toBe('PLN')
      expect(body.methods.slice(0, 2)).toEqual(['blik', 'przelewy24'])
      expect(body.packages.find((p) => p.id === 'popular')?.price).toBe(POPULAR.pln)
    })

    it('refuses a malformed country with 400 naming it', async () => {
      await expectError(
        await send(app, '/api/packages.php?country=nl1'),
        400,
        'invalid_input',
        'country',
      )
    })
  })

  describe('order errors', () => {
    it('needs a session', async () => {
      const res = await order('', { package: 'popular', method: 'ideal', client_id: randomUUID() })
      expect(res.status).toBe(403)
    })
    it('400 for an unknown package, naming it', async () => {
      const res = await order(cookie, { package: 'gold', method: 'ideal', client_id: randomUUID() })
      await expectError(res, 400, 'invalid_input', 'package')
    })
    it('400 for a method not offered in the member country (BLIK in the Netherlands)', async () => {
      const res = await order(cookie, {
        package: 'popular',
        method: 'blik',
        client_id: randomUUID(),
      })
      await expectError(res, 400, 'invalid_input', 'method')
    })
    it('400 for an unknown method and for a missing client id', async () => {
      await expectError(
        await order(cookie, { package: 'popular', method: 'cash', client_id: randomUUID() }),
        400,
        'invalid_input',
        'method',
      )
      await expectError(
        await order(cookie, { package: 'popular', method: 'ideal' }),
        400,
        'invalid_input',
        'client_id',
      )
    })
    it('404 for an unknown discount code', async () => {
      const res = await order(cookie, {
        package: 'popular',
        method: 'ideal',
        discount_code: 'NOPE',
        client_id: randomUUID(),
      })
      await expectError(res, 404, 'discount_not_found', 'discount_code')
    })
    it('410 for an ended code, 409 for a used-up one, 403 for someone else’s', async () => {
      const other = await addMember(database.db, { country: 'NL' })
      await database.db.insert(discountCodes).values([
        { code: 'OLD', kind: 'normal', percentOff: 10, endsAt: new Date(Date.now() - 1000) },
        { code: 'GONE', kind: 'normal', percentOff: 10, maxUses: 1, uses: 1 },
        { code: 'THEIRS', kind: 'normal', percentOff: 10, memberId: other.id },
      ])
      const with_ = (code: string) =>
        order(cookie, {
          package: 'popular',
          method: 'ideal',
          discount_code: code,
          client_id: randomUUID(),
        })
      await expectError(await with_('old'), 410, 'discount_expired', 'discount_code')
      await expectError(await with_('GONE'), 409, 'discount_used_up', 'discount_code')
      await expectError(await with_('THEIRS'), 403, 'discount_not_for_you', 'discount_code')
    })
    it('409 for a repeat order before any paid order', async () => {
      const { cookie: c } = await member('NL')
      await expectError(
        await order(c, { client_id: randomUUID() }, '?repeat=1'),
        409,
        'no_previous_order',
      )
    })
  })

  it('an order is idempotent on its client id: a replay answers the first answer, another body 422', async () => {
    const client_id = randomUUID()
    const first = await order(cookie, { package: 'starter', method: 'creditcard', client_id })
    expect(first.status).toBe(201)
    const again = await order(cookie, { package: 'starter', method: 'creditcard', client_id })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(await first.json())
    await expectError(
      await order(cookie, { package: 'popular', method: 'creditcard', client_id }),
      422,
      'client_id_reused',
      'client_id',
    )
    const count = await database.db.select().from(orders).where(eq(orders.clientId, client_id))
    expect(count).toHaveLength(1)
  })

  it('grants credits once, only on the provider word: return page and webhook replays add nothing', async () => {
    const { m, cookie: c } = await member('NL')
    const { transaction: t, checkout_url } = await orderOk(c, {
      package: 'popular',
      method: 'ideal',
    })
    expect(t).toMatchObject({
      status: 'pending',
      amount: POPULAR.eur,
      currency: 'EUR',
      credits_added: 0,
    })
    const page = await send(
      app,
      new URL(checkout_url ?? '').pathname + new URL(checkout_url ?? '').search,
      { cookie: c },
    )
    const checkoutHtml = await page.text()
    expect(checkoutHtml).toContain('TEST PAYMENT')
    // The site it pays, as a provider's page names the merchant: its mark and name, linked home.
    expect(checkoutHtml).toMatch(
      /<a class="test-page__site" href="\/">\s*<svg[\s\S]*<\/svg>\s*Amora\s*<\/a>/,
    )
    // Before paying: the return page shows pending and grants nothing.
    expect((await transaction(t.id)).status).toBe('pending')
    expect(await balanceOf(database.db, m.id)).toBe(0)
    const paid = await press(checkoutId(checkout_url), 'paid', c)
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(`http://localhost/transactions/${t.id}`)
    const total = POPULAR.credits + POPULAR.bonus
    expect(await transaction(t.id)).toMatchObject({ status: 'paid', credits_added: total })
    for (let i = 0; i < 10; i++) expect((await webhook(checkoutId(checkout_url))).status).toBe(200)
    await transaction(t.id)
    expect(await balanceOf(database.db, m.id)).toBe(total)
    expect(await ledgerSum(database.db, m.id)).toBe(total)
    const [me] = await database.db.select().from(members).where(eq(members.id, m.id))
    expect(me?.paidUser).toBe(true)
    const receipts = await database.db.select().from(mails).where(eq(mails.memberId, m.id))
    expect(receipts.filter((r) => r.kind === 'receipt')).toHaveLength(1)
  })

  it('the test checkout is the ordering member’s alone, pressed from the site’s own page', async () => {
    const { m, cookie: c } = await member('NL')
    const other = await member('NL')
    const { transaction: t, checkout_url } = await orderOk(c, {
      package: 'popular',
      method: 'ideal',
    })
    const id = checkoutId(checkout_url)
    const pagePath = new URL(checkout_url ?? '').pathname + new URL(checkout_url ?? '').search
    // The audit's finding: no cookie at all paid the order and granted its credits.
    const anonymous = await send(app, '/api/payments/checkout.php', {
      method: 'POST',
      body: new URLSearchParams({ id, action: 'paid' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      origin: null,
    })
    expect(anonymous.status).toBe(403)
    expect((await press(id, 'paid', '')).status, 'no session').toBe(404)
    expect((await press(id, 'paid', other.cookie)).status, 'another member').toBe(404)
    expect((await send(app, pagePath)).status, 'page without session').toBe(404)
    expect((await send(app, pagePath, { cookie: other.cookie })).status, 'page of another').toBe(
      404,
    )
    const crossSite = await press(id, 'paid', c, { 'sec-fetch-site': 'cross-site' })
    expect(crossSite.status).toBe(403)
    const noEvidence = await send(app, '/api/payments/checkout.php', {
      method: 'POST',
      body: new URLSearchParams({ id, action: 'paid' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      cookie: c,
      origin: null,
    })
    expect(noEvidence.status, 'a script without Origin').toBe(403)
    expect(await transaction(t.id)).toMatchObject({ status: 'pending', credits_added: 0 })
    expect(await balanceOf(database.db, m.id)).toBe(0)
    expect((await press(id, 'paid', c)).status).toBe(303)
    expect(await balanceOf(database.db, m.id)).toBe(POPULAR.credits + POPULAR.bonus)
  })

  it('a failed and a canceled payment grant nothing and say so', async () => {
    const { m, cookie: c } = await member('NL')
    for (const action of ['failed', 'canceled'] as const) {
      const { transaction: t, checkout_url } = await orderOk(c, {
        package: 'starter',
        method: 'ideal',
      })
      await press(checkoutId(checkout_url), action, c)
      await webhook(checkoutId(checkout_url))
      expect(await transaction(t.id)).toMatchObject({ status: action, credits_added: 0 })
    }
    expect(await balanceOf(database.db, m.id)).toBe(0)
    const [me] = await database.db.select().from(members).where(eq(members.id, m.id))
    expect(me?.paidUser).toBe(false)
  })

  it('the webhook: 400 without a payment id, 200 and nothing done for an unknown one', async () => {
    await expectError(
      await send(app, '/api/payments/webhook.php', {
        method: 'POST',
        body: 'foo=1',
        contentType: 'application/x-www-form-urlencoded',
      }),
      400,
      'invalid_input',
      'id',
    )
    expect((await webhook('tr_unknown123')).status).toBe(200)
  })

  it('the transaction page is 404 for an unknown id and 400 for a malformed one', async () => {
    await expectError(
      await send(app, `/api/transactions.php?id=${'x'.repeat(22)}`),
      404,
      'not_found',
    )
    await expectError(await send(app, '/api/transactions.php?id=1'), 400, 'invalid_input', 'id')
  })

  it('200 concurrent deliveries of the same paid payment grant once', async () => {
    const { m, cookie: c } = await member('NL')
    const { checkout_url } = await orderOk(c, { package: 'starter', method: 'ideal' })
    const id = checkoutId(checkout_url)
    // Paid at the provider without telling us: then the webhook storm.
    await markPaid(id)
    const answers = await Promise.all(Array.from({ length: 200 }, () => webhook(id)))
    expect(answers.every((r) => r.status === 200)).toBe(true)
    expect(await balanceOf(database.db, m.id)).toBe(STARTER.credits)
    expect(await ledgerSum(database.db, m.id)).toBe(STARTER.credits)
  })

  it('a lost webhook is caught by the reconcile job', async () => {
    const { m, cookie: c } = await member('NL')
    const { transaction: t, checkout_url } = await orderOk(c, {
      package: 'starter',
      method: 'ideal',
    })
    await markPaid(checkoutId(checkout_url))
    const handlers = paymentJobs(database.db, () => ({ provider: local, base: 'http://localhost' }))
    await handlers[PAYMENT_CHECK]({ order: t.id })
    expect(await balanceOf(database.db, m.id)).toBe(STARTER.credits)
    expect((await transaction(t.id)).status).toBe('paid')
  })

  it('a refund takes back only the unspent credits, never below zero; a chargeback marks the order', async () => {
    const { m, cookie: c } = await member('NL')
    const { transaction: t, checkout_url } = await orderOk(c, {
      package: 'starter',
      method: 'ideal',
    })
    const id = checkoutId(checkout_url)
    await press(id, 'paid', c)
    expect(await balanceOf(database.db, m.id)).toBe(100)
    // Spend 70 of the 100 credits.
    await database.db.transaction((tx) => debit(tx, m.id, 70, 'message', 'test'))
    await local.reverse(id, 'refund', STARTER.eur)
    expect(await balanceOf(database.db, m.id)).toBe(0)
    expect(await ledgerSum(database.db, m.id)).toBe(0)
    expect(await transaction(t.id)).toMatchObject({ status: 'refunded', credits_added: 0 })
    await webhook(id)
    expect(await balanceOf(database.db, m.id)).toBe(0)

    const second = await orderOk(c, { package: 'starter', method: 'ideal' })
    const id2 = checkoutId(second.checkout_url)
    await press(id2, 'paid', c)
    // 1.99 of 9.95 charged back: a fifth of the 100 credits goes.
    await local.reverse(id2, 'chargeback', 199)
    expect(await balanceOf(database.db, m.id)).toBe(80)
    expect((await transaction(second.transaction.id)).status).toBe('charged_back')
  })

  it('the welcome code adds 50 % credits to a first purchase, then is gone', async () => {
    const { m, cookie: c } = await member('NL')
    const got = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?welcome=true', { cookie: c })).json(),
    )
    expect(got.discount).toMatchObject({ kind: 'welcome', bonus_percent: WELCOME_BONUS })
    expect(got.discount?.ends_at).not.toBeNull()
    const active = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php', { cookie: c })).json(),
    )
    expect(active.discount?.code).toBe(got.discount?.code)
    const code = got.discount?.code ?? ''
    const { transaction: t, checkout_url } = await orderOk(c, {
      package: 'popular',
      method: 'ideal',
      discount_code: code.toLowerCase(),
    })
    const expected = POPULAR.credits + POPULAR.bonus + (POPULAR.credits * WELCOME_BONUS) / 100
    expect(t.credits).toBe(expected)
    await press(checkoutId(checkout_url), 'paid', c)
    expect(await balanceOf(database.db, m.id)).toBe(expected)
    const after = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?welcome=true', { cookie: c })).json(),
    )
    expect(after.discount).toBeNull()
    await expectError(
      await order(c, {
        package: 'popular',
        method: 'ideal',
        discount_code: code,
        client_id: randomUUID(),
      }),
      403,
      'discount_not_for_you',
      'discount_code',
    )
  })

  it("the credits answer carries the member's value of a credit: the best package until a purchase, then the purchase's own price per credit", async () => {
    const { cookie: c } = await member('NL')
    const credits = async (who: string) =>
      CreditsResponse.parse(await (await send(app, '/api/credits.php', { cookie: who })).json())
    // Never bought: the package with the most credits for the money, 1500 + 400 for €79.95.
    expect((await credits(c)).credit_value).toEqual({
      amount: 7995,
      credits: 1900,
      currency: 'EUR',
    })
    const { cookie: pl } = await member('PL')
    expect((await credits(pl)).credit_value).toEqual({
      amount: 34999,
      credits: 1900,
      currency: 'PLN',
    })
    // Bought: 250 credits + 25 package bonus + 125 welcome bonus = 400 for €19.95.
    const welcome = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?welcome=true', { cookie: c })).json(),
    )
    const { checkout_url } = await orderOk(c, {
      package: 'popular',
      method: 'ideal',
      discount_code: welcome.discount?.code,
    })
    // An order not paid yet changes nothing.
    expect((await credits(c)).credit_value?.amount).toBe(7995)
    await press(checkoutId(checkout_url), 'paid', c)
    const after = await credits(c)
    expect(after.credit_value).toEqual({ amount: 1995, credits: 400, currency: 'EUR' })
    expect(after.credits).toBe(400)
    // A later, dearer purchase is the value from then on: what the member last paid.
    const second = await orderOk(c, { package: 'starter', method: 'ideal' })
    await press(checkoutId(second.checkout_url), 'paid', c)
    expect((await credits(c)).credit_value).toEqual({ amount: 995, credits: 100, currency: 'EUR' })
  })

  it('a time bonus is the active discount; percent off lowers the price the server charges', async () => {
    const { cookie: c } = await member('NL')
    await database.db.insert(discountCodes).values({
      code: 'SPRING',
      kind: 'time_bonus',
      percentOff: 20,
      endsAt: new Date(Date.now() + 3_600_000),
    })
    const active = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php', { cookie: c })).json(),
    )
    expect(active.discount).toMatchObject({ code: 'SPRING', kind: 'time_bonus', percent_off: 20 })
    const { transaction: t } = await orderOk(c, {
      package: 'starter',
      method: 'ideal',
      discount_code: 'SPRING',
    })
    expect(t.amount).toBe(796) // 9.95 less 20 %
    await database.db.delete(discountCodes).where(eq(discountCodes.code, 'SPRING'))
  })

  it('the account-deletion offer is a personal code of settings.delete_discount percent off', async () => {
    const { cookie: c } = await member('NL')
    const none = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?reason=delete', { cookie: c })).json(),
    )
    expect(none.discount).toBeNull() // the operator's default is 0: no offer
    await database.db.insert(siteSettings).values({ key: 'delete_discount', value: 20 })
    const offer = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?reason=delete', { cookie: c })).json(),
    )
    expect(offer.discount).toMatchObject({ kind: 'normal', percent_off: 20 })
    const again = DiscountResponse.parse(
      await (await send(app, '/api/discountcode.php?reason=delete', { cookie: c })).json(),
    )
    expect(again.discount?.code).toBe(offer.discount?.code)
    await expectError(
      await order(cookie, {
        package: 'starter',
        method: 'ideal',
        discount_code: offer.discount?.code,
        client_id: randomUUID(),
      }),
      403,
      'discount_not_for_you',
      'discount_code',
    )
    await database.db.delete(siteSettings).where(eq(siteSettings.key, 'delete_discount'))
  })

  it('the discount endpoint: 403 without a session, 400 for a malformed code', async () => {
    expect((await send(app, '/api/discountcode.php?welcome=true')).status).toBe(403)
    await expectError(
      await send(app, '/api/discountcode.php?code=a%20b', { cookie }),
      400,
      'invalid_input',
      'code',
    )
  })

  it('repeat order charges the mandate of an earlier iDEAL payment without a checkout', async () => {
    const { m, cookie: c } = await member('NL')
    const first = await orderOk(c, { package: 'starter', method: 'ideal' })
    await press(checkoutId(first.checkout_url), 'paid', c)
    const res = await order(c, { client_id: randomUUID() }, '?repeat=1')
    expect(res.status).toBe(201)
    const again = OrderResponse.parse(await res.json())
    expect(again.checkout_url).toBeNull()
    expect(again.transaction.package).toBe('starter')
    // The provider's webhook follows on its own; on a loaded CI machine it can take
    // well over a second, so wait up to 15 s (the loop ends as soon as it lands).
    const deadline = Date.now() + scaled(15_000)
    while ((await transaction(again.transaction.id)).status === 'pending' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25))
    expect((await transaction(again.transaction.id)).status).toBe('paid')
    expect(await balanceOf(database.db, m.id)).toBe(2 * STARTER.credits)
    const history = CreditHistoryResponse.parse(
      await (await send(app, '/api/credit_history.php', { cookie: c })).json(),
    )
    expect(history.entries.map((e) => [e.delta, e.reason, e.balance_after])).toEqual([
      [100, 'purchase', 200],
      [100, 'purchase', 100],
    ])
    expect(history.last_order).toEqual({ package: 'starter', method: 'ideal' })
  })

  it('a repeat order after a bank transfer (no mandate possible) opens the checkout', async () => {
    const { m, cookie: c } = await member('NL')
    const first = await orderOk(c, { package: 'starter', method: 'banktransfer' })
    await press(checkoutId(first.checkout_url), 'paid', c)
    const again = OrderResponse.parse(
      await (await order(c, { client_id: randomUUID() }, '?repeat=1')).json(),
    )
    expect(again.checkout_url).not.toBeNull()
    expect(again.transaction).toMatchObject({
      package: 'starter',
      method: 'banktransfer',
      status: 'pending',
    })
    await press(checkoutId(again.checkout_url), 'paid', c)
    expect(await balanceOf(database.db, m.id)).toBe(2 * STARTER.credits)
  })
})
