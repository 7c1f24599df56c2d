// Withdrawals as a property, on both databases (the second audit): fast-check
// plays random sequences of purchases of the popular package, spends and
// withdrawals (alone or several at once) for one member, then runs the
// refund jobs and checks that the money refunded never exceeds the money
// paid for the credits never spent, that the credits refunded are exactly
// the never-spent credits the balance lost, and that balance = ledger.
// Small sizes on purpose: the file runs in seconds.

import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { orders } from '../../db/schema/index.ts'
import type { Api } from '../app.ts'
import { WithdrawResponse } from '../contract/index.ts'
import { balanceOf, debit, ledgerSum } from '../credits/index.ts'
import type { JobRunner } from '../jobs/queue.ts'
import { describeEngines, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { POPULAR, paidOrder, paymentsApp } from '../test/payments-app.ts'
import type { MemberRow } from '../test/seed.ts'
import type { LocalProvider } from './local.ts'

type Op = { kind: 'buy' } | { kind: 'spend'; share: number } | { kind: 'withdraw'; picks: number[] }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: 'buy' as const }),
  fc.record({
    kind: fc.constant('spend' as const),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    picks: fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 3 }),
  }),
)

describeEngines('withdrawals never refund spent credits on %s', (engine) => {
  let t: TestDatabase
  let app: Api
  let local: LocalProvider
  let jobs: JobRunner
  let close: () => Promise<void>

  // The payments suites' own set-up (api/test/payments-app.ts), not a copy.
  beforeAll(async () => {
    const p = await paymentsApp(engine)
    ;({ database: t, app, local, jobs, close } = p)
  })
  afterAll(async () => {
    await close?.()
  })

  it('money refunded ≤ money paid for credits never spent; balance = ledger', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 7 }), async (ops) => {
        run++
        let buyer: { member: MemberRow; cookie: string } | undefined
        const bought: string[] = []
        let spent = 0
        for (const [i, o] of [{ kind: 'buy' } as Op, ...ops].entries()) {
          if (o.kind === 'buy') {
            const p = await paidOrder(app, t.db, (id) => local.settle(id, 'paid'), 'en', buyer)
            buyer = { member: p.member, cookie: p.cookie }
            bought.push(p.order)
          } else if (o.kind === 'spend' && buyer) {
            const amount = Math.floor((await balanceOf(t.db, buyer.member.id)) * o.share)
            if (amount > 0) {
              await debit(t.db, buyer.member.id, amount, 'message', `message:p${run}:${i}`)
              spent += amount
            }
          } else if (o.kind === 'withdraw' && buyer) {
            const cookie = buyer.cookie
            const answers = await Promise.all(
              o.picks.map((k) =>
                send(app, '/api/withdrawals.php', {
                  method: 'POST',
                  body: { order: bought[k % bought.length] },
                  cookie,
                }),
              ),
            )
            for (const r of answers) {
              expect(r.status).toBe(200)
              WithdrawResponse.parse(await r.json())
            }
          }
        }
        await jobs.runDue()
        const m = buyer as { member: MemberRow }
        const rows = await t.db.select().from(orders).where(eq(orders.memberId, m.member.id))
        let refunded = 0
        for (const r of rows) refunded += (await local.getPayment(r.paymentId as string)).refunded
        const neverSpent = bought.length * POPULAR.credits - spent
        const balance = await balanceOf(t.db, m.member.id)
        // Every order is the same package, so a credit's money value is one price.
        expect(refunded).toBeLessThanOrEqual((POPULAR.eur * neverSpent) / POPULAR.credits)
        // What left the balance by withdrawal is exactly what was never spent and is not there.
        const taken = rows.reduce((sum, r) => sum + r.reversedCredits, 0)
        expect(balance + taken).toBe(neverSpent)
        expect(balance).toBeGreaterThanOrEqual(0)
        expect(await ledgerSum(t.db, m.member.id)).toBe(balance)
      }),
      { numRuns: 12 },
    )
  })
})
