// The DSA Art. 24 transparency figures: notices received, decisions taken,
// the median time to action and the appeals, over whole UTC days.
import { and, gte, isNotNull, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { appeals, reports } from '../../db/schema/index.ts'
import { complaintsDecided, complaintsReceived } from '../complaints/index.ts'
import type { DsaResponse } from '../contract/operator/moderation.ts'
import { DAY_MS } from './sanctions.ts'

const median = (xs: number[]) => {
  if (xs.length === 0) return null
  const s = [...xs].sort((p, q) => p - q)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/** DSA Art. 24 figures for [from, to] (whole UTC days). */
export async function dsaFigures(db: Db, from: string, to: string): Promise<DsaResponse> {
  const start = new Date(`${from}T00:00:00Z`)
  const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS)
  const [reportRows, complaintRows, decidedReports, decidedComplaints, appealRows] =
    await Promise.all([
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(reports)
        .where(and(gte(reports.createdAt, start), lt(reports.createdAt, end))),
      complaintsReceived(db, start, end),
      db
        .select({ decision: reports.decision, s: reports.actionSeconds })
        .from(reports)
        .where(
          and(
            isNotNull(reports.decidedAt),
            gte(reports.decidedAt, start),
            lt(reports.decidedAt, end),
          ),
        ),
      complaintsDecided(db, start, end),
      db
        .select({ outcome: appeals.outcome })
        .from(appeals)
        .where(and(gte(appeals.createdAt, start), lt(appeals.createdAt, end))),
    ])
  const notices: Record<string, number> = { report: reportRows[0]?.n ?? 0 }
  for (const row of complaintRows) notices[`complaint_${row.kind}`] = row.n
  const actions: Record<string, number> = {}
  const seconds: number[] = []
  for (const row of [...decidedReports, ...decidedComplaints]) {
    if (row.decision) actions[row.decision] = (actions[row.decision] ?? 0) + 1
    if (row.s !== null) seconds.push(row.s)
  }
  return {
    from,
    to,
    notices,
    actions,
    median_action_seconds: median(seconds),
    appeals: {
      received: appealRows.length,
      upheld: appealRows.filter((a) => a.outcome === 'upheld').length,
      lifted: appealRows.filter((a) => a.outcome === 'lifted').length,
      open: appealRows.filter((a) => a.outcome === null).length,
    },
    automated: false,
  }
}
