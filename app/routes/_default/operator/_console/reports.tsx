// Traffic report (reports.traffic): per day, site and source (network, sub
// id, lander) the lander visits, sign-ups, activations, first purchases and
// revenue, for a date range and all sites or one; a bar chart of sign-ups per
// day; the same rows as a CSV download.
import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type { ReportResponse, ReportRow } from '../../../../../api/contract/operator/sites.ts'

/** The report's filter value of the server-wide site (the contract's SERVER_WIDE_SITE). */
const SERVER_WIDE_SITE = '_'

import { m } from '../../../../../messages/paraglide/messages.js'
import { useConsoleLink, useConsoleQuery } from '../../../../data/console-client.ts'
import { formatMoney, formatNumber } from '../../../../ui/format.ts'
import '../../../../features/operator/sites.css'

export const Route = createFileRoute('/_default/operator/_console/reports')({
  component: ReportsPage,
})

const revenueText = (r: ReportRow['revenue']) =>
  Object.entries(r)
    .map(([currency, cents]) => formatMoney(cents / 100, currency))
    .join(', ') || '—'

/** Credits spent by action in the member's words: "Message sent 10, Photo sent 60". */
const SPENT_LABELS: Record<string, () => string> = {
  message: m.credits_reason_message,
  photo: m.credits_reason_photo,
  voice: m.credits_reason_voice,
  unlock: m.credits_reason_unlock,
  gift: m.credits_reason_gift,
}
const spentText = (s: ReportRow['spent']) =>
  Object.entries(s)
    .map(
      ([action, credits]) =>
        `${(SPENT_LABELS[action] ?? (() => action))()} ${formatNumber(credits)}`,
    )
    .join(', ') || '—'

/** Sign-ups per day as bars; the table below carries the same numbers for screen readers. */
function SignupChart({ rows }: { rows: ReportRow[] }) {
  const byDay = new Map<string, number>()
  for (const r of rows) byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.signups)
  const days = [...byDay.entries()]
  if (days.length === 0) return null
  const max = Math.max(1, ...days.map(([, n]) => n))
  const barW = 20
  const width = days.length * barW
  const height = 120
  return (
    <svg
      className="report-chart"
      viewBox={`0 0 ${width} ${height + 14}`}
      role="img"
      aria-labelledby="report-chart-title"
      preserveAspectRatio="xMinYMin meet"
    >
      <title id="report-chart-title">{m.op_site_report_chart()}</title>
      {days.map(([day, n], i) => {
        const h = Math.round((n / max) * height)
        return (
          <g key={day}>
            <rect x={i * barW + 2} y={height - h} width={barW - 4} height={h}>
              <title>{`${day}: ${formatNumber(n)}`}</title>
            </rect>
            <text x={i * barW + barW / 2} y={height + 11} textAnchor="middle">
              {day.slice(8)}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

function ReportsPage() {
  const [range, setRange] = useState<{ from?: string; to?: string; site?: string }>({})
  const report = useConsoleQuery('operatorReport', range)
  const data = report.data
  const csv = useConsoleLink(
    'operatorReportCsv',
    data ? { from: data.from, to: data.to, ...(range.site ? { site: range.site } : {}) } : {},
  )

  function filter(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const from = String(form.get('from') ?? '')
    const to = String(form.get('to') ?? '')
    const site = String(form.get('site') ?? '')
    setRange({ ...(from ? { from } : {}), ...(to ? { to } : {}), ...(site ? { site } : {}) })
  }

  return (
    <main>
      <h1>{m.op_site_report_title()}</h1>
      <p>{m.op_site_report_intro()}</p>
      <ReportFilters data={data} site={range.site} csv={csv} onFilter={filter} />
      {report.error && <p role="alert">{m.error_generic()}</p>}
      {data && <SignupChart rows={data.rows} />}
      <ReportTable data={data} />
    </main>
  )
}

/** The range and site of the report, shown on submit, and the CSV download of what is shown. */
function ReportFilters({
  data,
  site,
  csv,
  onFilter,
}: {
  data: ReportResponse | undefined
  site: string | undefined
  csv: string | undefined
  onFilter: (e: FormEvent<HTMLFormElement>) => void
}) {
  return (
    <form className="console-filters" onSubmit={onFilter}>
      <label>
        {m.op_site_report_from()}
        <input name="from" type="date" defaultValue={data?.from} key={`f${data?.from}`} />
      </label>
      <label>
        {m.op_site_report_to()}
        <input name="to" type="date" defaultValue={data?.to} key={`t${data?.to}`} />
      </label>
      <label>
        {m.op_site_report_site()}
        <select name="site" defaultValue={site ?? ''}>
          <option value="">{m.op_site_report_all_sites()}</option>
          <option value={SERVER_WIDE_SITE}>{m.op_site_report_default_site()}</option>
          {data?.sites.map((host) => (
            <option key={host} value={host}>
              {host}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        {m.op_site_report_show()}
      </button>
      {data && csv && (
        <a className="button button--secondary" href={csv} download>
          {m.op_site_report_csv()}
        </a>
      )}
    </form>
  )
}

/** The report's rows per day, site and source, or that the range has none. */
function ReportTable({ data }: { data: ReportResponse | undefined }) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <caption className="visually-hidden">{m.op_site_report_title()}</caption>
        <thead>
          <tr>
            <th scope="col">{m.op_site_report_day()}</th>
            <th scope="col">{m.op_site_report_site()}</th>
            <th scope="col">{m.op_site_report_network()}</th>
            <th scope="col">{m.op_site_report_sub1()}</th>
            <th scope="col">{m.op_site_report_lander()}</th>
            <th scope="col">{m.op_site_report_visits()}</th>
            <th scope="col">{m.op_site_report_signups()}</th>
            <th scope="col">{m.op_site_report_activations()}</th>
            <th scope="col">{m.op_site_report_first_purchases()}</th>
            <th scope="col">{m.op_site_report_revenue()}</th>
            <th scope="col">{m.op_site_report_spent()}</th>
          </tr>
        </thead>
        <tbody>
          {data?.rows.map((r) => (
            <tr key={`${r.day}|${r.site}|${r.network}|${r.sub1}|${r.lander}`}>
              <td>{r.day}</td>
              <td>{r.site === '' ? m.op_site_report_default_site() : (r.site ?? '—')}</td>
              <td>{r.network ?? '—'}</td>
              <td>{r.sub1 ?? '—'}</td>
              <td>{r.lander ?? '—'}</td>
              <td>{formatNumber(r.visits)}</td>
              <td>{formatNumber(r.signups)}</td>
              <td>{formatNumber(r.activations)}</td>
              <td>{formatNumber(r.first_purchases)}</td>
              <td>{revenueText(r.revenue)}</td>
              <td>{spentText(r.spent)}</td>
            </tr>
          ))}
          {data && data.rows.length === 0 && (
            <tr>
              <td colSpan={11}>{m.op_site_report_empty()}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}
