// The withdrawal function (CRD Art. 11a, 16(m)) on both databases, through
// the built-in local provider: the checkout's consent is required and stored;
// a withdrawal refunds the unused credits of the purchase through the
// console's refund path (all of it when nothing was used, a share when some
// were, nothing when all were); it is made once however often it is asked
// for; nobody withdraws from someone else's order; without a session the
// confirmation link goes only to the order's address and the answer never
// says whether the address or the order exist; asking is rate-limited.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  creditLedger,
  mails,
  memberActions,
  orders,
  staffRefunds,
  withdrawals,
} from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { PurchasesResponse, WithdrawalLinkPurchase, WithdrawResponse } from '../contract/index.ts'
import { balanceOf, debit, ledgerSum } from '../credits/index.ts'
import { createJobRunner, type JobRunner } from '../jobs/queue.ts'
import { createMailer } from '../mail/mailer.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { POPULAR, paidOrder } from '../test/payments-app.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { type LocalProvider, localProvider } from './local.ts'
import type { OrderRow } from './orders.ts'
import { WITHDRAWAL_REFUND, withdrawalJobs, withdraw as withdrawFrom } from './withdrawal.ts'

describeEngines('withdrawal from a purchase on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let local: LocalProvider
  let jobs: JobRunner
  let later: Api
  let laterJobs: JobRunner

  beforeAll(async () => {
    t = await freshDatabase(engine)
    local = localProvider(t.db)
    jobs = createJobRunner({ db: t.db, handlers: {} })
    const accounts = {
      mailer: createMailer({ devListing: true }),
      trustProxy: true,
      publicUrl: undefined,
    }
    app = createApi({ db: t.db, payments: local, accounts, jobs })
    // The same site 15 days on: past the withdrawal period.
    laterJobs = createJobRunner({ db: t.db, handlers: {} })
    const inFifteenDays = () => new Date(Date.now() + 15 * 24 * 60 * 60_000)
    later = createApi({
      db: t.db,
      payments: local,
      accounts,
      jobs: laterJobs,
      now: inFifteenDays,
    })
  })
  afterAll(async () => {
    // Pokes after a withdrawal run jobs in the background: done before the database closes.
    await jobs?.stop()
    await laterJobs?.stop()
    await t?.close()
  })

  /** A member (in `language`) who bought and paid the popular package. */
  const paidBuyer = async (language = 'en') => {
    const paid = await paidOrder(app, t.db, (id) => local.settle(id, 'paid'), language)
    const { member: m, cookie, order, orderId, paymentId } = paid
    return { m, cookie, order, orderId, paymentId }
  }

  const withdraw = async (cookie: string, order: string, site = app) =>
    send(site, '/api/withdrawals.php', { method: 'POST', body: { order }, cookie })
  const withdrawOk = async (cookie: string, order: string) => {
    const res = await withdraw(cookie, order)
    expect(res.status).toBe(200)
    const body = WithdrawResponse.parse(await res.json())
    await jobs.runDue()
    return body
  }
  const mailsTo = (memberId: number, kind: string) =>
    t.db
      .select()
      .from(mails)
      .where(and(eq(mails.memberId, memberId), eq(mails.kind, kind)))
  const refundsOf = (orderId: number) =>
    t.db.select().from(staffRefunds).where(eq(staffRefunds.orderId, orderId))

  it('refuses an order without the consent to immediate use, naming the field, and stores nothing', async () => {
    const m = await addMember(t.db)
    const cookie = await login(app, m.email, TEST_PASSWORD)
    for (const consent of [undefined, false]) {
      const res = await send(app, '/api/orders.php', {
        method: 'POST',
        body: {
          client_id: randomUUID(),
          package: 'popular',
          method: 'ideal',
          withdrawal_consent: consent,
        },
        cookie,
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        error: 'invalid_input',
        field: 'withdrawal_consent',
      })
    }
    expect(await t.db.select().from(orders).where(eq(orders.memberId, m.id))).toEqual([])
  })

  it('stores the consent with the order', async () => {
    const { orderId } = await paidBuyer()
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    expect(o?.withdrawalConsentAt).toBeInstanceOf(Date)
  })

  it('nothing used: the whole price is refunded through the provider and the credits go back', async () => {
    const { m, cookie, order, orderId } = await paidBuyer('de')
    const body = await withdrawOk(cookie, order)
    expect(body).toMatchObject({ applied: true })
    expect(body.withdrawal).toMatchObject({
      order,
      unused_credits: POPULAR.credits,
      refund_amount: POPULAR.eur,
      currency: 'EUR',
    })
    expect(await balanceOf(t.db, m.id)).toBe(0)
    expect(await ledgerSum(t.db, m.id)).toBe(0)
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    expect(o?.status).toBe('refunded')
    const refunds = await refundsOf(orderId)
    expect(refunds).toHaveLength(1)
    expect(refunds[0]).toMatchObject({ amount: POPULAR.eur, staffId: null })
    expect(refunds[0]?.providerRefundId).toBeTruthy()
    // The acknowledgement: in the member's language, with the date and the time.
    const [ack] = await mailsTo(m.id, 'withdrawal')
    expect(ack?.subject).toContain('Widerruf')
    const at = new Date(body.withdrawal.withdrawn_at)
    const date = new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(at)
    const time = new Intl.DateTimeFormat('de', { timeStyle: 'long', timeZone: 'UTC' }).format(at)
    expect(ack?.text).toContain(date)
    expect(ack?.text).toContain(time)
    expect(ack?.text).toContain(order)
    // The list shows it withdrawn, refunded, and not open any more.
    const list = PurchasesResponse.parse(
      await (await send(app, '/api/withdrawals.php', { cookie })).json(),
    )
    expect(list.purchases.find((p) => p.id === order)).toMatchObject({
      withdrawable: false,
      consent: true,
      withdrawal: { refunded: true, refund_amount: POPULAR.eur },
    })
  })

  it('some used: only the unused share is refunded; the used credits stay paid for', async () => {
    const { m, cookie, order, orderId } = await paidBuyer()
    await debit(t.db, m.id, 100, 'message', 'message:w1')
    const body = await withdrawOk(cookie, order)
    // 175 of 275 credits unused: 1995 × 175 / 275 = 1269.5, rounded down.
    expect(body.withdrawal).toMatchObject({ unused_credits: 175, refund_amount: 1269 })
    expect((await refundsOf(orderId)).map((r) => r.amount)).toEqual([1269])
    expect(await balanceOf(t.db, m.id)).toBe(0)
    expect(await ledgerSum(t.db, m.id)).toBe(0)
    const back = await t.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, m.id), eq(creditLedger.reason, 'refund')))
    expect(back.map((r) => r.delta)).toEqual([-175])
  })

  it('all used: nothing is refunded, and the acknowledgement says so', async () => {
    const { m, cookie, order, orderId } = await paidBuyer()
    await debit(t.db, m.id, POPULAR.credits, 'message', 'message:w2')
    const body = await withdrawOk(cookie, order)
    expect(body.withdrawal).toMatchObject({ unused_credits: 0, refund_amount: 0 })
    expect(await refundsOf(orderId)).toEqual([])
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    expect(o?.status).toBe('paid')
    const [ack] = await mailsTo(m.id, 'withdrawal')
    expect(ack?.text).toContain('nothing to refund')
  })

  it('nobody withdraws from someone else’s order: 404 as for none, and it is not listed', async () => {
    const owner = await paidBuyer()
    const other = await addMember(t.db)
    const cookie = await login(app, other.email, TEST_PASSWORD)
    const res = await withdraw(cookie, owner.order)
    expect(res.status).toBe(404)
    const list = PurchasesResponse.parse(
      await (await send(app, '/api/withdrawals.php', { cookie })).json(),
    )
    expect(list.purchases).toEqual([])
    expect(await refundsOf(owner.orderId)).toEqual([])
    expect(await balanceOf(t.db, owner.m.id)).toBe(POPULAR.credits)
    // Without a session, neither list nor withdrawal.
    expect((await send(app, '/api/withdrawals.php')).status).toBe(403)
  })

  it('withdrawing twice changes nothing: one withdrawal, one refund, one mail', async () => {
    const { m, cookie, order, orderId } = await paidBuyer()
    await debit(t.db, m.id, 75, 'message', 'message:w3')
    const [first, second] = await Promise.all([withdraw(cookie, order), withdraw(cookie, order)])
    const bodies = [first, second].map((r) => r?.status)
    expect(bodies).toEqual([200, 200])
    await jobs.runDue()
    const again = await withdrawOk(cookie, order)
    expect(again.applied).toBe(false)
    expect(again.withdrawal).toMatchObject({ unused_credits: 200, refunded: true })
    expect(await refundsOf(orderId)).toHaveLength(1)
    expect(await mailsTo(m.id, 'withdrawal')).toHaveLength(1)
    expect(await balanceOf(t.db, m.id)).toBe(0)
  })

  it('the refund job run twice at once refunds once: one claim, one refund at the provider', async () => {
    const { m, orderId, paymentId } = await paidBuyer()
    await debit(t.db, m.id, 200, 'message', 'message:w4')
    // Withdrawn without a poke: the job waits in the queue, and runs here twice at once.
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    const body = await withdrawFrom(
      t.db,
      { base: 'http://localhost' },
      o as OrderRow,
      'member',
      new Date(),
    )
    // 75 of 275 credits unused: 1995 × 75 / 275 = 544.09, rounded down; twice would still fit.
    expect(body.withdrawal).toMatchObject({ unused_credits: 75, refund_amount: 544 })
    const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.orderId, orderId))
    const job = withdrawalJobs(t.db, () => ({ provider: local, base: 'http://localhost' }))[
      WITHDRAWAL_REFUND
    ]
    await Promise.all([job({ withdrawal: w?.id }), job({ withdrawal: w?.id })])
    await jobs.runDue()
    expect((await refundsOf(orderId)).map((r) => r.amount)).toEqual([544])
    expect((await local.getPayment(paymentId)).refunded).toBe(544)
    const claims = await t.db
      .select()
      .from(memberActions)
      .where(eq(memberActions.kind, `${WITHDRAWAL_REFUND}:${w?.id}`))
    expect(claims).toHaveLength(1)
    expect(await balanceOf(t.db, m.id)).toBe(0)
    expect(await ledgerSum(t.db, m.id)).toBe(0)
  })

  /** One member's `n` paid purchases of the popular package. */
  const paidPurchases = async (n: number) => {
    const first = await paidBuyer()
    const buyer = { member: first.m, cookie: first.cookie }
    const more = []
    for (let i = 1; i < n; i++)
      more.push(await paidOrder(app, t.db, (id) => local.settle(id, 'paid'), 'en', buyer))
    return { ...buyer, orders: [first.order, ...more.map((p) => p.order)] }
  }
  /** What the provider refunded over the member's orders, in cents. */
  const refundedCents = async (memberId: number) => {
    const rows = await t.db.select().from(orders).where(eq(orders.memberId, memberId))
    let sum = 0
    for (const o of rows) sum += (await local.getPayment(o.paymentId as string)).refunded
    return sum
  }

  // The second audit: 4 × 275 credits bought, 1,000 spent, 100 left. Every
  // withdrawal used to see the same balance (taken only later, by the refund
  // job), so each refunded 100 credits' worth and the provider paid back four
  // times what was left.
  for (const timing of ['at once', 'one after the other'] as const)
    it(`withdrawals from several purchases ${timing} refund only the credits left, once`, async () => {
      const { member: m, cookie, orders: bought } = await paidPurchases(4)
      await debit(t.db, m.id, 4 * POPULAR.credits - 100, 'message', `message:audit:${timing}`)
      const answers =
        timing === 'at once'
          ? await Promise.all(bought.map((o) => withdraw(cookie, o)))
          : await bought.reduce<Promise<Response[]>>(
              async (done, o) => [...(await done), await withdraw(cookie, o)],
              Promise.resolve([]),
            )
      const bodies = await Promise.all(
        answers.map(async (r) => {
          expect(r.status).toBe(200)
          return WithdrawResponse.parse(await r.json())
        }),
      )
      await jobs.runDue()
      const unused = bodies.reduce((sum, b) => sum + b.withdrawal.unused_credits, 0)
      expect(unused).toBe(100)
      // 1995 × 100 / 275 = 725.45: at most that much money, whichever order took the 100.
      expect(await refundedCents(m.id)).toBeLessThanOrEqual(Math.floor((POPULAR.eur * 100) / 275))
      expect(await refundedCents(m.id)).toBe(
        bodies.reduce((sum, b) => sum + b.withdrawal.refund_amount, 0),
      )
      expect(await balanceOf(t.db, m.id)).toBe(0)
      expect(await ledgerSum(t.db, m.id)).toBe(0)
    })

  it('the credits a withdrawal refunds leave the balance at once, before the refund job runs', async () => {
    const { m, orderId } = await paidBuyer()
    await debit(t.db, m.id, 75, 'message', 'message:w5')
    const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    const body = await withdrawFrom(
      t.db,
      { base: 'http://localhost' },
      o as OrderRow,
      'member',
      new Date(),
    )
    expect(body.withdrawal.unused_credits).toBe(200)
    expect(await balanceOf(t.db, m.id)).toBe(0)
    expect(await ledgerSum(t.db, m.id)).toBe(0)
    const [after] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    expect(after?.reversedCredits).toBe(200)
  })

  it('after the 14 days: 409 withdrawal_period_over, nothing changes', async () => {
    const { m, cookie, order, orderId } = await paidBuyer()
    const res = await withdraw(cookie, order, later)
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ error: 'withdrawal_period_over', field: 'order' })
    expect(await refundsOf(orderId)).toEqual([])
    expect(await balanceOf(t.db, m.id)).toBe(POPULAR.credits)
  })

  const askLink = (body: unknown, ip: string) =>
    send(app, '/api/withdrawal_link.php', {
      method: 'POST',
      body,
      headers: { 'x-forwarded-for': ip },
    })

  it('logged out: a link goes only to the order’s address, and the answer never tells', async () => {
    const { m, order } = await paidBuyer()
    const other = await addMember(t.db)
    const ip = '198.51.100.1'
    const answers = await Promise.all([
      askLink({ email: other.email, order }, ip),
      askLink({ email: m.email, order: 'A'.repeat(22) }, ip),
      askLink({ email: 'nobody@test.example', order }, ip),
    ])
    const right = await askLink({ email: m.email.toUpperCase(), order }, ip)
    for (const res of [...answers, right]) {
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ sent: true })
    }
    expect(await mailsTo(other.id, 'withdrawal_link')).toEqual([])
    const links = await mailsTo(m.id, 'withdrawal_link')
    expect(links).toHaveLength(1)
    expect(links[0]?.to).toBe(m.email)
    const token = /withdraw\?token=([A-Za-z0-9_-]+)/.exec(links[0]?.text ?? '')?.[1] as string
    expect(token).toBeTruthy()

    const shown = await send(app, `/api/withdrawal_link.php?token=${token}`)
    expect(WithdrawalLinkPurchase.parse(await shown.json()).purchase).toMatchObject({
      id: order,
      withdrawable: true,
    })
    const confirm = (tok: string) =>
      send(app, '/api/withdrawal_confirm.php', {
        method: 'POST',
        body: { token: tok },
        headers: { 'x-forwarded-for': ip },
      })
    expect((await confirm('x'.repeat(32))).status).toBe(404)
    const res = await confirm(token)
    expect(res.status).toBe(200)
    expect(WithdrawResponse.parse(await res.json())).toMatchObject({ applied: true })
    await jobs.runDue()
    expect(await balanceOf(t.db, m.id)).toBe(0)
    expect(await mailsTo(m.id, 'withdrawal')).toHaveLength(1)
    // The link is spent with the withdrawal.
    expect((await confirm(token)).status).toBe(404)
  })

  it('asking for links is rate-limited per address and per order number', async () => {
    const { order } = await paidBuyer()
    const ask = (ip: string, o = order) => askLink({ email: 'someone@test.example', order: o }, ip)
    const perOrder = []
    for (let i = 0; i < 4; i++) perOrder.push((await ask(`198.51.100.${10 + i}`)).status)
    expect(perOrder).toEqual([200, 200, 200, 429])
    const perAddress = []
    for (let i = 0; i < 11; i++)
      perAddress.push((await ask('198.51.100.99', `B${i}`.padEnd(22, 'x'))).status)
    expect(perAddress.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(perAddress[10]).toBe(429)
  })

  it('the credits history links each purchase to its withdrawal', async () => {
    const { cookie, order } = await paidBuyer()
    const res = await send(app, '/api/credit_history.php', { cookie })
    const body = (await res.json()) as { entries: { reason: string; order?: string }[] }
    expect(body.entries.find((e) => e.reason === 'purchase')?.order).toBe(order)
  })
})
