// /credits/repeat-order (spec §2, required): the last package again in one
// step: charged on the mandate where the provider holds one, else through
// the checkout with the same package and method.
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useCreditHistory, usePackages } from '../../../../data/usePayments.ts'
import { worker } from '../../../../data/worker.ts'
import { methodName } from '../../../../features/credits/methods.ts'
import { money } from '../../../../features/credits/money.ts'
import { WithdrawalConsent } from '../../../../features/credits/WithdrawalConsent.tsx'
import { followOrder } from './-components/after-order.ts'

export const Route = createFileRoute('/_default/_member/credits/repeat-order')({
  component: RepeatOrder,
})

function RepeatOrder() {
  const navigate = useNavigate()
  const { history } = useCreditHistory()
  const packages = usePackages()
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  const last = history?.last_order
  const pkg = packages?.packages.find((p) => p.id === last?.package)

  async function buy(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setFailed(false)
    const res = await worker().repeatOrder()
    if (!res.ok) {
      setBusy(false)
      setFailed(true)
      return
    }
    await followOrder(res.value, navigate)
  }

  return (
    <main className="page page--narrow">
      <h1>{m.credits_repeat_title()}</h1>
      {history && !last && (
        <p>
          {m.credits_repeat_none()} <Link to="/credits">{m.credits_title()}</Link>
        </p>
      )}
      {last && pkg && packages && (
        <>
          <p>
            {m.credits_repeat_body({
              credits: pkg.credits + pkg.bonus,
              method: methodName(last.method),
            })}
          </p>
          <form onSubmit={(e) => void buy(e)} aria-busy={busy}>
            <WithdrawalConsent />
            {failed && <p role="alert">{m.credits_pay_failed()}</p>}
            <button type="submit" className="button" disabled={busy}>
              {m.credits_repeat_submit({ amount: money(pkg.price, packages.currency) })}
            </button>
          </form>
        </>
      )}
    </main>
  )
}
