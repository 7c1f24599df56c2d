// The console's sign-in: password and the authenticator app's code. The only
// console page anyone can open; the server answers 404 to the others.
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { call } from '../../../data/console-client.ts'

export const Route = createFileRoute('/_default/operator/login')({
  component: StaffLogin,
})

function StaffLogin() {
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    const res = await call('operatorLogin', {
      body: {
        email: String(form.get('email')),
        password: String(form.get('password')),
        code: String(form.get('code')).replace(/\s/g, ''),
      },
    })
    setBusy(false)
    if (res.ok) {
      await navigate({ to: '/operator' })
      return
    }
    setError(
      res.error === 'offline'
        ? m.error_offline()
        : res.status === 429
          ? m.op_login_locked()
          : res.status === 400 && res.field === 'code'
            ? m.op_login_code_format()
            : res.status === 401 || res.status === 400
              ? m.op_login_invalid()
              : m.error_generic(),
    )
  }

  return (
    <main className="page page--narrow">
      <h1>{m.op_login_title()}</h1>
      <p>{m.op_login_intro()}</p>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <label>
          {m.login_email()}
          <input name="email" type="email" autoComplete="username" required maxLength={254} />
        </label>
        <label>
          {m.login_password()}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <label>
          {m.op_login_code()}
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\s*(\d\s*){6}"
            required
            maxLength={7}
          />
        </label>
        <button type="submit" className="button" disabled={busy}>
          {busy ? m.login_submitting() : m.op_login_submit()}
        </button>
      </form>
    </main>
  )
}
