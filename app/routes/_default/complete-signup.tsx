// /complete-signup (spec §2, public): a member who left the sign-up finishes
// it; /signup resumes at the step spec §4 names for a signed-in member.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { leaveIfSignupComplete } from '../../data/guard.ts'
import { useSession } from '../../data/session.ts'

// A member whose sign-up is complete goes to the members area instead.
export const Route = createFileRoute('/_default/complete-signup')({
  beforeLoad: leaveIfSignupComplete,
  component: CompleteSignup,
})

function CompleteSignup() {
  const { user } = useSession()
  return (
    <main className="page page--narrow">
      <h1>{m.complete_signup_title()}</h1>
      <p>{m.complete_signup_body()}</p>
      {user ? (
        <Link to="/signup" className="button">
          {m.complete_signup_continue()}
        </Link>
      ) : (
        <Link to="/login" search={{ redirect: '/complete-signup' }} className="button">
          {m.complete_signup_login()}
        </Link>
      )}
    </main>
  )
}
