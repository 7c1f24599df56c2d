import { lazy, Suspense, useState } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { type session, useSession } from '../data/session.ts'
import { captureNetwork } from '../features/tracking/tracking.ts'
import { AppLink } from './AppLink.tsx'
import { Footer } from './Footer.tsx'
import { mediaUrl } from './media.ts'
import { TopNav } from './TopNav.tsx'

/** The guest's sign-up form, loaded when an error page shows it (not with every page). */
const SignupStart = lazy(() =>
  import('../features/account/forms/SignupStart.tsx').then((mod) => ({
    default: mod.SignupStart,
  })),
)

type User = NonNullable<ReturnType<typeof session.get>['user']>

/**
 * Spec §2 error page: the status code and message; a logged-in member also
 * gets an overview of their profile, a guest the sign-up form. It stands in
 * for the whole page where no layout matched (unknown paths), so it brings
 * the navigation and footer there. Bots never get here: the server answers them with
 * the plain status (api/http/bots.ts isBot).
 */
export function ErrorPage({
  status,
  message,
  chrome = true,
}: {
  status: number
  message: string
  /** false inside a layout that already has the navigation and footer. */
  chrome?: boolean
}) {
  const { user } = useSession()
  const [network] = useState(captureNetwork)
  return (
    <>
      {chrome && <TopNav />}
      <main className="page error-page">
        <div className="page--narrow">
          <p className="error-page__status">{status}</p>
          <h1>{status === 404 ? m.not_found_title() : m.error_title()}</h1>
          <p>{message}</p>
          <p>
            <AppLink href="/">{m.not_found_home()}</AppLink>
          </p>
        </div>
        <div className="page--narrow error-page__more">
          {user ? (
            <ProfileOverview user={user} />
          ) : (
            <Suspense fallback={<p role="status">{m.loading()}</p>}>
              <SignupStart network={network} title={m.error_signup_title()} />
            </Suspense>
          )}
        </div>
      </main>
      {chrome && <Footer />}
    </>
  )
}

function ProfileOverview({ user }: { user: User }) {
  const p = user.profile
  const thumb = user.main_image?.thumb_filename
  return (
    <section className="home__signup error-page__profile" aria-labelledby="error-profile-title">
      <h2 id="error-profile-title">{m.error_profile_title()}</h2>
      <div className="error-page__card">
        {thumb && <img src={mediaUrl(thumb)} alt="" width={96} height={96} />}
        <p>
          <strong>{p.name}</strong>
          <br />
          {[p.age ? m.error_profile_age({ age: p.age }) : null, p.city].filter(Boolean).join(' · ')}
        </p>
      </div>
      <p className="home__ctas">
        <AppLink className="button" href="/members">
          {m.home_cta_members()}
        </AppLink>{' '}
        <AppLink href="/profile">{m.error_profile_edit()}</AppLink>{' '}
        <AppLink href="/chats">{m.nav_chats()}</AppLink>
      </p>
    </section>
  )
}
