// The active discount (spec §3: the welcome or time-bonus one), with its end
// counting down each second.
import { useEffect, useState } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import type { Discount } from '../../data/usePayments.ts'
import { countdown } from './money.ts'

export function DiscountBanner({ discount }: { discount: Discount }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!discount.ends_at) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [discount.ends_at])
  const percent = discount.bonus_percent ?? discount.percent_off ?? 0
  const title = discount.percent_off
    ? m.credits_discount_off({ percent, code: discount.code })
    : discount.kind === 'welcome'
      ? m.credits_discount_welcome({ percent })
      : m.credits_discount_bonus({ percent })
  return (
    <section className="discount-banner" aria-label={title} data-discount={discount.kind}>
      <p>
        <strong>{title}</strong>
      </p>
      {discount.ends_at && (
        <p>
          <time dateTime={discount.ends_at}>
            {m.credits_discount_ends({ time: countdown(Date.parse(discount.ends_at) - now) })}
          </time>
        </p>
      )}
      <p>{m.credits_discount_applied()}</p>
    </section>
  )
}
