import type { Purchase } from '../../../../../api/contract/index.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { money } from '../../../../features/credits/money.ts'
import { formatDate, formatDateTime } from '../../../../ui/format.ts'

/** Where a purchase stands: withdrawn (with the refund), open until a date, or closed. */
export function WithdrawalState({ purchase: p }: { purchase: Purchase }) {
  const w = p.withdrawal
  if (w)
    return (
      <p data-withdrawn="true">
        {m.withdraw_withdrawn({ date: formatDateTime(w.withdrawn_at) })}
        {' · '}
        {w.refund_amount > 0
          ? m.withdraw_done_refund({
              amount: money(w.refund_amount, w.currency),
              credits: w.unused_credits,
            })
          : m.withdraw_done_no_refund()}
      </p>
    )
  if (p.withdrawable)
    return <p>{m.withdraw_until({ date: formatDate(p.withdraw_until, 'long') })}</p>
  return <p>{m.withdraw_closed()}</p>
}
