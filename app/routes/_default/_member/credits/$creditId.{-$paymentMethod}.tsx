// /credits/{creditId}/{paymentMethod?} (spec §2, required): the chosen
// package and the payment methods of the member's country, the one in the
// path preselected; paying creates the order and goes to the checkout.
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import {
  bonusCredits,
  discounted,
  isDiscountGone,
} from '../../../../../api/contract/rules/payments.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { getLocale } from '../../../../../messages/paraglide/runtime.js'
import { type Discount, useDiscount, usePackages } from '../../../../data/usePayments.ts'
import { worker } from '../../../../data/worker.ts'
import { useWorker } from '../../../../features/account/forms/use-worker.ts'
import { methodName } from '../../../../features/credits/methods.ts'
import { money } from '../../../../features/credits/money.ts'
import { WithdrawalConsent } from '../../../../features/credits/WithdrawalConsent.tsx'
import '../../../../features/credits/credits.css'
import { followOrder } from './-components/after-order.ts'

export const Route = createFileRoute('/_default/_member/credits/$creditId/{-$paymentMethod}')({
  validateSearch: (search: Record<string, unknown>): { code?: string } =>
    typeof search.code === 'string' && search.code ? { code: search.code } : {},
  component: ChoosePayment,
})

const ok = <T,>(value: T) => ({ ok: true as const, value })

function ChoosePayment() {
  const { creditId, paymentMethod } = Route.useParams()
  const { code } = Route.useSearch()
  const packages = usePackages()
  const active = useDiscount()
  // A code from a link (the account-deletion offer) shows its own effect.
  const linked = useWorker(
    () => (code ? worker().discountFor(code) : Promise.resolve(ok({ discount: null }))),
    code ?? '',
  )
  const discount = code ? (linked?.discount ?? null) : active
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  const order = usePlaceOrder(creditId, code, discount)
  if (!packages) return <main className="page page--narrow" aria-busy="true" />
  const pkg = packages.packages.find((p) => p.id === creditId)
  if (!pkg)
    return (
      <main className="page page--narrow">
        <p>{m.credits_unknown_package()}</p>
        <Link to="/credits">{m.credits_tx_back()}</Link>
      </main>
    )
  const method =
    chosen ??
    (paymentMethod && packages.methods.includes(paymentMethod as never)
      ? paymentMethod
      : packages.methods[0])
  const bonus = discount?.bonus_percent ? bonusCredits(pkg.credits, discount.bonus_percent) : 0
  const price = discount?.percent_off ? discounted(pkg.price, discount.percent_off) : pkg.price
  const amount = money(price, packages.currency)

  return (
    <main className="page page--narrow">
      <h1>{m.credits_package_credits({ credits: pkg.credits })}</h1>
      <CreditsSum
        credits={pkg.credits}
        packageBonus={pkg.bonus}
        discount={discount}
        bonus={bonus}
      />
      <PaymentForm
        methods={packages.methods}
        method={method}
        onChoose={setChosen}
        busy={order.busy}
        failed={order.failed}
        waiting={code !== undefined && linked === undefined}
        amount={amount}
        onPay={(e) => void order.pay(e, method)}
      />
    </main>
  )
}

type PayFailure = 'failed' | 'discount' | 'unavailable' | false

/** Places the order for a package with the chosen method and follows it to the checkout. */
function usePlaceOrder(
  creditId: string,
  code: string | undefined,
  discount: Discount | null | undefined,
) {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState<PayFailure>(false)

  async function pay(e: FormEvent, method: string | undefined) {
    e.preventDefault()
    if (!method) return
    setBusy(true)
    setFailed(false)
    const res = await worker().placeOrder(creditId, method, code ?? discount?.code)
    if (!res.ok) {
      setBusy(false)
      // The worker has asked for the discount again: the page shows the price as it is now.
      setFailed(
        isDiscountGone(res.error.code)
          ? 'discount'
          : res.error.code === 'payments_unavailable'
            ? 'unavailable'
            : 'failed',
      )
      return
    }
    await followOrder(res.value, navigate)
  }

  return { busy, failed, pay }
}

/** The payment methods to choose from, the withdrawal consent, a failure and the pay button. */
function PaymentForm({
  methods,
  method,
  onChoose,
  busy,
  failed,
  waiting,
  amount,
  onPay,
}: {
  methods: readonly string[]
  method: string | undefined
  onChoose: (id: string) => void
  busy: boolean
  failed: PayFailure
  /** The linked code's discount is still being looked up. */
  waiting: boolean
  amount: string
  onPay: (e: FormEvent) => void
}) {
  return (
    <form onSubmit={onPay} aria-busy={busy}>
      <fieldset className="methods">
        <legend>{m.credits_method_title()}</legend>
        {methods.map((id) => (
          <label key={id}>
            <input
              type="radio"
              name="method"
              value={id}
              checked={method === id}
              onChange={() => onChoose(id)}
            />
            {methodName(id)}
          </label>
        ))}
      </fieldset>
      <WithdrawalConsent />
      {failed && (
        <p role="alert">
          {failed === 'discount'
            ? m.credits_discount_gone()
            : failed === 'unavailable'
              ? m.credits_unavailable()
              : m.credits_pay_failed()}
        </p>
      )}
      <button type="submit" className="button" disabled={busy || !method || waiting}>
        {m.credits_pay({ amount })}
      </button>
    </form>
  )
}

/**
 * What the member gets, the bonus spelled out with its reasons: "250 credits
 * + 150 bonus = 400 credits", then the package's bonus and the discount's,
 * each with its share; without a bonus just the credits.
 */
function CreditsSum({
  credits,
  packageBonus,
  discount,
  bonus,
}: {
  credits: number
  packageBonus: number
  discount: Discount | null | undefined
  /** Credits the discount adds. */
  bonus: number
}) {
  const total = credits + packageBonus + bonus
  // Counts as the member writes numbers ("1,150"), like the credits beside them.
  const n = (x: number) => new Intl.NumberFormat(getLocale()).format(x)
  if (packageBonus + bonus === 0) return <p>{m.credits_you_get({ credits: total })}</p>
  const percent = discount?.bonus_percent ?? 0
  const why =
    discount?.kind === 'time_bonus'
      ? m.credits_bonus_why_time({ percent, bonus: n(bonus) })
      : discount?.kind === 'welcome'
        ? m.credits_bonus_why_welcome({ percent, bonus: n(bonus) })
        : m.credits_bonus_why_code({ code: discount?.code ?? '', percent, bonus: n(bonus) })
  return (
    <>
      <p className="credits-sum" data-credits-sum={total}>
        {m.credits_sum({
          credits: m.credits_package_credits({ credits }),
          bonus: n(packageBonus + bonus),
          total: m.credits_package_credits({ credits: total }),
        })}
      </p>
      <ul className="credits-sum__why">
        {packageBonus > 0 && <li>{m.credits_bonus_why_package({ bonus: n(packageBonus) })}</li>}
        {bonus > 0 && <li>{why}</li>}
      </ul>
    </>
  )
}
