// Change the email address: the current password and the new
// address; the new address gets a link to /mail-change/do and the change
// takes effect only when it is followed.
import { type FormEvent, useId, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { errorText } from '../error-text.ts'
import { EMAIL_MAX, validateEmail, validatePassword } from '../validation.ts'
import { Field, FormAlert } from './Field.tsx'
import { failureText } from './failure-text.ts'

export function MailChangeForm({ onSent }: { onSent?: (email: string) => void }) {
  const uid = useId()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({})
  const [alert, setAlert] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const emailProblem = validateEmail(email)
    const passwordProblem = validatePassword(password)
    setErrors({
      ...(emailProblem ? { email: errorText(emailProblem) } : {}),
      ...(passwordProblem ? { password: errorText(passwordProblem) } : {}),
    })
    if (emailProblem || passwordProblem) return
    setBusy(true)
    setAlert(null)
    setSent(null)
    const address = email.trim()
    const res = await worker().requestMailChange(address, password)
    setBusy(false)
    if (res.ok) {
      setSent(address)
      setPassword('')
      onSent?.(address)
      return
    }
    if (res.error.code === 'wrong_password') setErrors({ password: m.mail_change_wrong_password() })
    else if (res.error.code === 'same_email') setErrors({ email: m.mail_change_same() })
    else if (res.error.field === 'email') setErrors({ email: errorText({ code: 'email_invalid' }) })
    else setAlert(failureText(res.error))
  }

  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
      <Field id={`${uid}-email`} label={m.mail_change_new()} error={errors.email}>
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
      <Field id={`${uid}-password`} label={m.mail_change_password()} error={errors.password}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <FormAlert text={alert} />
      {sent && (
        <p className="form__status" role="status">
          {m.mail_change_sent({ email: sent })}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        {m.mail_change_submit()}
      </button>
    </form>
  )
}
