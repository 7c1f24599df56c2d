// /operator/unlock?token= (open, like the sign-in): the link mailed to a
// staff member whose console sign-ins were refused for too many attempts
// (api/operator/unlock.ts). Following it lifts the pause for every address;
// signing in still takes the password and the authenticator app's code.
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { call } from '../../../data/console-client.ts'
import { once, tokenSearch } from '../../../features/account/tokens.ts'

type Unlock = Awaited<ReturnType<typeof call<'operatorUnlock'>>>
const unlocks = new Map<string, Promise<Unlock>>()

export const Route = createFileRoute('/_default/operator/unlock')({
  validateSearch: tokenSearch,
  component: StaffUnlock,
})

type Outcome = 'busy' | 'done' | 'invalid' | 'offline' | 'error'

function StaffUnlock() {
  const { token } = Route.useSearch()
  const [outcome, setOutcome] = useState<Outcome>('busy')

  useEffect(() => {
    if (!token) {
      setOutcome('invalid')
      return
    }
    let live = true
    void once(unlocks, token, () => call('operatorUnlock', { body: { token } })).then((res) => {
      if (!live) return
      setOutcome(
        res.ok
          ? 'done'
          : res.error === 'offline'
            ? 'offline'
            : res.status === 400
              ? 'invalid'
              : 'error',
      )
    })
    return () => {
      live = false
    }
  }, [token])

  return (
    <main className="page page--narrow">
      <h1>{m.op_unlock_title()}</h1>
      {outcome === 'busy' && <p role="status">{m.loading()}</p>}
      {outcome === 'done' && <p role="status">{m.op_unlock_done()}</p>}
      {outcome === 'invalid' && <p role="alert">{m.op_unlock_invalid()}</p>}
      {outcome === 'offline' && <p role="alert">{m.error_offline()}</p>}
      {outcome === 'error' && <p role="alert">{m.error_generic()}</p>}
      {outcome !== 'busy' && <Link to="/operator/login">{m.op_unlock_to_login()}</Link>}
    </main>
  )
}
