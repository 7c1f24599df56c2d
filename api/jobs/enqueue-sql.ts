// Enqueueing as part of a caller's single statement: the INSERT INTO jobs a
// hot path puts in a common table expression (the paid send's push and mail
// jobs, a visit's push), so the job commits with its effect in one round trip.
// The queue owns its table (docs/architecture.md "Domains are boundaries");
// enqueue() in queue.ts is the same for a caller with statements of its own.
import { type SQL, sql } from 'drizzle-orm'

/**
 * `INSERT INTO jobs ... SELECT ... FROM from [WHERE where] ON CONFLICT DO
 * NOTHING RETURNING id`: one job of `kind` per row of `from` (a FROM list,
 * joins included), with its payload and dedupe key as SQL over those rows,
 * and `runAt` when it must wait (else the column's default, now).
 */
export function enqueueSelectSql(job: {
  kind: string
  payload: SQL
  key: SQL
  runAt?: SQL
  from: SQL
  where?: SQL
}): SQL {
  const runAt = job.runAt
  return sql`INSERT INTO jobs (kind, payload, dedupe_key${runAt ? sql`, run_at` : sql``})
      SELECT ${job.kind}, ${job.payload}, ${job.key}${runAt ? sql`, ${runAt}` : sql``}
      FROM ${job.from}${
        job.where
          ? sql`
      WHERE ${job.where}`
          : sql``
      }
      ON CONFLICT DO NOTHING
      RETURNING id`
}
