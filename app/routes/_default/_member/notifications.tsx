// /notifications (spec §2, required): push on this device, what notifies,
// a test notification and installing the app (docs/push.md). The hash #email-change-incorrect is
// where the mail to the old address points when a change of address was
// asked for: cancel it, choose a new password, or correct the address.
import { createFileRoute, Link, useLocation } from '@tanstack/react-router'
import { useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { failureText } from '../../../features/account/forms/failure-text.ts'
import { MailChangeForm } from '../../../features/account/forms/MailChangeForm.tsx'
import { useWorker } from '../../../features/account/forms/use-worker.ts'
import { PrivacySettings } from '../../../features/presence/PrivacySettings.tsx'
import { PushSettings } from '../../../features/push/PushSettings.tsx'

const EMAIL_CHANGE_INCORRECT = 'email-change-incorrect'

export const Route = createFileRoute('/_default/_member/notifications')({
  component: Notifications,
})

function Notifications() {
  const { hash } = useLocation()
  return (
    <main className="page page--narrow">
      <h1>{m.notifications_title()}</h1>
      {hash === EMAIL_CHANGE_INCORRECT ? <EmailChangeIncorrect /> : <PushSettings />}
      {hash !== EMAIL_CHANGE_INCORRECT && <PrivacySettings />}
    </main>
  )
}

function EmailChangeIncorrect() {
  const [version, setVersion] = useState(0)
  const pending = useWorker(() => worker().pendingMailChange(), version)
  const [status, setStatus] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function cancel() {
    setBusy(true)
    const res = await worker().cancelMailChange()
    setBusy(false)
    setStatus(res.ok ? m.email_incorrect_cancelled() : failureText(res.error))
    setVersion((v) => v + 1)
  }

  return (
    <section id={EMAIL_CHANGE_INCORRECT} aria-labelledby="email-incorrect-title">
      <h2 id="email-incorrect-title">{m.email_incorrect_title()}</h2>
      <p>{m.email_incorrect_body()}</p>
      {pending?.pending_email ? (
        <p>
          {m.mail_change_pending({ email: pending.pending_email })}{' '}
          <button type="button" className="button" disabled={busy} onClick={() => void cancel()}>
            {m.mail_change_cancel()}
          </button>
        </p>
      ) : (
        pending && <p>{m.email_incorrect_none()}</p>
      )}
      <p role="status">{status}</p>
      <p>
        <Link to="/reset-password">{m.email_incorrect_reset()}</Link>
      </p>
      <h3>{m.mail_change_title()}</h3>
      <MailChangeForm onSent={() => setVersion((v) => v + 1)} />
    </section>
  )
}
