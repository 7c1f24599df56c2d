// The one rule for the money value of a credit (api/contract/rules/credit-value.ts),
// pinned with literal values. (Beside the contract: the contract folder imports zod only.)
import { describe, expect, it } from 'vitest'
import {
  bestPerCredit,
  creditsMoney,
  creditValue,
  messageMoney,
  perCredit,
  smallestCovering,
} from './contract/rules/credit-value.ts'

/** The packages on sale in euros (db/migrations/0007_payments.sql). */
const EUR_PACKAGES = [
  { id: 'starter', credits: 100, bonus: 0, price: 995 },
  { id: 'popular', credits: 250, bonus: 25, price: 1995 },
  { id: 'value', credits: 600, bonus: 100, price: 3995 },
  { id: 'best', credits: 1500, bonus: 400, price: 7995 },
]

describe('the money value of a credit', () => {
  it('is the price per credit of a package: 100 credits at €9.95 are €0.0995 each', () => {
    const v = creditValue(null, [{ credits: 100, bonus: 0, price: 995 }], 'EUR')
    expect(v).toEqual({ amount: 995, credits: 100, currency: 'EUR' })
    expect(perCredit(v!)).toBe(9.95) // minor units: €0.0995
  })

  it("is a member's last purchase, bonus included: 250 + 150 credits for €30 are €0.075 each", () => {
    const last = { amount: 3000, credits: 400, currency: 'EUR' }
    const v = creditValue(last, EUR_PACKAGES, 'EUR')
    expect(v).toEqual(last)
    expect(perCredit(v!)).toBe(7.5) // minor units: €0.075
    expect(messageMoney(v!, 10)).toBe(75) // €0.75 a message of 10 credits
  })

  it('is the cheapest package per credit (bonus included) for one who never bought', () => {
    expect(bestPerCredit(EUR_PACKAGES)?.id).toBe('best') // 7995 / 1900 = 4.21 cents
    expect(creditValue(null, EUR_PACKAGES, 'EUR')).toEqual({
      amount: 7995,
      credits: 1900,
      currency: 'EUR',
    })
    // Per credit, bonus included: 1000 for €50 (5 cents) beats 900 + 200 for €60 (5.45 cents).
    expect(
      bestPerCredit([
        { id: 'a', credits: 900, bonus: 200, price: 6000 },
        { id: 'b', credits: 1000, bonus: 0, price: 5000 },
      ])?.id,
    ).toBe('b')
  })

  it('is null with neither a purchase nor a package on offer', () => {
    expect(creditValue(null, [], 'EUR')).toBeNull()
    expect(creditValue(null, [{ credits: 0, bonus: 0, price: 100 }], 'EUR')).toBeNull()
  })

  it("rounds a message's money down to the cent: never more than what is paid", () => {
    // 10 credits at 995/100: 99.5 cents, shown €0.99 (not €1.00)
    expect(messageMoney({ amount: 995, credits: 100 }, 10)).toBe(99)
    // the home page's "from": 10 credits at 7995/1900 = 42.08 cents
    expect(messageMoney({ amount: 7995, credits: 1900 }, 10)).toBe(42)
    // 275 credits for €19.95: 72.5 cents
    expect(messageMoney({ amount: 1995, credits: 275 }, 10)).toBe(72)
    expect(messageMoney({ amount: 995, credits: 100 }, 0)).toBe(0)
  })
})

describe('what any paid action costs in money, and the package offered to one who lacks credits', () => {
  it('prices a photo, a voice message and an unlock by the same rule as a message, rounded down', () => {
    const v = { amount: 995, credits: 100 } // €0.0995 a credit
    expect(creditsMoney(v, 30)).toBe(298) // a photo: €2.985 shown €2.98
    expect(creditsMoney(v, 20)).toBe(199) // a voice message: €1.99
    expect(creditsMoney(v, 50)).toBe(497) // an unlock: €4.975 shown €4.97
    expect(creditsMoney(v, 0)).toBe(0)
    expect(creditsMoney({ amount: 995, credits: 0 }, 30)).toBe(0)
  })

  it('offers the cheapest package that covers the need, not a bigger one', () => {
    expect(smallestCovering(EUR_PACKAGES, 20)?.id).toBe('starter') // 100 credits cover 20
    expect(smallestCovering(EUR_PACKAGES, 101)?.id).toBe('popular') // 250 + 25 bonus
    expect(smallestCovering(EUR_PACKAGES, 276)?.id).toBe('value') // 600 + 100
    expect(smallestCovering(EUR_PACKAGES, 1900)?.id).toBe('best') // bonus counts: 1500 + 400
  })

  it('offers the package with the most credits when none covers the need, and nothing without packages', () => {
    expect(smallestCovering(EUR_PACKAGES, 5000)?.id).toBe('best')
    expect(smallestCovering([], 10)).toBeUndefined()
  })
})
