// One JSON line per request (pino), and the errors of the app with their
// stacks (api/http/errors.ts), each tagged with the request's id. What a line
// holds is chosen, never a dump of the request: method, route (the matched
// route pattern), status, duration, the member when the session resolved
// one, the id. Never cookies, headers, query strings (tokens ride in some),
// bodies or message texts (docs/several-machines.md, "Logs and metrics").
import { randomUUID } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import pino, { type DestinationStream, type Logger } from 'pino'

export type { Logger }

export type LogEnv = { Variables: { log?: Logger; memberId?: number } }

/** An incoming X-Request-Id worth keeping: a proxy's id, not a place to inject text. */
const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * A logger at LOG_LEVEL (default info; silent under vitest unless LOG_LEVEL
 * is set, so test runs stay quiet), writing JSON lines to `destination`
 * (default stdout).
 */
export function createLogger(
  env: NodeJS.ProcessEnv = process.env,
  destination?: DestinationStream,
): Logger {
  const level = env.LOG_LEVEL?.trim() || (env.VITEST ? 'silent' : 'info')
  if (level !== 'silent' && !(level in pino.levels.values)) {
    throw new Error(
      `LOG_LEVEL=${level}: expected one of ${Object.keys(pino.levels.values).join(', ')}, silent`,
    )
  }
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, destination)
}

let processLogger: Logger | undefined
/** The process's logger, made on first use. */
export const rootLogger = (): Logger => {
  processLogger ??= createLogger()
  return processLogger
}

/** The request's logger (its lines carry the request id), else the process's. */
export const logOf = (c: Context): Logger =>
  (c as unknown as Context<LogEnv>).get('log') ?? rootLogger()

/**
 * The route a request matched: the pattern of the handler that answered
 * (`/api/messages.php`, `/media/*`), never the path with its values.
 */
export const routeOf = (c: Context): string => c.req.routePath || 'unmatched'

/**
 * Times the request, gives it an id (a valid incoming X-Request-Id when the
 * proxy is trusted, else a new UUID), sends the id back as X-Request-Id and
 * writes one line when the answer is ready (for an event stream: when the
 * stream opens).
 */
export function requestLog({
  trustProxy,
  logger = rootLogger(),
}: {
  trustProxy: boolean
  logger?: Logger
}): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now()
    const incoming = trustProxy ? c.req.header('x-request-id') : undefined
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    const log = logger.child({ reqId })
    const ctx = c as unknown as Context<LogEnv>
    ctx.set('log', log)
    await next()
    c.res.headers.set('X-Request-Id', reqId)
    const status = c.res.status
    const memberId = ctx.get('memberId')
    const line = {
      method: c.req.method,
      route: routeOf(c),
      status,
      ms: Math.round((performance.now() - start) * 10) / 10,
      ...(typeof memberId === 'number' ? { memberId } : {}),
    }
    if (status >= 500) log.error(line, 'request')
    else log.info(line, 'request')
  }
}
