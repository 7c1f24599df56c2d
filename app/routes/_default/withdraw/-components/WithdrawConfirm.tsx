import { useState } from 'react'
import type { Purchase, WithdrawResponse } from '../../../../../api/contract/index.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { money } from '../../../../features/credits/money.ts'
import { WithdrawalState } from './WithdrawalState.tsx'

type Outcome = { ok: true; value: WithdrawResponse } | { ok: false; error: { code: string } }

/** The confirmation step of a withdrawal: what is withdrawn from, then the outcome. */
export function WithdrawConfirm({
  purchase,
  confirm,
  onCancel,
}: {
  purchase: Purchase
  confirm: () => Promise<Outcome>
  onCancel: (() => void) | undefined
}) {
  const [state, setState] = useState<'idle' | 'busy' | 'error' | 'over'>('idle')
  const [done, setDone] = useState<WithdrawResponse | undefined>(undefined)
  async function go() {
    setState('busy')
    const res = await confirm()
    if (res.ok) setDone(res.value)
    else setState(res.error.code === 'withdrawal_period_over' ? 'over' : 'error')
  }
  if (done)
    return (
      <section aria-labelledby="withdraw-done" className="withdraw__done">
        <h2 id="withdraw-done">{m.withdraw_done()}</h2>
        <WithdrawalState
          purchase={{ ...purchase, withdrawable: false, withdrawal: done.withdrawal }}
        />
      </section>
    )
  return (
    <section aria-labelledby="withdraw-confirm" className="withdraw__confirm">
      <h2 id="withdraw-confirm">{m.withdraw_confirm_title()}</h2>
      <p>
        {m.withdraw_confirm_text({
          credits: purchase.credits,
          amount: money(purchase.amount, purchase.currency),
          order: purchase.id,
        })}
      </p>
      {state === 'error' && <p role="alert">{m.withdraw_error()}</p>}
      {state === 'over' && <p role="alert">{m.withdraw_period_over()}</p>}
      <p className="withdraw__actions">
        <button
          type="button"
          className="button"
          disabled={state === 'busy'}
          onClick={() => void go()}
        >
          {m.withdraw_confirm_button()}
        </button>
        {onCancel && (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {m.withdraw_cancel()}
          </button>
        )}
      </p>
    </section>
  )
}
