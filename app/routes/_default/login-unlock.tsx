// /login-unlock?token= (public): the link mailed when logins to a member's
// account were refused for too many attempts (api/accounts/login-unlock.ts).
// Following it lifts the pause for every address at once; the member then
// logs in with their password as usual.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../messages/paraglide/messages.js'
import { worker } from '../../data/worker.ts'
import { failureText } from '../../features/account/forms/failure-text.ts'
import { tokenSearch, useTokenLink } from '../../features/account/tokens.ts'

type Unlock = Awaited<ReturnType<ReturnType<typeof worker>['loginUnlock']>>
const unlocks = new Map<string, Promise<Unlock>>()

export const Route = createFileRoute('/_default/login-unlock')({
  validateSearch: tokenSearch,
  component: LoginUnlock,
})

function LoginUnlock() {
  const { token } = Route.useSearch()
  const outcome = useTokenLink(
    token,
    unlocks,
    (t) => worker().loginUnlock(t),
    (res) =>
      res.ok
        ? { kind: 'done', value: null }
        : {
            kind: 'failed',
            text:
              res.error.code === 'invalid_token' || res.error.code === 'invalid_input'
                ? m.login_unlock_invalid()
                : failureText(res.error),
          },
    m.login_unlock_invalid,
  )

  return (
    <main className="page page--narrow">
      <h1>{m.login_unlock_title()}</h1>
      {outcome.kind === 'busy' && <p role="status">{m.loading()}</p>}
      {outcome.kind === 'done' && <p role="status">{m.login_unlock_done()}</p>}
      {outcome.kind === 'failed' && <p role="alert">{outcome.text}</p>}
      {outcome.kind !== 'busy' && <Link to="/login">{m.login_unlock_to_login()}</Link>}
    </main>
  )
}
