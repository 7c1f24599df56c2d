// A member's page in the console: account, profile, sign-up source,
// sessions (end one), transactions (refund), the credit history (adjust),
// and data requests (export, delete). Every action asks for the reason that
// goes to the audit log; the server checks each one's permission again.
import { createFileRoute, Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type {
  CreditAdjustResponse,
  MemberDetail,
  MemberOrderEntry,
  RefundResponse,
} from '../../../../../api/contract/operator/members.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import {
  type CallResult,
  consoleCall,
  useConsoleQuery,
  withQuery,
} from '../../../../data/operator.ts'
import '../../../../features/operator/members.css'
import { formatDate, formatDateTime, formatMoney, formatNumber } from '../../../../ui/format.ts'

export const Route = createFileRoute('/_default/operator/_console/members/$memberId')({
  component: MemberPage,
})

const newId = () => crypto.randomUUID()

function failure(res: CallResult<unknown>): string {
  if (res.ok) return ''
  if (res.error === 'insufficient_credits') return m.op_mem_insufficient()
  if (res.error === 'refund_too_large') return m.op_mem_refund_too_large()
  if (res.status === 400 || res.status === 422) return m.op_check_fields()
  return m.error_generic()
}

/** Asks for the audit log's reason; null when the staff member cancels. */
const askReason = () => {
  const reason = window.prompt(m.op_reason_prompt())?.trim()
  return reason ? reason : null
}

function MemberPage() {
  const { memberId } = Route.useParams()
  const { staff } = Route.useRouteContext()
  const id = Number(memberId)
  const detail = useConsoleQuery<MemberDetail>(
    Number.isSafeInteger(id) && id > 0 ? withQuery('/api/operator/member.php', { id }) : null,
  )
  const [notice, setNotice] = useState<string | null>(null)
  const may = (c: string) => staff.capabilities.includes(c as never)
  const d = detail.data

  async function endSession(sessionId: number) {
    const reason = askReason()
    if (!reason) return
    const res = await consoleCall('POST', '/api/operator/member_session_end.php', {
      member_id: id,
      session_id: sessionId,
      reason,
    })
    setNotice(res.ok ? m.op_mem_done() : failure(res))
    detail.reload()
  }

  function exportData() {
    const reason = askReason()
    if (!reason) return
    const a = document.createElement('a')
    a.href = withQuery('/api/operator/member_export.php', { id, reason })
    a.download = `member-${id}-data.json`
    a.click()
  }

  async function remove() {
    if (!window.confirm(m.op_mem_delete_confirm())) return
    const reason = askReason()
    if (!reason) return
    const res = await consoleCall('POST', '/api/operator/member_delete.php', {
      member_id: id,
      reason,
    })
    setNotice(res.ok ? m.op_mem_done() : failure(res))
    detail.reload()
  }

  if (detail.error) {
    return (
      <main>
        <p role="alert">{m.error_generic()}</p>
      </main>
    )
  }
  if (!d) return <main aria-busy="true" />
  const a = d.account
  return (
    <main className="member-page">
      <p>
        <Link to="/operator/members">{m.op_mem_back()}</Link>
      </p>
      <h1>
        {a.name} <small>#{a.id}</small>{' '}
        {a.deleted && <span className="console-tag">{m.op_mem_deleted()}</span>}
        {a.fictional && <span className="console-tag">{m.op_mem_fictional()}</span>}
        {a.paid_user && <span className="console-tag">{m.op_mem_paid()}</span>}
      </h1>
      <p role="status">{notice}</p>

      <section aria-labelledby="mem-account">
        <h2 id="mem-account">{m.op_mem_account()}</h2>
        <dl className="member-facts">
          <dt>{m.op_mem_col_email()}</dt>
          <dd>{a.email}</dd>
          <dt>{m.op_mem_col_signup()}</dt>
          <dd>{formatDateTime(a.signup_date)}</dd>
          <dt>{m.op_mem_activated()}</dt>
          <dd>{a.activated_at ? formatDateTime(a.activated_at) : m.op_mem_not_activated()}</dd>
          <dt>{m.op_mem_col_country()}</dt>
          <dd>{a.country}</dd>
          <dt>{m.op_mem_language()}</dt>
          <dd>{a.language}</dd>
          <dt>{m.op_mem_last_active()}</dt>
          <dd>{formatDateTime(a.last_active_at)}</dd>
          <dt>{m.op_mem_col_credits()}</dt>
          <dd data-testid="member-credits">{formatNumber(a.credits)}</dd>
          {a.deleted_at && (
            <>
              <dt>{m.op_mem_deleted()}</dt>
              <dd>{formatDateTime(a.deleted_at)}</dd>
            </>
          )}
        </dl>
      </section>

      <section aria-labelledby="mem-profile">
        <h2 id="mem-profile">{m.op_mem_profile()}</h2>
        <dl className="member-facts">
          <dt>{m.op_mem_birth()}</dt>
          <dd>{formatDate(d.profile.date_of_birth)}</dd>
          <dt>{m.op_mem_place()}</dt>
          <dd>{[d.profile.city, d.profile.countryregion].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{m.op_mem_about()}</dt>
          <dd>{d.profile.personal || '—'}</dd>
          {Object.entries(d.profile.profile_fields).map(([k, v]) => (
            <FactRow key={k} term={k} value={v} />
          ))}
          <dt>{m.op_mem_photos()}</dt>
          <dd>{d.profile.photos}</dd>
        </dl>
      </section>

      <section aria-labelledby="mem-source">
        <h2 id="mem-source">{m.op_mem_source()}</h2>
        <pre className="member-source">
          {JSON.stringify(
            { trafficsource: d.signup.trafficsource, signup_meta: d.signup.signup_meta },
            null,
            2,
          )}
        </pre>
      </section>

      <section aria-labelledby="mem-sessions">
        <h2 id="mem-sessions">{m.op_mem_sessions()}</h2>
        <div className="console-table-wrap">
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{m.op_mem_device()}</th>
                <th scope="col">{m.op_col_when()}</th>
                <th scope="col">{m.op_mem_last_seen()}</th>
                <th scope="col">
                  <span className="visually-hidden">{m.op_mem_end_session()}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {d.sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    {[s.browser, s.os].filter(Boolean).join(' · ') || m.op_mem_unknown_device()}
                  </td>
                  <td>{formatDateTime(s.created_at)}</td>
                  <td>{formatDateTime(s.last_seen_at)}</td>
                  <td>
                    {may('members.sessions') && (
                      <button
                        type="button"
                        className="button button--secondary"
                        onClick={() => void endSession(s.id)}
                      >
                        {m.op_mem_end_session()}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
              {d.sessions.length === 0 && (
                <tr>
                  <td colSpan={4}>{m.op_mem_no_sessions()}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="mem-orders">
        <h2 id="mem-orders">{m.op_mem_orders()}</h2>
        <div className="console-table-wrap">
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{m.op_col_when()}</th>
                <th scope="col">{m.op_mem_amount()}</th>
                <th scope="col">{m.op_mem_col_credits()}</th>
                <th scope="col">{m.op_mem_status()}</th>
                <th scope="col">{m.op_mem_refunded()}</th>
              </tr>
            </thead>
            <tbody>
              {d.orders.map((o) => (
                <tr key={o.id}>
                  <td>{formatDateTime(o.created_at)}</td>
                  <td>{formatMoney(o.amount / 100, o.currency)}</td>
                  <td>{formatNumber(o.credits)}</td>
                  <td>
                    <code>{o.status}</code>
                  </td>
                  <td>{formatMoney(o.refunded / 100, o.currency)}</td>
                </tr>
              ))}
              {d.orders.length === 0 && (
                <tr>
                  <td colSpan={5}>{m.op_mem_no_orders()}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {may('payments.refund') &&
          d.orders
            .filter((o) => o.refunded < o.amount && o.status !== 'pending' && o.payment_id)
            .map((o) => <RefundForm key={o.id} order={o} onDone={detail.reload} />)}
      </section>

      <section aria-labelledby="mem-ledger">
        <h2 id="mem-ledger">{m.op_mem_ledger()}</h2>
        {may('credits.adjust') && <AdjustForm memberId={id} onDone={detail.reload} />}
        <p>{m.op_mem_ledger_sum({ sum: formatNumber(d.ledger_sum) })}</p>
        <div className="console-table-wrap">
          <table className="console-table" data-testid="member-ledger">
            <thead>
              <tr>
                <th scope="col">{m.op_col_when()}</th>
                <th scope="col">{m.op_mem_change()}</th>
                <th scope="col">{m.op_col_reason()}</th>
                <th scope="col">{m.op_mem_reference()}</th>
                <th scope="col">{m.op_mem_balance_after()}</th>
              </tr>
            </thead>
            <tbody>
              {d.ledger.map((l) => (
                <tr key={l.id}>
                  <td>{formatDateTime(l.created_at)}</td>
                  <td>{l.delta > 0 ? `+${formatNumber(l.delta)}` : formatNumber(l.delta)}</td>
                  <td>
                    <code>{l.reason}</code>
                  </td>
                  <td>{l.reference ?? '—'}</td>
                  <td>{formatNumber(l.balance_after)}</td>
                </tr>
              ))}
              {d.ledger.length === 0 && (
                <tr>
                  <td colSpan={5}>{m.op_mem_no_ledger()}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>

      {may('members.data') && (
        <section aria-labelledby="mem-data">
          <h2 id="mem-data">{m.op_mem_data()}</h2>
          <p className="member-form">
            <button type="button" className="button button--secondary" onClick={exportData}>
              {m.op_mem_export()}
            </button>
            {!a.deleted && (
              <button type="button" className="button" onClick={() => void remove()}>
                {m.op_mem_delete()}
              </button>
            )}
          </p>
        </section>
      )}
    </main>
  )
}

function FactRow({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  )
}

/**
 * Credits up or down with a reason. The form's client id stays the same until
 * its fields change, so a double click or a repeated click of the same form
 * applies once (the server answers the first result again).
 */
function AdjustForm({ memberId, onDone }: { memberId: number; onDone: () => void }) {
  const [clientId, setClientId] = useState(newId)
  const [delta, setDelta] = useState('')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v)
    setClientId(newId())
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
    const res = await consoleCall<CreditAdjustResponse>('POST', '/api/operator/credit_adjust.php', {
      member_id: memberId,
      client_id: clientId,
      delta: n,
      reason: reason.trim(),
    })
    setBusy(false)
    setMessage(
      res.ok ? m.op_mem_balance_now({ balance: formatNumber(res.data.balance) }) : failure(res),
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

/** A refund of (part of) one order, in its currency, with a reason; once per form like the adjustment. */
function RefundForm({ order, onDone }: { order: MemberOrderEntry; onDone: () => void }) {
  const [clientId, setClientId] = useState(newId)
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
    const res = await consoleCall<RefundResponse>('POST', '/api/operator/refund.php', {
      order_id: order.id,
      client_id: clientId,
      amount: minor,
      reason: reason.trim(),
    })
    setBusy(false)
    setMessage(
      res.ok ? m.op_mem_balance_now({ balance: formatNumber(res.data.balance) }) : failure(res),
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
            setClientId(newId())
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
            setClientId(newId())
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
