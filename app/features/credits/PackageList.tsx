// The packages of a currency as cards: credits, bonus, price and the price of
// one message; used by /credits (with a choose link) and /pricing, /premium.
import { Link } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import type { Discount, PackagesResponse } from '../../data/usePayments.ts'
import { messageMoneyText, money } from './money.ts'
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
}: {
  data: PackagesResponse
  discount?: Discount | null | undefined
  /** Links each package to /credits/{id} (members); without it the list only informs. */
  choose?: boolean
}) {
  return (
    <ul className="packages">
      {data.packages.map((p) => {
        const bonus = p.bonus + extra(p.credits, discount)
        const price = priceAfter(p.price, discount)
        // What a message costs bought with this package (the one rule, credit-value.ts).
        const perMessage = messageMoneyText(
          { amount: price, credits: p.credits + bonus, currency: data.currency },
          data.message_cost,
        )
        return (
          <li
            key={p.id}
            className={p.featured ? 'package package--featured' : 'package'}
            data-package={p.id}
          >
            {p.featured && <p className="package__flag">{m.credits_package_featured()}</p>}
            <p className="package__credits">{m.credits_package_credits({ credits: p.credits })}</p>
            {bonus > 0 && <p className="package__bonus">{m.credits_package_bonus({ bonus })}</p>}
            <p className="package__price">
              {price !== p.price && <s>{money(p.price, data.currency)}</s>}{' '}
              {money(price, data.currency)}
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
