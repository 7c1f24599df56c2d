import { type FormEvent, useState } from 'react'
import type { FormLoginFailure } from '../../../api/contract/rules/login.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { worker } from '../../data/worker.ts'
import { AppLink, useAppNavigate } from '../../ui/AppLink.tsx'
import { formatDateTime } from '../../ui/format.ts'
import { useIsClient } from '../../ui/use-client.ts'
import type { LoginSearch } from './login-search.ts'

/** The suspension notice: until when, if the server said. */
function suspendedText(until: string | undefined): string {
  const at = until ? Date.parse(until) : Number.NaN
  return Number.isNaN(at)
    ? m.op_mod_login_suspended_plain()
    : m.op_mod_login_suspended({ until: formatDateTime(at) })
}

/** What a login sent without the app failed on (the server's redirect says). */
function failedText(failed: FormLoginFailure | undefined, until: string | undefined) {
  switch (failed) {
    case undefined:
      return null
    case 'invalid':
      return m.login_invalid()
    case 'suspended':
      return suspendedText(until)
    case 'rate_limited':
      return m.login_rate_limited()
    default:
      return m.error_generic()
  }
}

/**
 * The login page, shared by the app's route and a guest's first load (the
 * light entry, app/lander.tsx, where a login is a page load into the app).
 */
export function LoginPage({ search: { redirect, failed, until } }: { search: LoginSearch }) {
  const navigate = useAppNavigate()
  const [error, setError] = useState<string | null>(() => failedText(failed, until))
  const [busy, setBusy] = useState(false)
  const ready = useIsClient()

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    const res = await worker().login(String(form.get('email')), String(form.get('password')))
    setBusy(false)
    if (!res.ok && res.error.code === 'banned') {
      // A closed account: the ban page says what that means and how to object.
      navigate('/pages/ban')
      return
    }
    if (!res.ok) {
      if (res.error.code === 'suspended') {
        // The message is the suspension's end (api/accounts/login-routes.ts).
        setError(suspendedText(res.error.message))
        return
      }
      setError(
        res.error.code === 'offline'
          ? m.error_offline()
          : res.error.code === 'invalid_credentials' || res.error.code === 'invalid_input'
            ? m.login_invalid()
            : res.error.code === 'rate_limited'
              ? m.login_rate_limited()
              : m.error_generic(),
      )
      return
    }
    // The worker stored the member and tells every page (app/data/session.ts).
    navigate(redirect ?? '/members')
  }

  return (
    <main className="page page--narrow">
      <h1>{m.login_title()}</h1>
      <form
        method="post"
        className="form"
        onSubmit={(e) => void submit(e)}
        aria-busy={busy}
        // Once the form has its handlers (AccountStep says why).
        data-ready={ready ? '' : undefined}
      >
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
        <button type="submit" className="button" disabled={busy}>
          {busy ? m.login_submitting() : m.login_submit()}
        </button>
      </form>
      <p className="form__links">
        <AppLink href="/reset-password">{m.login_forgot()}</AppLink>
        <AppLink href="/signup">{m.login_no_account()}</AppLink>
      </p>
    </main>
  )
}
