import { useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { session } from '../../../data/session.ts'
import { useSettings } from '../../../data/useSettings.ts'
import { AppLink, useAppNavigate } from '../../../ui/AppLink.tsx'
import type { NetworkEntry } from '../../tracking/tracking.ts'
import { signupsEnabled } from '../signup-steps.ts'
import { AccountStep } from './AccountStep.tsx'

/**
 * Sign-up step 0 outside /signup (the guest home, the error page); the flow
 * goes on at /signup once the account exists. Spec §2: where sign-ups are
 * closed, the invite-only notice with a login link instead.
 */
export function SignupStart({ network, title }: { network: NetworkEntry | null; title?: string }) {
  const settings = useSettings()
  const navigate = useAppNavigate()
  const [closed, setClosed] = useState(false)
  const [mailedTo, setMailedTo] = useState<string | null>(null)
  if (!settings) return null
  if (closed || !signupsEnabled(settings.signups, network)) {
    // Spec §2: sign-ups closed: the invite-only notice with a login link.
    return (
      <section className="home__signup card" aria-labelledby="home-signup-title">
        <h2 id="home-signup-title">{m.signup_invite_only_title()}</h2>
        <p>{m.signup_invite_only_body()}</p>
        <AppLink href="/login">{m.signup_invite_only_login()}</AppLink>
      </section>
    )
  }
  return (
    <section className="home__signup card" aria-labelledby="home-signup-title">
      <h2 id="home-signup-title">{title ?? m.home_signup_title()}</h2>
      {mailedTo ? (
        <p role="status">{m.signup_check_mail_body({ email: mailedTo })}</p>
      ) : (
        <AccountStep
          site={settings.name}
          company={settings.company_name}
          network={network}
          onCreated={(user, email) => {
            // The new member resumes the flow at step 1 (spec §4): /signup
            // resumes only for a member it knows, so the mirror hears first.
            if (user) {
              session.adopt(user)
              navigate('/signup')
            } else setMailedTo(email)
          }}
          onClosed={() => setClosed(true)}
        />
      )}
      <p className="home__login">
        <AppLink href="/login">{m.home_cta_login_existing()}</AppLink>
      </p>
    </section>
  )
}
