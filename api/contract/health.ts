import { z } from 'zod'

/**
 * GET /healthz: the process is alive. It asks nothing of the database, so a
 * machine whose database is away is not restarted for it.
 */
export const HealthResponse = z.object({ status: z.literal('ok') })
export type HealthResponse = z.infer<typeof HealthResponse>

/** What GET /readyz checks, in the order it reports them. */
export const ReadyCheck = z.enum(['database', 'migrations', 'listen', 'draining'])
export type ReadyCheck = z.infer<typeof ReadyCheck>

/** One check: whether it passed and what it found ("not checked: …" when it could not run). */
const Check = z.object({ ok: z.boolean(), detail: z.string() })

/**
 * GET /readyz: whether this process should get traffic (docs/several-machines.md).
 * 200 `ready` when every check passes; 503 `not_ready` (with the error shape's
 * `error` and `message`) naming the checks that failed, each with a detail.
 */
export const ReadyResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  failed: z.array(ReadyCheck),
  checks: z.object({
    database: Check,
    migrations: Check,
    listen: Check,
    draining: Check,
  }),
  error: z.literal('not_ready').optional(),
  message: z.string().optional(),
})
export type ReadyResponse = z.infer<typeof ReadyResponse>
