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

/**
 * The money of `credits` credits at a value, in minor units, rounded down
 * (never overstated): what any paid action (a message, a photo, a voice
 * message, an unlock, a gift) costs in money.
 */
export const creditsMoney = (
  v: Pick<CreditValue, 'amount' | 'credits'>,
  credits: number,
): number => (v.credits > 0 && credits > 0 ? Math.floor((v.amount * credits) / v.credits) : 0)

/** The money of one message at a value, in minor units, rounded down (never overstated). */
export const messageMoney = creditsMoney

/**
 * The package to offer first to a member who lacks `need` credits: the
 * cheapest one whose credits (bonus included) cover the need, so nobody is
 * pushed into a bigger pack than the action needs (CPC key principles on
 * in-game virtual currencies, 2025); when none covers it, the one that gives
 * the most credits. Undefined for no packages.
 */
export function smallestCovering<P extends PricedPackage>(
  packages: readonly P[],
  need: number,
): P | undefined {
  let best: P | undefined
  for (const p of packages) {
    const credits = p.credits + p.bonus
    if (credits < need) continue
    if (!best || p.price < best.price) best = p
  }
  if (best) return best
  for (const p of packages) if (!best || p.credits + p.bonus > best.credits + best.bonus) best = p
  return best
}
