// DSA transparency figures (Art. 24) for a date range: notices by type,
// decisions by action, the median time to action, appeals and their outcome.
import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type { DsaResponse } from '../../../../../api/contract/operator/moderation.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useConsoleQuery } from '../../../../data/console-client.ts'
import { actionName, typeName } from '../../../../features/operator/moderation.ts'
import { formatNumber } from '../../../../ui/format.ts'
import '../../../../features/operator/moderation.css'
import { TransparencySubmissions } from './-components/TransparencySubmissions.tsx'

export const Route = createFileRoute('/_default/operator/_console/dsa')({ component: DsaPage })

const day = (d: Date) => d.toISOString().slice(0, 10)

/** Seconds as hours with one decimal: time to action is read in hours. */
const hours = (s: number | null) => (s === null ? '—' : formatNumber(Math.round(s / 360) / 10))

function DsaPage() {
  const today = new Date()
  const [range, setRange] = useState({
    from: day(new Date(today.getTime() - 30 * 86_400_000)),
    to: day(today),
  })
  const figures = useConsoleQuery('operatorDsa', range)
  const f = figures.data

  function show(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setRange({ from: String(form.get('from')), to: String(form.get('to')) })
  }

  return (
    <main>
      <h1>{m.op_mod_dsa_title()}</h1>
      <DsaRangeForm range={range} onShow={show} />
      {figures.error && <p role="alert">{m.error_generic()}</p>}
      {f && <DsaFigures f={f} />}
      <TransparencySubmissions />
    </main>
  )
}

/** The from and to dates of the figures, shown on submit. */
function DsaRangeForm({
  range,
  onShow,
}: {
  range: { from: string; to: string }
  onShow: (e: FormEvent<HTMLFormElement>) => void
}) {
  return (
    <form className="console-filters" onSubmit={onShow}>
      <label>
        {m.op_mod_dsa_from()}
        <input type="date" name="from" defaultValue={range.from} required />
      </label>
      <label>
        {m.op_mod_dsa_to()}
        <input type="date" name="to" defaultValue={range.to} required />
      </label>
      <button type="submit" className="button">
        {m.op_mod_dsa_show()}
      </button>
    </form>
  )
}

/** The range's figures as cards: notices by type, decisions by action, appeals. */
function DsaFigures({ f }: { f: DsaResponse }) {
  return (
    <div className="mod-figures">
      <section className="console-card">
        <h2>{m.op_mod_dsa_notices()}</h2>
        <dl>
          {Object.entries(f.notices).map(([k, n]) => (
            <div key={k}>
              <dt>
                {k === 'report'
                  ? typeName('report')
                  : `${typeName('complaint')} (${k.replace('complaint_', '')})`}
              </dt>
              <dd>{formatNumber(n)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="console-card">
        <h2>{m.op_mod_dsa_actions()}</h2>
        <dl>
          {Object.entries(f.actions).map(([k, n]) => (
            <div key={k}>
              <dt>{actionName(k)}</dt>
              <dd>{formatNumber(n)}</dd>
            </div>
          ))}
        </dl>
        <p>{m.op_mod_dsa_median({ hours: hours(f.median_action_seconds) })}</p>
        <p>{m.op_mod_dsa_automated()}</p>
      </section>
      <section className="console-card">
        <h2>{m.op_mod_dsa_appeals()}</h2>
        <dl>
          <div>
            <dt>{m.op_mod_dsa_received()}</dt>
            <dd>{formatNumber(f.appeals.received)}</dd>
          </div>
          <div>
            <dt>{m.op_mod_dsa_upheld()}</dt>
            <dd>{formatNumber(f.appeals.upheld)}</dd>
          </div>
          <div>
            <dt>{m.op_mod_dsa_lifted()}</dt>
            <dd>{formatNumber(f.appeals.lifted)}</dd>
          </div>
          <div>
            <dt>{m.op_mod_dsa_open()}</dt>
            <dd>{formatNumber(f.appeals.open)}</dd>
          </div>
        </dl>
      </section>
    </div>
  )
}
