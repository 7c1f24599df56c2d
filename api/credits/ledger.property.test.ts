// The credits ledger as a property, on both databases: fast-check plays short
// sequences of operations over three fresh members (credits, debits, groups
// of concurrent debits, paid payments delivered several times at once or
// again later through settlePayment and the local provider, purchase credits
// under a new or an already used reference, an UPDATE past the conditional
// debit) against a model of the balances, and checks the ledger's rules
// as each operation applies them and over the whole ledger after every run. Small sizes on purpose:
// the whole file runs in seconds; the 1,000-payment run is bench/payments.ts.
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Db, hasPgCode } from '../../db/client.ts'
import { creditLedger, localPayments, members, orders } from '../../db/schema/index.ts'
import { settlePayment } from '../payments/index.ts'
import { type LocalProvider, localProvider } from '../payments/local.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { addMembers } from '../test/seed.ts'
import { balanceOf, credit, debit, ledgerSum } from './ledger.ts'

/** Members per run: few, so that operations meet on the same balances. */
const MEMBERS = 3

type Op =
  | { kind: 'credit'; member: number; amount: number }
  | { kind: 'debit'; member: number; amount: number }
  | { kind: 'debits'; parts: { member: number; amount: number }[] }
  | { kind: 'pay'; member: number; credits: number; deliveries: number }
  | { kind: 'redeliver'; pick: number; deliveries: number }
  | { kind: 'purchase'; member: number; amount: number; reuse: number | null }
  | { kind: 'overdraw'; member: number; over: number }

const member = fc.nat({ max: MEMBERS - 1 })
// Debits reach past what credits bring, so refusals are frequent.
const ops = {
  credit: fc.record({
    kind: fc.constant('credit' as const),
    member,
    amount: fc.integer({ min: 1, max: 60 }),
  }),
  debit: fc.record({
    kind: fc.constant('debit' as const),
    member,
    amount: fc.integer({ min: 1, max: 90 }),
  }),
  debits: fc.record({
    kind: fc.constant('debits' as const),
    parts: fc.array(fc.record({ member, amount: fc.integer({ min: 1, max: 60 }) }), {
      minLength: 2,
      maxLength: 6,
    }),
  }),
  pay: fc.record({
    kind: fc.constant('pay' as const),
    member,
    credits: fc.integer({ min: 1, max: 120 }),
    deliveries: fc.integer({ min: 1, max: 4 }),
  }),
  redeliver: fc.record({
    kind: fc.constant('redeliver' as const),
    pick: fc.nat(),
    deliveries: fc.integer({ min: 1, max: 3 }),
  }),
  purchase: fc.record({
    kind: fc.constant('purchase' as const),
    member,
    amount: fc.integer({ min: 1, max: 60 }),
    reuse: fc.option(fc.nat(), { nil: null }),
  }),
  overdraw: fc.record({
    kind: fc.constant('overdraw' as const),
    member,
    over: fc.integer({ min: 1, max: 30 }),
  }),
} satisfies Record<Op['kind'], fc.Arbitrary<Op>>

const sequence = (...arbitraries: fc.Arbitrary<Op>[]) =>
  fc.array(fc.oneof(...arbitraries), { minLength: 1, maxLength: 8 })

/** Runs per property (eight operations at most each): the file runs in seconds per engine. */
const RUNS = 8

describeEngines('the credits ledger on %s', (engine) => {
  let database: TestDatabase
  let db: Db
  let local: LocalProvider
  /** Fresh ids across runs (and shrinks) of this suite. */
  let serial = 0
  const next = () => `${process.pid}x${++serial}`

  beforeAll(async () => {
    database = await freshDatabase(engine)
    db = database.db
    local = localProvider(db)
  })
  afterAll(async () => {
    await database?.close()
  })

  const deps = () => ({ provider: local, base: 'http://localhost' })
  const rowsOf = async (memberId: number) =>
    db
      .select({ delta: creditLedger.delta, balanceAfter: creditLedger.balanceAfter })
      .from(creditLedger)
      .where(eq(creditLedger.memberId, memberId))
      .orderBy(creditLedger.id)
  const countOf = async (memberId: number) => (await rowsOf(memberId)).length

  /** An order of `credits` and its payment, paid at the provider, not yet delivered. */
  async function paidPayment(memberId: number, credits: number): Promise<string> {
    const id = next()
    const publicId = `prop${id}`
    const paymentId = `tr_prop${id}`
    await db.insert(orders).values({
      publicId,
      paymentId,
      memberId,
      clientId: randomUUID(),
      packageId: 'starter',
      method: 'creditcard',
      currency: 'EUR',
      amount: 995,
      credits,
      provider: 'local',
    })
    await db.insert(localPayments).values({
      id: paymentId,
      status: 'paid',
      currency: 'EUR',
      amount: 995,
      description: 'property',
      orderId: publicId,
    })
    return paymentId
  }

  /**
   * Plays `plan` on three new members against the model of their balances;
   * every rule is checked as it applies and again at the end.
   */
  async function play(plan: Op[]): Promise<void> {
    const ids = (
      await addMembers(
        db,
        Array.from({ length: MEMBERS }, () => ({})),
      )
    ).map((m) => m.id)
    const model = ids.map(() => 0)
    /** Paid payments delivered so far: their id, member and credits. */
    const payments: { id: string; member: number; credits: number }[] = []
    /** Every purchase reference in the ledger (grants and direct purchase credits). */
    const references: string[] = []
    const id = (m: number) => ids[m]!

    for (const op of plan) {
      switch (op.kind) {
        case 'credit': {
          const after = await db.transaction((tx) =>
            credit(tx, id(op.member), op.amount, 'bonus', `bonus:${next()}`),
          )
          model[op.member]! += op.amount
          expect(after).toBe(model[op.member])
          break
        }
        case 'debit': {
          const rows = await countOf(id(op.member))
          const after = await db.transaction((tx) =>
            debit(tx, id(op.member), op.amount, 'message', `message:${next()}`),
          )
          if (op.amount > model[op.member]!) {
            // Refused: nothing changed, not even a ledger row.
            expect(after).toBeNull()
            expect(await balanceOf(db, id(op.member))).toBe(model[op.member])
            expect(await countOf(id(op.member))).toBe(rows)
          } else {
            model[op.member]! -= op.amount
            expect(after).toBe(model[op.member])
          }
          break
        }
        case 'debits': {
          const before = [...model]
          const rows = await Promise.all(ids.map(countOf))
          const results = await Promise.all(
            op.parts.map((p) =>
              db.transaction((tx) =>
                debit(tx, id(p.member), p.amount, 'message', `message:${next()}`),
              ),
            ),
          )
          for (let m = 0; m < MEMBERS; m++) {
            const mine = op.parts.flatMap((p, i) =>
              p.member === m ? [{ amount: p.amount, after: results[i] }] : [],
            )
            const taken = mine.filter((d) => d.after !== null)
            const spent = taken.reduce((s, d) => s + d.amount, 0)
            model[m] = before[m]! - spent
            // The accepted debits fitted the balance between them; each
            // refused one was larger than what was left when it ran, so
            // larger than what is left now; one ledger row per accepted debit.
            expect(model[m]).toBeGreaterThanOrEqual(0)
            expect(await balanceOf(db, id(m))).toBe(model[m])
            for (const d of mine) if (d.after === null) expect(d.amount).toBeGreaterThan(model[m]!)
            expect(await countOf(id(m))).toBe(rows[m]! + taken.length)
            // Sequential in some order: every accepted debit left a balance the others could reach.
            for (const d of taken) expect(d.after).toBeGreaterThanOrEqual(model[m]!)
          }
          break
        }
        case 'pay': {
          const paymentId = await paidPayment(id(op.member), op.credits)
          const outcomes = await Promise.all(
            Array.from({ length: op.deliveries }, () => settlePayment(db, deps(), paymentId)),
          )
          // Any number of deliveries at once grant once.
          expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1)
          expect(outcomes.filter((o) => o !== 'granted').every((o) => o === 'unchanged')).toBe(true)
          model[op.member]! += op.credits
          expect(await balanceOf(db, id(op.member))).toBe(model[op.member])
          payments.push({ id: paymentId, member: op.member, credits: op.credits })
          references.push(`payment:${paymentId}`)
          break
        }
        case 'redeliver': {
          const payment = payments[op.pick % Math.max(1, payments.length)]
          if (!payment) break
          const outcomes = await Promise.all(
            Array.from({ length: op.deliveries }, () => settlePayment(db, deps(), payment.id)),
          )
          // Delivered again later: granted already, nothing more.
          expect(outcomes.every((o) => o === 'unchanged')).toBe(true)
          expect(await balanceOf(db, id(payment.member))).toBe(model[payment.member])
          break
        }
        case 'purchase': {
          const reused =
            op.reuse === null ? undefined : references[op.reuse % Math.max(1, references.length)]
          const reference = reused ?? `payment:tr_direct${next()}`
          const rows = await countOf(id(op.member))
          const attempt = db.transaction((tx) =>
            credit(tx, id(op.member), op.amount, 'purchase', reference),
          )
          if (reused) {
            // One grant per provider payment (credit_ledger_purchase_key): the
            // second credit under a purchase reference fails, and its
            // transaction takes the balance update back with it.
            const failure = await attempt.then(
              () => undefined,
              (e: unknown) => e,
            )
            expect(hasPgCode(failure, '23505'), String(failure)).toBe(true)
            expect(await balanceOf(db, id(op.member))).toBe(model[op.member])
            expect(await countOf(id(op.member))).toBe(rows)
          } else {
            model[op.member]! += op.amount
            expect(await attempt).toBe(model[op.member])
            references.push(reference)
          }
          break
        }
        case 'overdraw': {
          // Past the conditional UPDATE of debit(): the CHECK still refuses.
          const failure = await db
            .update(members)
            .set({ credits: sql`${members.credits} - ${model[op.member]! + op.over}` })
            .where(eq(members.id, id(op.member)))
            .then(
              () => undefined,
              (e: unknown) => e,
            )
          expect(hasPgCode(failure, '23514'), String(failure)).toBe(true)
          expect(await balanceOf(db, id(op.member))).toBe(model[op.member])
          break
        }
      }
    }

    for (let m = 0; m < MEMBERS; m++) {
      const balance = await balanceOf(db, id(m))
      expect(balance).toBe(model[m])
      expect(balance).toBeGreaterThanOrEqual(0)
      expect(await ledgerSum(db, id(m))).toBe(balance)
      // Row by row: each balance_after is the running sum of the deltas, never negative.
      let running = 0
      for (const row of await rowsOf(id(m))) {
        running += row.delta
        expect(row.balanceAfter).toBe(running)
        expect(row.balanceAfter).toBeGreaterThanOrEqual(0)
      }
    }
    // Each payment's purchase row exists once, for its member and its credits.
    for (const p of payments) {
      const grants = await db
        .select({ memberId: creditLedger.memberId, delta: creditLedger.delta })
        .from(creditLedger)
        .where(eq(creditLedger.reference, `payment:${p.id}`))
      expect(grants).toEqual([{ memberId: id(p.member), delta: p.credits }])
    }
  }

  const check = (plan: fc.Arbitrary<Op[]>) =>
    fc.assert(
      fc.asyncProperty(plan, (p) => play(p)),
      { numRuns: RUNS },
    )

  it('every balance equals its ledger sum and is never negative, whatever the mix of operations', async () => {
    await check(sequence(...Object.values(ops)))
  })

  it('a debit larger than the balance is refused and changes nothing, alone or among concurrent debits', async () => {
    await check(sequence(ops.credit, ops.debit, ops.debits, ops.overdraw))
  })

  it('a paid payment delivered many times, at once or later, grants its credits once', async () => {
    await check(sequence(ops.pay, ops.redeliver, ops.debit))
  })

  it('a purchase reference is credited once: a second credit under it is refused and changes nothing', async () => {
    await check(sequence(ops.pay, ops.purchase, ops.debits))
  })
})
