// Delete the account on /profile: the current password confirms it; then the
// local store and the picture cache are wiped and /account-deleted shows.
import { Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { worker } from '../../../../../data/worker.ts'
import { errorText } from '../../../../../features/account/error-text.ts'
import { Field, FormAlert } from '../../../../../features/account/forms/Field.tsx'
import { failureText } from '../../../../../features/account/forms/failure-text.ts'
import { useWorker } from '../../../../../features/account/forms/use-worker.ts'
import '../../../../../features/credits/credits.css'
import { validatePassword } from '../../../../../features/account/validation.ts'

export function DeleteAccount() {
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [alert, setAlert] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // Spec §3 delete_discount: an offer to stay, shown before the account goes.
  const offer = useWorker(() => worker().deleteOffer())?.discount

  async function submit(e: FormEvent) {
    e.preventDefault()
    const problem = validatePassword(password)
    setError(problem ? errorText(problem) : null)
    if (problem) return
    setBusy(true)
    setAlert(null)
    const res = await worker().deleteAccount(password)
    setBusy(false)
    if (!res.ok) {
      if (res.error.code === 'wrong_password') setError(m.profile_delete_wrong_password())
      else setAlert(failureText(res.error))
      return
    }
    // The worker ended the session (store wiped, pictures and badge cleared).
    await navigate({ to: '/account-deleted' })
  }

  return (
    <section aria-labelledby="profile-delete">
      <h2 id="profile-delete">{m.profile_delete_title()}</h2>
      {offer?.percent_off && (
        <p className="discount-banner" data-discount="delete">
          {m.credits_delete_offer({ percent: offer.percent_off, code: offer.code })}{' '}
          <Link
            to="/credits/$creditId/{-$paymentMethod}"
            params={{ creditId: 'popular', paymentMethod: undefined }}
            search={{ code: offer.code }}
          >
            {m.credits_delete_offer_link()}
          </Link>
        </p>
      )}
      <p>{m.profile_delete_body()}</p>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
        <Field id="delete-password" label={m.profile_delete_password()} error={error}>
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
        <button type="submit" className="button button--danger" disabled={busy}>
          {m.profile_delete_submit()}
        </button>
      </form>
    </section>
  )
}
