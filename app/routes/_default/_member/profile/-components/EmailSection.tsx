// Change the email address on /profile (anchor #email, linked from sign-up
// step 7): the pending address, if any, and the change form.
import { useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { worker } from '../../../../../data/worker.ts'
import { MailChangeForm } from '../../../../../features/account/forms/MailChangeForm.tsx'

export function EmailSection({
  email,
  pending,
  onChange,
}: {
  email: string
  pending: string | null
  onChange: () => void
}) {
  const [busy, setBusy] = useState(false)
  return (
    <section id="email" aria-labelledby="profile-email">
      <h2 id="profile-email">{m.mail_change_title()}</h2>
      <p>{m.mail_change_current({ email })}</p>
      {pending && (
        <p className="note">
          {m.mail_change_pending({ email: pending })}{' '}
          <button
            type="button"
            className="link-button"
            disabled={busy}
            onClick={async () => {
              setBusy(true)
              await worker().cancelMailChange()
              setBusy(false)
              onChange()
            }}
          >
            {m.mail_change_cancel()}
          </button>
        </p>
      )}
      <MailChangeForm />
    </section>
  )
}
