// The operator's traffic report and the job queue as the console shows them.
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { signupFactsSql } from '../accounts/index.ts'
import type {
  JobEntry,
  JobsResponse,
  ReportResponse,
  ReportRow,
} from '../contract/operator/sites.ts'
import { SERVER_WIDE_SITE } from '../contract/operator/sites.ts'
import { firstPurchasesSql, spendsSql } from '../credits/index.ts'
import { type JobRow, jobById, listJobs } from '../jobs/queue.ts'
import { paidOrdersSql } from '../payments/index.ts'
import { siteKeys } from '../settings/index.ts'
import { landerVisitsSql } from '../traffic/index.ts'

const DAY_MS = 24 * 60 * 60_000
/** The report without dates: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30
/** At most this many days in one report (a year and a day). */
export const REPORT_MAX_DAYS = 366

const isoDay = (d: Date) => d.toISOString().slice(0, 10)

/** The report query's site filter as trafficReport takes it: '' the server-wide site, null all. */
export const siteFilter = (q: { site?: string | undefined }): string | null =>
  q.site === undefined ? null : q.site === SERVER_WIDE_SITE ? '' : q.site

/** The days a query asks for, in order, within REPORT_MAX_DAYS; null if `from` is after `to`. */
export function reportRange(
  q: { from?: string | undefined; to?: string | undefined },
  now: Date,
): { from: string; to: string } | null {
  const to = q.to ?? isoDay(now)
  const from = q.from ?? isoDay(new Date(Date.parse(to) - (REPORT_DEFAULT_DAYS - 1) * DAY_MS))
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS
  if (Number.isNaN(days) || days < 0 || days >= REPORT_MAX_DAYS) return null
  return { from, to }
}

/**
 * Per day (UTC), site and traffic source (network, sub id and lander, as the
 * traffic_report view takes them from members.trafficsource, the lander else
 * from the sign-up form's path): lander visits (lander_visits), and sign-ups,
 * activations and first purchases counted on the day they happened, and the
 * revenue of paid orders (by the day they were paid; refunded and
 * charged-back orders do not count). A member's activation, purchases and
 * revenue count for the site they signed up on (members.signup_site).
 * `site`: one site only ('' the server-wide one), or null for all.
 */
export async function trafficReport(
  db: Db,
  range: { from: string; to: string; site?: string | null },
): Promise<ReportResponse> {
  const start = `${range.from}T00:00:00Z`
  const end = new Date(Date.parse(range.to) + DAY_MS).toISOString()
  const site = range.site ?? null
  const result = await db.execute(sql`
    WITH m AS (${signupFactsSql()}
    ), fp AS (${firstPurchasesSql()}
    ), ev AS (
      SELECT m.id, m.signup_date AS at, 'signup' AS kind, NULL::text AS currency, 0::bigint AS amount
      FROM m WHERE m.signup_date >= ${start}::timestamptz AND m.signup_date < ${end}::timestamptz
      UNION ALL
      SELECT m.id, m.activated_at, 'activation', NULL, 0
      FROM m WHERE m.activated_at >= ${start}::timestamptz AND m.activated_at < ${end}::timestamptz
      UNION ALL
      SELECT fp.member_id, fp.at, 'first_purchase', NULL, 0
      FROM fp WHERE fp.at >= ${start}::timestamptz AND fp.at < ${end}::timestamptz
      UNION ALL
      SELECT o.member_id, o.granted_at, 'revenue', o.currency, o.amount
      FROM (${paidOrdersSql(start, end)}) o
      UNION ALL
      -- A spend's action rides in the currency column: credits by action.
      SELECT s.member_id, s.at, 'spent', s.action, s.credits
      FROM (${spendsSql(start, end)}) s
    ), facts AS (
      SELECT
        to_char(ev.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
        m.site, m.network, m.sub1, m.lander, ev.kind, ev.currency,
        count(*) AS n,
        coalesce(sum(ev.amount), 0) AS amount
      FROM ev JOIN m ON m.id = ev.id
      GROUP BY 1, m.site, m.network, m.sub1, m.lander, ev.kind, ev.currency
      UNION ALL
      SELECT
        to_char(v.day, 'YYYY-MM-DD'),
        v.site, nullif(v.network, ''), nullif(v.sub1, ''), v.lander, 'visit', NULL,
        sum(v.visits), 0
      FROM (${landerVisitsSql(range.from, range.to)}) v
      GROUP BY 1, v.site, v.network, v.sub1, v.lander
    )
    SELECT * FROM facts
    WHERE ${site}::text IS NULL OR facts.site = ${site}::text
    ORDER BY 1, 2 NULLS FIRST, 3 NULLS FIRST, 4 NULLS FIRST, 5 NULLS FIRST
  `)
  const rows = reportRows((result as { rows: Record<string, unknown>[] }).rows)
  return {
    from: range.from,
    to: range.to,
    site,
    sites: await siteKeys(db),
    rows,
  }
}

/** The report's facts (one per day, source and kind) folded into one row per day and source. */
function reportRows(facts: Record<string, unknown>[]): ReportRow[] {
  const rows = new Map<string, ReportRow>()
  for (const r of facts) {
    const key = JSON.stringify([r.day, r.site, r.network, r.sub1, r.lander])
    let row = rows.get(key)
    if (!row) {
      row = {
        day: String(r.day),
        site: (r.site as string | null) ?? null,
        network: (r.network as string | null) ?? null,
        sub1: (r.sub1 as string | null) ?? null,
        lander: (r.lander as string | null) ?? null,
        visits: 0,
        signups: 0,
        activations: 0,
        first_purchases: 0,
        revenue: {},
        spent: {},
      }
      rows.set(key, row)
    }
    const n = Number(r.n)
    if (r.kind === 'visit') row.visits += n
    else if (r.kind === 'signup') row.signups += n
    else if (r.kind === 'activation') row.activations += n
    else if (r.kind === 'first_purchase') row.first_purchases += n
    else if (r.kind === 'revenue' && typeof r.currency === 'string')
      row.revenue[r.currency] = (row.revenue[r.currency] ?? 0) + Number(r.amount)
    else if (r.kind === 'spent' && typeof r.currency === 'string')
      row.spent[r.currency] = (row.spent[r.currency] ?? 0) + Number(r.amount)
  }
  return [...rows.values()]
}

/**
 * A cell a spreadsheet cannot take for a formula: text starting with = + - @
 * (or a tab or carriage return, which some programs skip before one) gets a
 * leading apostrophe; then quoted as RFC 4180 asks.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/**
 * The report as CSV: one column of revenue per currency (minor units), one of
 * credits spent per paid action, CRLF line ends.
 */
export function reportCsv(report: ReportResponse): string {
  const currencies = [...new Set(report.rows.flatMap((r) => Object.keys(r.revenue)))].sort()
  const actions = [...new Set(report.rows.flatMap((r) => Object.keys(r.spent)))].sort()
  const head = [
    'day',
    'site',
    'network',
    'sub1',
    'lander',
    'visits',
    'signups',
    'activations',
    'first_purchases',
    ...currencies.map((c) => `revenue_${c}`),
    ...actions.map((a) => `credits_spent_${a}`),
  ]
  const lines = [
    head,
    ...report.rows.map((r) => [
      r.day,
      r.site,
      r.network,
      r.sub1,
      r.lander,
      r.visits,
      r.signups,
      r.activations,
      r.first_purchases,
      ...currencies.map((c) => r.revenue[c] ?? 0),
      ...actions.map((a) => r.spent[a] ?? 0),
    ]),
  ]
  return `${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`
}

const toJob = (j: JobRow): JobEntry => ({
  id: j.id,
  kind: j.kind,
  status: j.status,
  attempts: j.attempts,
  max_attempts: j.maxAttempts,
  run_at: j.runAt.toISOString(),
  created_at: j.createdAt.toISOString(),
  last_error: j.lastError,
})

/** The queue's waiting, running and failed jobs, newest first, at most 100 of each. */
export async function jobLists(db: Db): Promise<JobsResponse> {
  const [queued, running, failed] = await Promise.all(
    (['queued', 'running', 'failed'] as const).map((s) => listJobs(db, s)),
  )
  return {
    queued: (queued ?? []).map(toJob),
    running: (running ?? []).map(toJob),
    failed: (failed ?? []).map(toJob),
  }
}

/** One job as it is now (for the audit entry), or null. */
export async function jobOf(db: Db, id: number): Promise<JobEntry | null> {
  const row = await jobById(db, id)
  return row ? toJob(row) : null
}
