import { type FormEvent, useState } from 'react'
import type { MemberOrderEntry } from '../../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { call } from '../../../../../data/console-client.ts'
import { formatDateTime, formatMoney, formatNumber } from '../../../../../ui/format.ts'
import { memberFailure, newClientId } from './member-actions.ts'

/** A refund of (part of) one order, in its currency, with a reason; once per form like the adjustment. */
export function RefundForm({ order, onDone }: { order: MemberOrderEntry; onDone: () => void }) {
  const [clientId, setClientId] = useState(newClientId)
  const [amount, setAmount] = useState(((order.amount - order.refunded) / 100).toFixed(2))
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const minor = Math.round(Number(amount) * 100)
    if (!Number.isInteger(minor) || minor <= 0 || !reason.trim()) {
      setMessage(m.op_check_fields())
      return
    }
    setBusy(true)
    const res = await call('operatorRefund', {
      body: { order_id: order.id, client_id: clientId, amount: minor, reason: reason.trim() },
    })
    setBusy(false)
    setMessage(
      res.ok
        ? m.op_mem_balance_now({ balance: formatNumber(res.data.balance) })
        : memberFailure(res),
    )
    if (res.ok) onDone()
  }

  const amountId = `refund-amount-${order.id}`
  return (
    <form className="member-form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
      <h3>
        {m.op_mem_refund()} · {formatDateTime(order.created_at)} ·{' '}
        {formatMoney(order.amount / 100, order.currency)}
      </h3>
      <label htmlFor={amountId}>
        {m.op_mem_refund_amount({ currency: order.currency })}
        <input
          id={amountId}
          type="number"
          min={0.01}
          step={0.01}
          required
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value)
            setClientId(newClientId())
          }}
        />
      </label>
      <label>
        {m.op_mem_reason()}
        <input
          type="text"
          required
          maxLength={500}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value)
            setClientId(newClientId())
          }}
        />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {m.op_mem_refund()}
      </button>
      <p role="status">{message}</p>
    </form>
  )
}
