// /mail-change/do?token= (spec §2, public): the link mailed to the new
// address. The change takes effect here, not before.
import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { failureText } from '../../../features/account/forms/failure-text.ts'
import { tokenSearch, useTokenLink } from '../../../features/account/tokens.ts'

type Confirm = Awaited<ReturnType<ReturnType<typeof worker>['confirmMailChange']>>
const confirmations = new Map<string, Promise<Confirm>>()

export const Route = createFileRoute('/_default/mail-change/do')({
  validateSearch: tokenSearch,
  component: MailChangeDo,
})

function MailChangeDo() {
  const { token } = Route.useSearch()
  const outcome = useTokenLink(
    token,
    confirmations,
    (t) => worker().confirmMailChange(t),
    (res) =>
      res.ok
        ? { kind: 'done', value: res.value.email }
        : {
            kind: 'failed',
            text:
              res.error.code === 'invalid_token'
                ? m.mail_change_do_invalid()
                : res.error.code === 'email_taken'
                  ? m.mail_change_do_taken()
                  : failureText(res.error),
          },
    m.mail_change_do_invalid,
  )

  return (
    <main className="page page--narrow">
      <h1>{m.mail_change_do_title()}</h1>
      {outcome.kind === 'busy' && <p role="status">{m.loading()}</p>}
      {outcome.kind === 'done' && (
        <p role="status">{m.mail_change_do_done({ email: outcome.value })}</p>
      )}
      {outcome.kind === 'failed' && <p role="alert">{outcome.text}</p>}
      {outcome.kind !== 'busy' && <Link to="/profile">{m.nav_profile()}</Link>}
    </main>
  )
}
