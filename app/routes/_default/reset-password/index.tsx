// /reset-password (spec §2, optional auth): ask for a reset link. The answer
// is the same whether or not the address has an account (no enumeration).
import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { errorText } from '../../../features/account/error-text.ts'
import { Field, FormAlert } from '../../../features/account/forms/Field.tsx'
import { failureText } from '../../../features/account/forms/failure-text.ts'
import { EMAIL_MAX, validateEmail } from '../../../features/account/validation.ts'

export const Route = createFileRoute('/_default/reset-password/')({ component: ResetPassword })

function ResetPassword() {
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [alert, setAlert] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const problem = validateEmail(email)
    setError(problem ? errorText(problem) : null)
    if (problem) return
    setBusy(true)
    setAlert(null)
    const res = await worker().requestPasswordReset(email.trim())
    setBusy(false)
    if (res.ok) setSent(true)
    else setAlert(failureText(res.error))
  }

  return (
    <main className="page page--narrow">
      <h1>{m.reset_title()}</h1>
      {sent ? (
        <p role="status">{m.reset_sent()}</p>
      ) : (
        <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
          <p>{m.reset_intro()}</p>
          <Field id="reset-email" label={m.login_email()} error={error}>
            {(p) => (
              <input
                {...p}
                type="email"
                autoComplete="email"
                maxLength={EMAIL_MAX}
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <FormAlert text={alert} />
          <button type="submit" className="button" disabled={busy}>
            {m.reset_submit()}
          </button>
        </form>
      )}
    </main>
  )
}
