// /credits (spec §2, required): the packages in the member's currency with
// the active discount applied, the balance, and every purchase and spend with
// the balance after it.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useCreditHistory, useDiscount, usePackages } from '../../../../data/usePayments.ts'
import { ActionPrices } from '../../../../features/credits/ActionPrices.tsx'
import { DiscountBanner } from '../../../../features/credits/DiscountBanner.tsx'
import { MessagePrice } from '../../../../features/credits/MessagePrice.tsx'
import { PackageList } from '../../../../features/credits/PackageList.tsx'
import { formatDateTime } from '../../../../ui/format.ts'

/** `?need=N`: the member lacked N credits for what they tried (a refused send, an unlock). */
type CreditsSearch = { need?: number }

export const Route = createFileRoute('/_default/_member/credits/')({
  component: Credits,
  validateSearch: (s: Record<string, unknown>): CreditsSearch => {
    const need = Number(s.need)
    return Number.isInteger(need) && need > 0 && need <= 1_000_000 ? { need } : {}
  },
})

const REASONS: Record<string, () => string> = {
  purchase: m.credits_reason_purchase,
  message: m.credits_reason_message,
  bonus: m.credits_reason_bonus,
  refund: m.credits_reason_refund,
  adjustment: m.credits_reason_adjustment,
  photo: m.credits_reason_photo,
  voice: m.credits_reason_voice,
  unlock: m.credits_reason_unlock,
  gift: m.credits_reason_gift,
}

function Credits() {
  const packages = usePackages()
  const discount = useDiscount()
  const { history, balance } = useCreditHistory()
  const { need } = Route.useSearch()
  return (
    <main className="page">
      <h1>{m.credits_title()}</h1>
      {balance !== undefined && (
        <p data-balance={balance}>{m.credits_balance({ credits: balance })}</p>
      )}
      <MessagePrice />
      {discount && <DiscountBanner discount={discount} />}
      {need !== undefined && packages && packages.packages.length > 0 && (
        <p role="status" data-need={need}>
          {m.credits_need({ need })}
        </p>
      )}
      {packages && <PackageList data={packages} discount={discount} choose need={need} />}
      <ActionPrices />
      {history?.last_order && (
        <p>
          <Link to="/credits/repeat-order">{m.credits_repeat_link()}</Link>
        </p>
      )}
      <section aria-labelledby="credit-history">
        <h2 id="credit-history">{m.credits_history_title()}</h2>
        {history && history.entries.length === 0 && <p>{m.credits_history_empty()}</p>}
        <ul className="credit-history">
          {history?.entries.map((e) => (
            <li key={e.id}>
              <span>{(REASONS[e.reason] ?? (() => e.reason))()}</span>
              <span className={e.delta > 0 ? 'credit-history__delta--plus' : undefined}>
                {e.delta > 0 ? `+${e.delta}` : e.delta}
              </span>
              <span>{m.credits_history_balance({ balance: e.balance_after })}</span>
              <time dateTime={e.at}>{formatDateTime(e.at)}</time>
              {e.order && (
                <Link
                  to="/withdraw"
                  search={{ order: e.order }}
                  className="credit-history__withdraw"
                >
                  {m.footer_withdraw()}
                </Link>
              )}
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}
