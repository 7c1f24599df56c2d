// /activate/done (spec §2, public): where the mailed activation link lands.
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { worker } from '../../../data/worker.ts'

export const Route = createFileRoute('/_default/activate/done')({ component: ActivateDone })

function ActivateDone() {
  const { user } = useSession()
  const signedIn = user !== null
  // The stored user predates the activation: fetch it again.
  useEffect(() => {
    if (signedIn) void worker().refreshUser()
  }, [signedIn])
  return (
    <main className="page page--narrow">
      <h1>{m.activate_done_title()}</h1>
      <p>{m.activate_done_body()}</p>
      {signedIn ? (
        <Link to="/members" className="button">
          {m.activate_done_members()}
        </Link>
      ) : (
        <Link to="/login" className="button">
          {m.activate_done_login()}
        </Link>
      )}
    </main>
  )
}
