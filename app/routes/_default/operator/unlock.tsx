// /operator/unlock?token= (open, like the sign-in): the link mailed to a
// staff member whose console sign-ins were refused for too many attempts
// (api/operator/unlock.ts). Following it lifts the pause for every address;
// signing in still takes the password and the authenticator app's code.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { call } from '../../../data/console-client.ts'
import { tokenSearch, useTokenLink } from '../../../features/account/tokens.ts'

type Unlock = Awaited<ReturnType<typeof call<'operatorUnlock'>>>
const unlocks = new Map<string, Promise<Unlock>>()

export const Route = createFileRoute('/_default/operator/unlock')({
  validateSearch: tokenSearch,
  component: StaffUnlock,
})

function StaffUnlock() {
  const { token } = Route.useSearch()
  const outcome = useTokenLink(
    token,
    unlocks,
    (t) => call('operatorUnlock', { body: { token: t } }),
    (res) =>
      res.ok
        ? { kind: 'done', value: null }
        : {
            kind: 'failed',
            text:
              res.error === 'offline'
                ? m.error_offline()
                : res.status === 400
                  ? m.op_unlock_invalid()
                  : m.error_generic(),
          },
    m.op_unlock_invalid,
  )

  return (
    <main className="page page--narrow">
      <h1>{m.op_unlock_title()}</h1>
      {outcome.kind === 'busy' && <p role="status">{m.loading()}</p>}
      {outcome.kind === 'done' && <p role="status">{m.op_unlock_done()}</p>}
      {outcome.kind === 'failed' && <p role="alert">{outcome.text}</p>}
      {outcome.kind !== 'busy' && <Link to="/operator/login">{m.op_unlock_to_login()}</Link>}
    </main>
  )
}
