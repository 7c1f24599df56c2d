// A job queue in PostgreSQL: work that must happen after a commit and must not
// be lost (a mail, a push fan-out, a payment reconcile). A job is a row of
// `jobs`, enqueued in the same transaction as the effect it announces, so a
// rolled-back request enqueues nothing. Every API process runs a runner that
// claims due jobs with `FOR UPDATE SKIP LOCKED` (two runners never take the
// same job), runs the handler of its kind, and on failure schedules a retry
// with exponential backoff until the last attempt, after which the job stays
// `failed` with its last error for an operator to retry or discard.
//
// Why a table of our own and not pg-boss: the queue needs five statements,
// runs unchanged on PGlite (the embedded database of `npm start` and the
// tests), and enqueues through the request's own drizzle transaction. A job
// runs at least once: a handler must be safe to repeat (mail checks sent_at).
import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { jobs } from '../../db/schema/index.ts'
import { jobFailures } from '../http/metrics.ts'

export type JobRow = typeof jobs.$inferSelect
export type JobStatus = 'queued' | 'running' | 'done' | 'failed'

/** A handler asks for a retry after a given delay (e.g. a push service's Retry-After). */
export class RetryAfter extends Error {
  constructor(
    readonly delayMs: number,
    message = `retry after ${delayMs} ms`,
  ) {
    super(message)
  }
}

export type JobHandler = (payload: unknown, job: JobRow) => Promise<void>
export type JobHandlers = Record<string, JobHandler>

export interface EnqueueOptions {
  kind: string
  payload?: unknown
  /** Not before this time (default: now). */
  runAt?: Date
  /** At most one job with this key; a second enqueue is a no-op. */
  key?: string
  maxAttempts?: number
}

/** Adds a job; call with the request's transaction so it commits with the effect. */
export async function enqueue(db: Db, job: EnqueueOptions): Promise<void> {
  await db
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload ?? {},
      // The database clock keeps microseconds, the runner's Date only
      // milliseconds: a job enqueued and claimed within one millisecond
      // would not be due yet. Truncated, it is due at once.
      runAt: job.runAt ?? sql`date_trunc('milliseconds', now())`,
      ...(job.key ? { dedupeKey: job.key } : {}),
      ...(job.maxAttempts ? { maxAttempts: job.maxAttempts } : {}),
    })
    .onConflictDoNothing()
}

/** How long a claimed job may run before another runner may take it again. */
export const LEASE_MS = 5 * 60_000
/** First retry after 2 s, doubling each attempt, at most 1 hour apart. */
export const BACKOFF_BASE_MS = 2_000
export const BACKOFF_MAX_MS = 60 * 60_000
/** A runner without pokes looks for due jobs (retries, other processes' work) this often. */
export const POLL_MS = 5_000
/** Finished jobs are kept this long for the operator's view, then deleted. */
export const KEEP_DONE_MS = 7 * 24 * 60 * 60_000

/**
 * Delay before attempt `attempts + 1`: base × 2^(attempts-1), capped, with
 * ±20 % jitter so a burst of failures does not retry in lockstep.
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const plain = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1))
  return Math.round(plain * (0.8 + 0.4 * random()))
}

export interface JobRunnerOptions {
  db: Db
  handlers: JobHandlers
  now?: () => Date
  random?: () => number
  /** Jobs claimed and run at once per round. */
  batch?: number
  pollMs?: number
  /** Where failures are reported (default console.error). */
  log?: (message: string, details: unknown) => void
}

export interface JobRunner {
  /** Claims and runs every due job, round after round, until none is due. Returns how many ran. */
  runDue(): Promise<number>
  /** Runs due jobs soon (after a commit that enqueued one); coalesces calls. */
  poke(): void
  /** Polls every pollMs until stop(). */
  start(): void
  /**
   * Stops polling and claiming: waits for the jobs that are running; what is
   * due then waits in the table (pokes are ignored from now on).
   */
  stop(): Promise<void>
  /** Resolves when no round is running (tests, shutdown). */
  idle(): Promise<void>
  /** Adds handlers (a domain registers its kinds). Throws on a kind registered twice. */
  register(handlers: JobHandlers): void
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? ((message, details) => console.error(message, details))
  const { handlers, register } = handlerRegistry(options.handlers)
  const random = options.random ?? Math.random
  const work = jobWork({ db: options.db, handlers, now, random, batch: options.batch ?? 10, log })
  let round: Promise<number> | null = null
  let again = false
  /** stop() was called: the jobs claimed finish, nothing more is claimed. */
  let stopping = false

  async function rounds(): Promise<number> {
    let ran = 0
    for (;;) {
      again = false
      const claimed = await work.runBatch()
      ran += claimed
      // Until a claim finds nothing: a handler may enqueue a follow-up job
      // (a push event becomes pushes), which is due at once.
      if ((claimed === 0 && !again) || stopping) break
    }
    await work.prune()
    return ran
  }

  function runDue(): Promise<number> {
    if (stopping) return Promise.resolve(0)
    if (round) {
      again = true
      return round
    }
    round = rounds().finally(() => {
      round = null
    })
    return round
  }

  const poke = () => {
    void runDue().catch((e: unknown) => log('jobs: round failed', e))
  }
  const polling = poller(poke, options.pollMs ?? POLL_MS)
  return {
    runDue,
    poke,
    start: polling.start,
    async stop() {
      stopping = true
      polling.stop()
      await round?.catch(() => 0)
    },
    async idle() {
      while (round) await round.catch(() => 0)
    },
    register,
  }
}

/** The handlers by job kind, and how a domain adds its own. */
function handlerRegistry(initial: JobHandlers) {
  const handlers: JobHandlers = {}
  const register = (more: JobHandlers) => {
    for (const [kind, handler] of Object.entries(more)) {
      if (handlers[kind]) throw new Error(`job kind registered twice: ${kind}`)
      handlers[kind] = handler
    }
  }
  register(initial)
  return { handlers, register }
}

/** Calls `tick` every `ms` from start() to stop(); the timer keeps no process alive. */
function poller(tick: () => void, ms: number) {
  let timer: ReturnType<typeof setInterval> | undefined
  return {
    start() {
      if (timer) return
      timer = setInterval(tick, ms)
      timer.unref?.()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
    },
  }
}

interface JobWorkOptions {
  db: Db
  handlers: JobHandlers
  now: () => Date
  random: () => number
  batch: number
  log: (message: string, details: unknown) => void
}

/** One round's work: claim due jobs, run them, record each outcome; and the hourly pruning. */
function jobWork({ db, handlers, now, random, batch, log }: JobWorkOptions) {
  let lastPrune = 0

  async function runOne(job: JobRow): Promise<void> {
    const error = await failureOf(handlers[job.kind], job)
    await finishJob(db, job, error, { at: now(), random, log })
  }

  return {
    /** Claims up to `batch` due jobs and runs them; how many it claimed. */
    async runBatch(): Promise<number> {
      const claimed = await claimDue(db, Object.keys(handlers), now(), batch)
      await Promise.all(claimed.map(runOne))
      return claimed.length
    },
    async prune(): Promise<void> {
      const at = now().getTime()
      if (at - lastPrune < 60 * 60_000) return
      lastPrune = at
      await db
        .delete(jobs)
        .where(
          and(eq(jobs.status, 'done'), sql`${jobs.finishedAt} < ${new Date(at - KEEP_DONE_MS)}`),
        )
    },
  }
}

/**
 * Takes up to `batch` due jobs of these kinds: queued and due, or running past their lease.
 * One statement: the row locks of SKIP LOCKED last only while the rows are
 * marked running; the lease covers the rest.
 */
async function claimDue(db: Db, kinds: string[], at: Date, batch: number): Promise<JobRow[]> {
  const leaseEnd = new Date(at.getTime() + LEASE_MS)
  if (kinds.length === 0) return []
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, kinds),
        sql`((${jobs.status} = 'queued' AND ${jobs.runAt} <= ${at}) OR (${jobs.status} = 'running' AND ${jobs.lockedUntil} < ${at}))`,
      ),
    )
    .orderBy(asc(jobs.runAt))
    .limit(batch)
    .for('update', { skipLocked: true })
  return db
    .update(jobs)
    .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: leaseEnd })
    .where(inArray(jobs.id, due))
    .returning()
}

/** Runs a job's handler: undefined when it went well, else what it threw. */
async function failureOf(handler: JobHandler | undefined, job: JobRow): Promise<unknown> {
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`)
    await handler(job.payload, job)
    return undefined
  } catch (e) {
    return e ?? new Error('job failed')
  }
}

/** Marks a claimed job done, or failed: queued again after a backoff, or failed for good after its last attempt. */
async function finishJob(
  db: Db,
  job: JobRow,
  error: unknown,
  { at, random, log }: { at: Date; random: () => number; log: JobWorkOptions['log'] },
): Promise<void> {
  if (error === undefined) {
    await db
      .update(jobs)
      .set({ status: 'done', finishedAt: at, lockedUntil: null, lastError: null })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')))
    return
  }
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000)
  const last = job.attempts >= job.maxAttempts
  const delay = error instanceof RetryAfter ? error.delayMs : backoffMs(job.attempts, random)
  log(`jobs: ${job.kind} #${job.id} attempt ${job.attempts} failed`, message)
  jobFailures.inc({ kind: job.kind })
  await db
    .update(jobs)
    .set(
      last
        ? { status: 'failed', finishedAt: at, lockedUntil: null, lastError: message }
        : {
            status: 'queued',
            runAt: new Date(at.getTime() + delay),
            lockedUntil: null,
            lastError: message,
          },
    )
    .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')))
}

/** The operator's view: jobs by status, newest first. */
export const listJobs = (db: Db, status: JobStatus, limit = 100) =>
  db.select().from(jobs).where(eq(jobs.status, status)).orderBy(desc(jobs.id)).limit(limit)

/** One job as it is now, or undefined. */
export async function jobById(db: Db, id: number): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  return row
}

/** Jobs queued and due at `now`, waiting for a runner (the metrics' job_queue_depth). */
export async function dueJobCount(db: Db, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)))
  return row?.n ?? 0
}

/** Runs a failed job again from its first attempt. */
export async function retryJob(db: Db, id: number, now = new Date()): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', attempts: 0, runAt: now, finishedAt: null })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
    .returning({ id: jobs.id })
  return rows.length > 0
}

/** Gives up on a failed job for good. */
export async function discardJob(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .delete(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
    .returning({ id: jobs.id })
  return rows.length > 0
}
