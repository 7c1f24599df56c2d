// The job queue.
import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, jsonb, ts } from './columns.ts'

/**
 * The job queue (api/jobs/): work that must happen after a commit and must not
 * be lost, such as sending a mail. Enqueued in the transaction of the effect
 * it announces; claimed with FOR UPDATE SKIP LOCKED by any API process.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
    /** queued → running → done, or back to queued for a retry, or failed after the last attempt. */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    runAt: ts('run_at').notNull().defaultNow(),
    /** A running job's lease: past it, the runner is presumed dead and the job is claimed again. */
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** At most one job per key (e.g. one reconcile per order). */
    dedupeKey: text('dedupe_key'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_key').on(t.dedupeKey),
    index('jobs_due_idx').on(t.runAt).where(sql`status IN ('queued', 'running')`),
    check('jobs_status_check', sql`"status" IN ('queued', 'running', 'done', 'failed')`),
    check('jobs_max_attempts_check', sql`"max_attempts" >= 1`),
  ],
)
