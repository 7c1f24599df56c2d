// Refunds from the console on both databases, through the built-in local
// provider and through the Mollie adapter against the local Mollie stand-in:
// the provider refunds, settle takes back only the unspent credits through
// the ledger (reason refund, never below zero, balance == ledger sum), the
// action is audited, a retry refunds once and nothing beyond what was paid.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { auditLog, creditLedger, orders } from '../../db/schema/index.ts'
import { type Api, createApi } from '../app.ts'
import { OrderResponse } from '../contract/index.ts'
import { RefundResponse } from '../contract/operator/members.ts'
import { balanceOf, debit, ledgerSum } from '../credits/ledger.ts'
import { createMailer } from '../mail/mailer.ts'
import { type LocalProvider, localProvider } from '../payments/local.ts'
import { mollieProvider } from '../payments/mollie.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { type MollieFake, startMollieFake } from '../test/mollie-fake.ts'
import { POPULAR, paidOrder } from '../test/payments-app.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { staffSession } from '../test/staff.ts'

// The Mollie stand-in's certificate is self-signed: this test process only.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'

const mailer = () => ({
  mailer: createMailer({ devListing: true }),
  trustProxy: false,
  publicUrl: undefined,
})

for (const provider of ['local', 'mollie'] as const) {
  describeEngines(`console refunds (${provider} provider) on %s`, (engine) => {
    let t: TestDatabase
    let app: Api
    let fake: MollieFake | undefined
    let local: LocalProvider | undefined
    let finance: Awaited<ReturnType<typeof staffSession>>

    beforeAll(async () => {
      t = await freshDatabase(engine)
      if (provider === 'mollie') fake = await startMollieFake()
      else local = localProvider(t.db)
      app = createApi({
        db: t.db,
        payments: fake
          ? mollieProvider({ apiKey: fake.apiKey, apiEndpoint: fake.endpoint })
          : (local as LocalProvider),
        accounts: mailer(),
      })
      finance = await staffSession(app, t.db, ['finance'])
    })
    afterAll(async () => {
      await fake?.close()
      await t?.close()
    })

    /** A member who bought and paid the popular package: their id and the order's row id. */
    const paidBuyer = async () => {
      const pay = (id: string) =>
        fake ? fake.setStatus(id, 'paid') : (local as LocalProvider).settle(id, 'paid')
      const { member, orderId, paymentId } = await paidOrder(app, t.db, pay)
      return { memberId: member.id, orderId, paymentId }
    }
    const refund = (body: Record<string, unknown>, cookie = finance.cookie) =>
      send(app, '/api/operator/refund.php', { method: 'POST', body, cookie })

    it('refunds the whole order: only the unspent credits go back, never below zero, audited', async () => {
      const { memberId, orderId, paymentId } = await paidBuyer()
      // The member spent 100 of the 275 credits on messages.
      await debit(t.db, memberId, 100, 'message', 'message:test')
      const client = randomUUID()
      const res = await refund({
        order_id: orderId,
        client_id: client,
        amount: POPULAR.eur,
        reason: 'asked within 14 days',
      })
      expect(res.status).toBe(200)
      const body = RefundResponse.parse(await res.json())
      expect(body).toMatchObject({ applied: true, balance: 0 })
      expect(body.order).toMatchObject({ status: 'refunded', refunded: POPULAR.eur })
      expect(await ledgerSum(t.db, memberId)).toBe(0)
      const back = await t.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.memberId, memberId), eq(creditLedger.reason, 'refund')))
      expect(back.map((r) => r.delta)).toEqual([-175])
      if (fake) expect(fake.calls).toContain(`POST /v2/payments/${paymentId}/refunds`)
      const audits = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'payments.refund'), eq(auditLog.targetId, String(memberId))))
      expect(audits).toHaveLength(1)
      expect(audits[0]).toMatchObject({ staffId: finance.id, reason: 'asked within 14 days' })
      expect(audits[0]?.details).toMatchObject({ amount: POPULAR.eur, payment: paymentId })

      // A retried click refunds nothing more; a new request beyond what was paid is refused.
      const retry = await refund({
        order_id: orderId,
        client_id: client,
        amount: POPULAR.eur,
        reason: 'asked within 14 days',
      })
      expect(retry.status).toBe(200)
      expect(RefundResponse.parse(await retry.json())).toEqual({ ...body, applied: false })
      // The same id for another amount: 422 client_id_reused, nothing refunded.
      const reused = await refund({
        order_id: orderId,
        client_id: client,
        amount: 1,
        reason: 'asked within 14 days',
      })
      expect(reused.status).toBe(422)
      expect(await reused.json()).toMatchObject({ error: 'client_id_reused', field: 'client_id' })
      const more = await refund({
        order_id: orderId,
        client_id: randomUUID(),
        amount: 1,
        reason: 'x',
      })
      expect(more.status).toBe(422)
      expect(await more.json()).toMatchObject({ error: 'refund_too_large', field: 'amount' })
      expect(await ledgerSum(t.db, memberId)).toBe(await balanceOf(t.db, memberId))
    })

    it('refunds part of an order: the same share of the credits, once however many requests race', async () => {
      const { memberId, orderId } = await paidBuyer()
      const body = { order_id: orderId, client_id: randomUUID(), amount: 998, reason: 'half' }
      const answers = await Promise.all(Array.from({ length: 10 }, () => refund(body)))
      const parsed = await Promise.all(
        answers.map(async (r) => {
          expect(r.status).toBe(200)
          return RefundResponse.parse(await r.json())
        }),
      )
      expect(parsed.filter((p) => p.applied)).toHaveLength(1)
      // ceil(275 × 998 / 1995) = 138 credits taken back.
      expect(await balanceOf(t.db, memberId)).toBe(275 - 138)
      expect(await ledgerSum(t.db, memberId)).toBe(275 - 138)
      // Different ids for the rest and more at once: at most the amount paid is refunded.
      const rest = await Promise.all(
        Array.from({ length: 5 }, () =>
          refund({ order_id: orderId, client_id: randomUUID(), amount: 997, reason: 'rest' }),
        ),
      )
      expect(rest.filter((r) => r.status === 200)).toHaveLength(1)
      for (const r of rest) expect([200, 422]).toContain(r.status)
      expect(await balanceOf(t.db, memberId)).toBe(0)
      expect(await ledgerSum(t.db, memberId)).toBe(0)
      const [o] = await t.db.select().from(orders).where(eq(orders.id, orderId))
      expect(o).toMatchObject({ status: 'refunded', reversedCredits: 275 })
    })

    it('refuses an unpaid order, unknown orders and staff without payments.refund', async () => {
      const m = await addMember(t.db)
      const cookie = await login(app, m.email, TEST_PASSWORD)
      const res = await send(app, '/api/orders.php', {
        method: 'POST',
        body: {
          client_id: randomUUID(),
          package: 'popular',
          method: 'ideal',
          withdrawal_consent: true,
        },
        cookie,
      })
      const { transaction } = OrderResponse.parse(await res.json())
      const [o] = await t.db.select().from(orders).where(eq(orders.publicId, transaction.id))
      const open = await refund({
        order_id: o?.id,
        client_id: randomUUID(),
        amount: 100,
        reason: 'x',
      })
      expect(open.status).toBe(422)
      expect((await open.json()).field).toBe('order_id')
      const none = await refund({
        order_id: 999_999_999,
        client_id: randomUUID(),
        amount: 100,
        reason: 'x',
      })
      expect(none.status).toBe(404)
      const support = await staffSession(app, t.db, ['support'])
      const refused = await refund(
        { order_id: o?.id, client_id: randomUUID(), amount: 100, reason: 'x' },
        support.cookie,
      )
      expect(refused.status).toBe(403)
    })
  })
}
