// Reporting a member (or a conversation with them) to the site's moderators:
// a reason and, if the member wants, their own words. The receipt number is
// shown once the report is stored.
import { useState } from 'react'
import { REPORT_REASONS } from '../../api/contract/rules/messages.ts'
import { m } from '../../messages/paraglide/messages.js'
import { worker } from '../data/worker.ts'
import { Modal } from '../features/account/forms/Modal.tsx'

const REASONS = REPORT_REASONS
type Reason = (typeof REASONS)[number]

const reasonLabel = (r: Reason): string =>
  ({
    spam: m.report_reason_spam(),
    scam: m.report_reason_scam(),
    harassment: m.report_reason_harassment(),
    inappropriate: m.report_reason_inappropriate(),
    underage: m.report_reason_underage(),
    fake_profile: m.report_reason_fake_profile(),
    other: m.report_reason_other(),
  })[r]

export function ReportDialog({
  profile,
  message,
  onClose,
}: {
  profile: { id: number; name: string }
  /** The message reported (a photo in a chat): hidden for the reporter at once. */
  message?: number | undefined
  onClose: () => void
}) {
  const [reason, setReason] = useState<Reason>('spam')
  const [text, setText] = useState('')
  const [receipt, setReceipt] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit() {
    setBusy(true)
    const res = await worker().report(profile.id, reason, text, message)
    setBusy(false)
    if (res.ok) setReceipt(res.value.report.id)
    else setError(res.error.code === 'offline' ? m.error_offline() : m.error_generic())
  }

  return (
    <Modal open title={m.report_title({ name: profile.name })} onClose={onClose}>
      {receipt !== null ? (
        <p role="status">{m.report_done({ id: receipt })}</p>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault()
            void submit()
          }}
          aria-busy={busy}
        >
          <label htmlFor="report-reason">{m.report_reason()}</label>
          <select
            id="report-reason"
            value={reason}
            onChange={(e) => setReason(e.target.value as Reason)}
          >
            {REASONS.map((r) => (
              <option key={r} value={r}>
                {reasonLabel(r)}
              </option>
            ))}
          </select>
          <label htmlFor="report-text">{m.report_text()}</label>
          <textarea
            id="report-text"
            rows={4}
            maxLength={2000}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {error && (
            <p role="alert" className="form__error">
              {error}
            </p>
          )}
          <button type="submit" className="button" disabled={busy}>
            {m.report_send()}
          </button>
        </form>
      )}
    </Modal>
  )
}
