// The probes of a load balancer or an orchestrator (docs/several-machines.md):
// GET /healthz, the process is alive (nothing else is asked: a database
// outage must not get every machine restarted), and GET /readyz, this process
// should get traffic. Outside /api, no session, never cached; HEAD answers as
// GET without a body (Hono).
import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { migrationsApplied } from '../../db/migrations-state.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { HealthResponse, ReadyCheck, ReadyResponse } from '../contract/health.ts'
import type { EventBus } from '../events/bus.ts'
import type { Lifecycle } from './drain.ts'

export interface HealthDeps {
  db: Db
  events: EventBus
  lifecycle: Lifecycle
  /** How long a check may wait for the database or LISTEN (default 2 s, under a probe's usual timeout). */
  timeoutMs?: number
  /** Where a change of readiness is told (default console.error / console.log). */
  log?: (line: string) => void
}

type Check = { ok: boolean; detail: string }

const NO_STORE = { 'Cache-Control': 'no-store' }

/** The probe routes, mounted at the root of the app (api/app.ts). */
export function healthRoutes(deps: HealthDeps) {
  const ready = readiness(deps)
  return new Hono()
    .get(endpoints.healthz.path, (c) =>
      c.json({ status: 'ok' } satisfies HealthResponse, 200, NO_STORE),
    )
    .get(endpoints.readyz.path, async (c) => {
      const report = await ready()
      return c.json(report, report.status === 'ready' ? 200 : 503, NO_STORE)
    })
}

/** The /readyz report; a change of what fails is logged once, not on every probe. */
export function readiness({ db, events, lifecycle, timeoutMs = 2000, log }: HealthDeps) {
  let lastFailed = ''
  return async (): Promise<ReadyResponse> => {
    let checks: Record<ReadyCheck, Check>
    if (lifecycle.draining) {
      // Stopping: answered at once, without asking a database that is closing.
      const skipped = { ok: false, detail: 'not checked: the process is stopping' }
      checks = {
        database: skipped,
        migrations: skipped,
        listen: skipped,
        draining: { ok: false, detail: 'the process is stopping' },
      }
    } else {
      const [database, listen] = await Promise.all([
        databaseChecks(db, timeoutMs),
        listenCheck(events, timeoutMs),
      ])
      checks = { ...database, listen, draining: { ok: true, detail: 'serving' } }
    }
    const failed = (Object.keys(checks) as ReadyCheck[]).filter(
      (k) => !checks[k].ok && !checks[k].detail.startsWith('not checked'),
    )
    const key = failed.map((k) => `${k}: ${checks[k].detail}`).join('; ')
    if (key !== lastFailed) {
      if (key) (log ?? console.error)(`readyz: not ready (${key})`)
      else if (lastFailed) (log ?? console.log)('readyz: ready again')
      lastFailed = key
    }
    if (failed.length === 0) return { status: 'ready', failed, checks }
    return {
      status: 'not_ready',
      failed,
      checks,
      error: 'not_ready',
      message: `not ready: ${failed.join(', ')}`,
    }
  }
}

async function databaseChecks(
  db: Db,
  timeoutMs: number,
): Promise<{ database: Check; migrations: Check }> {
  try {
    await within(db.execute(sql`SELECT 1`), timeoutMs)
  } catch (e) {
    return {
      database: { ok: false, detail: failure(e) },
      migrations: { ok: false, detail: 'not checked: the database did not answer' },
    }
  }
  const database = { ok: true, detail: 'answers' }
  try {
    return { database, migrations: await within(migrationsApplied(db), timeoutMs) }
  } catch (e) {
    return { database, migrations: { ok: false, detail: failure(e) } }
  }
}

async function listenCheck(events: EventBus, timeoutMs: number): Promise<Check> {
  // Not started yet (no stream so far) or a try under way: wait for it.
  if (events.state === 'idle' || events.state === 'connecting') {
    await within(events.ready(), timeoutMs).catch(() => undefined)
  }
  return events.state === 'up'
    ? { ok: true, detail: 'listening' }
    : { ok: false, detail: `LISTEN is ${events.state}` }
}

/**
 * What went wrong, without the error's text: a probe answers anyone, and a
 * driver's message can name hosts and addresses. SQLSTATE or errno only.
 */
function failure(e: unknown): string {
  if (e instanceof Timeout) return e.message
  let err: unknown = e
  for (let depth = 0; depth < 6 && typeof err === 'object' && err !== null; depth++) {
    if ('code' in err && typeof err.code === 'string') return `failed (${err.code})`
    err = 'cause' in err ? err.cause : undefined
  }
  return 'failed'
}

class Timeout extends Error {}

/** `work`, or a Timeout after `ms` (the work itself goes on; its result is dropped). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no answer within ${ms} ms`)), ms)
    timer.unref?.()
  })
  work.catch(() => undefined)
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}
