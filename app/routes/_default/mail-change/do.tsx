// /mail-change/do?token= (spec §2, public): the link mailed to the new
// address. The change takes effect here, not before.
import { createFileRoute, Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { failureText } from '../../../features/account/forms/failure-text.ts'
import { once, tokenSearch } from '../../../features/account/tokens.ts'

type Confirm = Awaited<ReturnType<ReturnType<typeof worker>['confirmMailChange']>>
const confirmations = new Map<string, Promise<Confirm>>()

export const Route = createFileRoute('/_default/mail-change/do')({
  validateSearch: tokenSearch,
  component: MailChangeDo,
})

type Outcome = { kind: 'busy' } | { kind: 'done'; email: string } | { kind: 'failed'; text: string }

function MailChangeDo() {
  const { token } = Route.useSearch()
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'busy' })

  useEffect(() => {
    if (!token) {
      setOutcome({ kind: 'failed', text: m.mail_change_do_invalid() })
      return
    }
    let live = true
    void once(confirmations, token, () => worker().confirmMailChange(token)).then((res) => {
      if (!live) return
      if (res.ok) setOutcome({ kind: 'done', email: res.value.email })
      else
        setOutcome({
          kind: 'failed',
          text:
            res.error.code === 'invalid_token'
              ? m.mail_change_do_invalid()
              : res.error.code === 'email_taken'
                ? m.mail_change_do_taken()
                : failureText(res.error),
        })
    })
    return () => {
      live = false
    }
  }, [token])

  return (
    <main className="page page--narrow">
      <h1>{m.mail_change_do_title()}</h1>
      {outcome.kind === 'busy' && <p role="status">{m.loading()}</p>}
      {outcome.kind === 'done' && (
        <p role="status">{m.mail_change_do_done({ email: outcome.email })}</p>
      )}
      {outcome.kind === 'failed' && <p role="alert">{outcome.text}</p>}
      {outcome.kind !== 'busy' && <Link to="/profile">{m.nav_profile()}</Link>}
    </main>
  )
}
