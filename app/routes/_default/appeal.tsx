// The statement of reasons of a decision that restricted the member (DSA
// Art. 17), opened from its mail, and the appeal against it (DSA Art. 20):
// works logged out and while suspended; another moderator decides.
import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { COMPLAINT_TEXT_MIN } from '../../../api/contract/rules/complaints.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { loadStatement, type StatementResponse, sendAppeal } from '../../data/appeal.ts'
import { actionName, ruleName } from '../../features/operator/moderation.ts'
import { formatDateTime } from '../../ui/format.ts'

type AppealSearch = { token?: string }

export const Route = createFileRoute('/_default/appeal')({
  validateSearch: (s: Record<string, unknown>): AppealSearch =>
    typeof s.token === 'string' ? { token: s.token } : {},
  component: Appeal,
})

function Appeal() {
  const { token } = Route.useSearch()
  const uid = useId()
  const [statement, setStatement] = useState<StatementResponse | null | undefined>(undefined)
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'error'>('idle')

  useEffect(() => {
    if (!token) {
      setStatement(null)
      return
    }
    void loadStatement(token).then(setStatement)
  }, [token])

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (!token) return
    setState('busy')
    const outcome = await sendAppeal(token, String(new FormData(e.currentTarget).get('text')))
    setState(outcome === 'received' ? 'sent' : 'error')
  }

  if (statement === undefined) return <main className="page page--narrow" aria-busy="true" />
  if (statement === null)
    return (
      <main className="page page--narrow">
        <h1>{m.op_mod_appeal_title()}</h1>
        <p role="alert">{m.op_mod_appeal_missing()}</p>
      </main>
    )
  const s = statement
  return (
    <main className="page page--narrow">
      <h1>{m.op_mod_appeal_title()}</h1>
      <StatementFacts s={s} />
      <p>{m.op_mod_appeal_human()}</p>
      {s.lifted_at && <p role="status">{m.op_mod_appeal_lifted()}</p>}
      {s.appeal ? (
        <p role="status">
          {s.appeal.outcome === 'lifted'
            ? m.op_mod_appeal_lifted()
            : s.appeal.outcome === 'upheld'
              ? m.op_mod_appeal_upheld()
              : m.op_mod_appeal_open()}
        </p>
      ) : state === 'sent' ? (
        <p role="status">{m.op_mod_appeal_sent()}</p>
      ) : (
        <form className="form" onSubmit={(e) => void submit(e)} aria-busy={state === 'busy'}>
          {state === 'error' && (
            <p className="form__error" role="alert">
              {m.error_generic()}
            </p>
          )}
          <label htmlFor={`${uid}-text`}>{m.op_mod_appeal_text()}</label>
          <textarea
            id={`${uid}-text`}
            name="text"
            required
            minLength={COMPLAINT_TEXT_MIN}
            maxLength={5000}
            rows={6}
          />
          <button type="submit" className="button" disabled={state === 'busy'}>
            {m.op_mod_appeal_submit()}
          </button>
        </form>
      )}
    </main>
  )
}

/** The decision appealed: the restriction, its rule and the facts. */
function StatementFacts({ s }: { s: StatementResponse }) {
  return (
    <dl>
      <dt>{m.op_mod_appeal_decision()}</dt>
      <dd>
        {actionName(s.kind)}
        {s.ends_at ? ` · ${m.op_mod_appeal_until({ until: formatDateTime(s.ends_at) })}` : ''}
      </dd>
      <dt>{m.op_mod_rule()}</dt>
      <dd>{ruleName(s.rule)}</dd>
      <dt>{m.op_mod_appeal_facts()}</dt>
      <dd style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{s.reason}</dd>
    </dl>
  )
}
