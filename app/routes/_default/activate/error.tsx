// /activate/error (spec §2, public): a used, expired or unknown activation link.
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { worker } from '../../../data/worker.ts'
import { failureText } from '../../../features/account/forms/failure-text.ts'

export const Route = createFileRoute('/_default/activate/error')({ component: ActivateError })

function ActivateError() {
  const { user } = useSession()
  const [status, setStatus] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function resend() {
    setBusy(true)
    const res = await worker().resendActivation()
    setBusy(false)
    setStatus(
      !res.ok
        ? failureText(res.error)
        : res.value.status === 'already_active'
          ? m.activate_done_title()
          : m.activate_resent(),
    )
  }

  return (
    <main className="page page--narrow">
      <h1>{m.activate_error_title()}</h1>
      <p>{m.activate_error_body()}</p>
      {user ? (
        <button type="button" className="button" disabled={busy} onClick={() => void resend()}>
          {m.activate_resend()}
        </button>
      ) : (
        <Link to="/login" className="button">
          {m.activate_error_login()}
        </Link>
      )}
      <p role="status">{status}</p>
    </main>
  )
}
