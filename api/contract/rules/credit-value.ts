// The money value of a credit: one rule for every page that shows what a
// message costs in money (docs/messages-and-credits.md, the price of a
// message among its decisions).
//
// - A member who has bought: what they paid per credit in their last paid
//   purchase (price paid ÷ credits received, bonus included). That is what
//   their credits cost them, discounts and bonuses counted.
// - A member who never bought, a guest, a "from" price: the package that
//   gives the most credits for the money (lowest price per credit, bonus
//   included) on offer in the currency. No member pays less per credit, so
//   nobody is shown more than they would pay.
// - A message's money: the message's credits at that value, rounded DOWN to
//   the currency's minor unit, so the text never overstates what is paid
//   (100 credits for €9.95 at 10 credits a message: €0.995 shown €0.99).

/** A price per credit, kept exact as a fraction: `amount` minor units for `credits` credits. */
export interface CreditValue {
  /** Minor units (cents, grosze) of `currency`. */
  amount: number
  credits: number
  currency: string
}

/** A package as far as its value goes: its price and the credits it gives (bonus apart). */
export interface PricedPackage {
  price: number
  credits: number
  bonus: number
}

/** Minor units one credit is worth (a fraction: 995/100 = 9.95 cents, €0.0995). */
export const perCredit = (v: Pick<CreditValue, 'amount' | 'credits'>): number =>
  v.credits > 0 ? v.amount / v.credits : 0

/** The package with the lowest price per credit (bonus included), or undefined for none. */
export function bestPerCredit<P extends PricedPackage>(packages: readonly P[]): P | undefined {
  let best: P | undefined
  for (const p of packages) {
    const credits = p.credits + p.bonus
    if (credits <= 0) continue
    // a/b < c/d without division: a·d < c·b (all positive integers).
    if (!best || p.price * (best.credits + best.bonus) < best.price * credits) best = p
  }
  return best
}

/**
 * A member's value of a credit: their last paid purchase when there is one,
 * else the best package on offer in `currency`; null when neither exists.
 */
export function creditValue(
  lastPurchase: CreditValue | null | undefined,
  packages: readonly PricedPackage[],
  currency: string,
): CreditValue | null {
  if (lastPurchase && lastPurchase.credits > 0) return lastPurchase
  const best = bestPerCredit(packages)
  return best ? { amount: best.price, credits: best.credits + best.bonus, currency } : null
}

/** The money of one message at a value, in minor units, rounded down (never overstated). */
export const messageMoney = (
  v: Pick<CreditValue, 'amount' | 'credits'>,
  messageCost: number,
): number =>
  v.credits > 0 && messageCost > 0 ? Math.floor((v.amount * messageCost) / v.credits) : 0
