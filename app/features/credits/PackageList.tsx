// The packages of a currency as cards: credits, bonus, price and the price of
// one message; used by /credits (with a choose link) and /pricing, /premium.
import { Link } from '@tanstack/react-router'
import { smallestCovering } from '../../../api/contract/rules/credit-value.ts'
import { m } from '../../../messages/paraglide/messages.js'
import type { Discount, PackagesResponse } from '../../data/usePayments.ts'
import { messageMoneyText, money, perCreditText } from './money.ts'
import './credits.css'

/** Credits a bonus percentage adds (the server computes the same, api/contract/rules). */
const extra = (credits: number, d: Discount | null | undefined) =>
  d?.bonus_percent ? Math.floor((credits * d.bonus_percent) / 100) : 0
const priceAfter = (price: number, d: Discount | null | undefined) =>
  d?.percent_off ? Math.max(1, Math.round((price * (100 - d.percent_off)) / 100)) : price

export function PackageList({
  data,
  discount,
  choose,
  need,
}: {
  data: PackagesResponse
  discount?: Discount | null | undefined
  /** Links each package to /credits/{id} (members); without it the list only informs. */
  choose?: boolean
  /**
   * Credits the member lacks for what they tried (a send refused for want
   * of credits): the cheapest package that covers them comes first, marked,
   * so nobody is pushed into a bigger pack (credit-value.ts smallestCovering).
   */
  need?: number | undefined
}) {
  // Compared as the member reads them: the discount's price and extra bonus counted.
  const shown = data.packages.map((p) => ({
    ...p,
    bonus: p.bonus + extra(p.credits, discount),
    price: priceAfter(p.price, discount),
  }))
  const covering = need ? smallestCovering(shown, need)?.id : undefined
  const packages = covering
    ? [
        ...data.packages.filter((p) => p.id === covering),
        ...data.packages.filter((p) => p.id !== covering),
      ]
    : data.packages
  return (
    <ul className="packages">
      {packages.map((p) => {
        const bonus = p.bonus + extra(p.credits, discount)
        const price = priceAfter(p.price, discount)
        // What a message costs bought with this package (the one rule, credit-value.ts).
        const value = { amount: price, credits: p.credits + bonus, currency: data.currency }
        const perMessage = messageMoneyText(value, data.message_cost)
        return (
          <li
            key={p.id}
            className={p.featured || p.id === covering ? 'package package--featured' : 'package'}
            data-package={p.id}
            data-covers={p.id === covering ? need : undefined}
          >
            {p.id === covering ? (
              <p className="package__flag">{m.credits_covers()}</p>
            ) : (
              p.featured && <p className="package__flag">{m.credits_package_featured()}</p>
            )}
            <p className="package__credits">{m.credits_package_credits({ credits: p.credits })}</p>
            {bonus > 0 && <p className="package__bonus">{m.credits_package_bonus({ bonus })}</p>}
            <p className="package__price">
              {price !== p.price && <s>{money(p.price, data.currency)}</s>}{' '}
              {money(price, data.currency)}
            </p>
            <p className="package__per-message">
              {m.credits_per_credit({ price: perCreditText(value) })}
            </p>
            <p className="package__per-message">{m.credits_per_message({ price: perMessage })}</p>
            {choose && (
              <Link
                className="button"
                to="/credits/$creditId/{-$paymentMethod}"
                params={{ creditId: p.id, paymentMethod: undefined }}
                search={discount ? { code: discount.code } : {}}
              >
                {m.credits_choose()}
              </Link>
            )}
          </li>
        )
      })}
    </ul>
  )
}
