// A graceful stop of the HTTP server (api/start.ts on SIGTERM;
// docs/several-machines.md, "Stopping a machine"): stop accepting
// connections, close the idle ones, let every request in flight finish with
// `Connection: close`, and only after a grace period cut what is left.
// Closing every connection at once reset the requests in flight, whose
// handlers then failed on a closed pool.
import type { Server, ServerResponse } from 'node:http'

/** Whether the process is stopping: GET /readyz answers 503 from then on (api/http/health.ts). */
export interface Lifecycle {
  readonly draining: boolean
  /** From now on the process is stopping; there is no way back. */
  drain(): void
}

export function createLifecycle(): Lifecycle {
  let draining = false
  return {
    get draining() {
      return draining
    },
    drain() {
      draining = true
    },
  }
}

/** The grace period's default: under the 30 s an orchestrator usually waits before SIGKILL. */
export const SHUTDOWN_GRACE_S = 25

/** SHUTDOWN_GRACE_S in milliseconds; a value that is not a number of seconds ≥ 0 stops the start. */
export function shutdownGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SHUTDOWN_GRACE_S?.trim()
  if (raw === undefined || raw === '') return SHUTDOWN_GRACE_S * 1000
  const seconds = Number(raw)
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`SHUTDOWN_GRACE_S must be a number of seconds (0 or more), not "${raw}"`)
  }
  return Math.round(seconds * 1000)
}

export interface HttpDrain {
  /** Requests whose answer has not been sent in full. */
  readonly inFlight: number
  /**
   * Stops accepting connections and waits for the requests in flight (at
   * most `graceMs`, then their connections are closed). Resolves once every
   * connection is closed; `forced` says how many requests were cut.
   */
  drain(graceMs: number, log?: (line: string) => void): Promise<{ forced: number }>
  /** Cuts every connection now (a second signal). */
  force(): void
}

/** Counts the requests of `server` from now on, for drain(). */
export function trackRequests(server: Server): HttpDrain {
  const open = new Set<ServerResponse>()
  let draining = false
  let idle: (() => void) | undefined
  // Before the app's own listener, so a request that arrives while draining
  // gets `Connection: close` before its answer's headers are written.
  server.prependListener('request', (_req, res: ServerResponse) => {
    open.add(res)
    if (draining) res.setHeader('Connection', 'close')
    res.once('close', () => {
      open.delete(res)
      if (!draining) return
      // The answer is out: its keep-alive connection, now idle, is closed.
      server.closeIdleConnections()
      if (open.size === 0) idle?.()
    })
  })
  return {
    get inFlight() {
      return open.size
    },
    force() {
      server.closeAllConnections()
    },
    async drain(graceMs, log = console.log) {
      draining = true
      // Requests whose bytes arrived with the signal are read first (the
      // poll phase's other callbacks run before setImmediate): closing their
      // connections as idle would reset them.
      await new Promise((resolve) => setImmediate(resolve))
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close')
      log(
        `shutdown: draining, ${open.size} request(s) in flight (grace period ${graceMs / 1000} s)`,
      )
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const finished = new Promise<void>((resolve) => {
        idle = resolve
        if (open.size === 0) resolve()
      })
      let timer: NodeJS.Timeout | undefined
      const graceOver = new Promise<'grace over'>((resolve) => {
        timer = setTimeout(() => resolve('grace over'), graceMs)
      })
      const outcome = await Promise.race([finished.then(() => closed), graceOver])
      clearTimeout(timer)
      if (outcome !== 'grace over') return { forced: 0 }
      const forced = open.size
      log(`shutdown: ${forced} request(s) still in flight after ${graceMs / 1000} s: cut`)
      server.closeAllConnections()
      await closed
      return { forced }
    },
  }
}

export interface StopDeps {
  http: HttpDrain
  lifecycle: Lifecycle
  /** The live event streams (api/events/bus.ts). */
  events: { drain(): void; close(): Promise<void> }
  jobs: { stop(): Promise<void> }
  database: { close(): Promise<void> }
  graceMs: number
  log?: (line: string) => void
}

/**
 * The stop of a process that gets no more traffic, in order: /readyz says 503
 * at once; the event streams end (their clients reconnect, to another
 * machine); the server accepts no connection and the requests in flight
 * finish (at most `graceMs`) while the job running finishes and no other is
 * claimed; then LISTEN and the database close. Resolves with the exit code:
 * 0, or 1 if a step failed.
 */
export async function stopGracefully({
  http,
  lifecycle,
  events,
  jobs,
  database,
  graceMs,
  log = console.log,
}: StopDeps): Promise<number> {
  lifecycle.drain()
  events.drain()
  let code = 0
  const step = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work()
    } catch (e) {
      code = 1
      log(`shutdown: ${what} failed: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  await Promise.all([
    step('the HTTP drain', () => http.drain(graceMs, log)),
    step('stopping the jobs', () => jobs.stop()),
  ])
  await step('closing LISTEN', () => events.close())
  await step('closing the database', () => database.close())
  log(code === 0 ? 'shutdown: done' : 'shutdown: done, with failures')
  return code
}

/**
 * The handler of SIGTERM and SIGINT: the graceful stop, then exit with its
 * code. A second signal cuts the connections still open at once.
 */
export function stopOnSignal(
  deps: StopDeps,
  exit: (code: number) => void = (code) => process.exit(code),
): (signal: NodeJS.Signals) => void {
  const log = deps.log ?? console.log
  let stopping = false
  return (signal) => {
    if (stopping) {
      log(`shutdown: ${signal} again, cutting every connection now`)
      deps.http.force()
      return
    }
    stopping = true
    log(`shutdown: ${signal}`)
    void stopGracefully(deps).then(exit)
  }
}
