import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../messages/paraglide/messages.js'
import { useSession } from '../session.ts'

/** Home (optional auth). Spec §6: search shows for logged-in members. */
export const Route = createFileRoute('/')({ component: Home })

function Home() {
  const { user } = useSession()
  return (
    <main className="page page--narrow home">
      <h1>{m.home_title()}</h1>
      <p>{m.home_intro()}</p>
      {user ? (
        <Link className="button" to="/members">
          {m.home_cta_members()}
        </Link>
      ) : (
        <Link className="button" to="/login">
          {m.home_cta_login()}
        </Link>
      )}
    </main>
  )
}
