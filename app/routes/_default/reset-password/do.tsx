// /reset-password/do?token= (spec §2, optional auth): the mailed link. A new
// password ends every other session of the member and signs this browser in.
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { errorText } from '../../../features/account/error-text.ts'
import { Field, FormAlert } from '../../../features/account/forms/Field.tsx'
import { failureText } from '../../../features/account/forms/failure-text.ts'
import { tokenSearch } from '../../../features/account/tokens.ts'
import { validateNewPassword } from '../../../features/account/validation.ts'

export const Route = createFileRoute('/_default/reset-password/do')({
  validateSearch: tokenSearch,
  component: ResetPasswordDo,
})

function ResetPasswordDo() {
  const { token } = Route.useSearch()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [alert, setAlert] = useState<string | null>(null)
  const [invalid, setInvalid] = useState(false)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const problem = validateNewPassword(password)
    setError(problem ? errorText(problem) : null)
    if (problem || !token) return
    setBusy(true)
    setAlert(null)
    const res = await worker().resetPassword(token, password)
    setBusy(false)
    if (res.ok) {
      await navigate({ to: '/members' })
      return
    }
    if (res.error.code === 'invalid_token') setInvalid(true)
    else setAlert(failureText(res.error))
  }

  if (!token || invalid) {
    return (
      <main className="page page--narrow">
        <h1>{m.reset_do_title()}</h1>
        <p role="alert">{token ? m.reset_do_invalid() : m.reset_do_missing()}</p>
        <Link to="/reset-password">{m.reset_do_new_link()}</Link>
      </main>
    )
  }
  return (
    <main className="page page--narrow">
      <h1>{m.reset_do_title()}</h1>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
        <Field id="reset-password" label={m.reset_do_password()} error={error}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <FormAlert text={alert} />
        <button type="submit" className="button" disabled={busy}>
          {m.reset_do_submit()}
        </button>
      </form>
    </main>
  )
}
