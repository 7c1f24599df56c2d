import { type FormEvent, useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { call } from '../../../../../data/console-client.ts'
import { formatNumber } from '../../../../../ui/format.ts'
import { memberFailure, newClientId } from './member-actions.ts'

/**
 * Credits up or down with a reason. The form's client id stays the same until
 * its fields change, so a double click or a repeated click of the same form
 * applies once (the server answers the first result again).
 */
export function AdjustForm({ memberId, onDone }: { memberId: number; onDone: () => void }) {
  const [clientId, setClientId] = useState(newClientId)
  const [delta, setDelta] = useState('')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v)
    setClientId(newClientId())
    setMessage(null)
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    const n = Number(delta)
    if (!Number.isInteger(n) || n === 0 || !reason.trim()) {
      setMessage(m.op_check_fields())
      return
    }
    setBusy(true)
    const res = await call('operatorCreditAdjust', {
      body: { member_id: memberId, client_id: clientId, delta: n, reason: reason.trim() },
    })
    setBusy(false)
    setMessage(
      res.ok
        ? m.op_mem_balance_now({ balance: formatNumber(res.data.balance) })
        : memberFailure(res),
    )
    if (res.ok) onDone()
  }

  return (
    <form className="member-form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
      <h3 className="visually-hidden">{m.op_mem_adjust()}</h3>
      <label>
        {m.op_mem_adjust_delta()}
        <input
          type="number"
          name="delta"
          step={1}
          required
          value={delta}
          onChange={(e) => edit(setDelta)(e.target.value)}
        />
      </label>
      <label>
        {m.op_mem_reason()}
        <input
          type="text"
          name="reason"
          required
          maxLength={500}
          value={reason}
          onChange={(e) => edit(setReason)(e.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {m.op_mem_adjust()}
      </button>
      <p role="status" data-testid="adjust-status">
        {message}
      </p>
    </form>
  )
}
