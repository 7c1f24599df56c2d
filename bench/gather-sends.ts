// A prototype for the benchmarks, not the API's code: the common sends of
// an API process gathered into one statement (bench/batched-statement.ts)
// while others run, to measure through HTTP what docs/performance.md
// ("Where a send's time goes") proposes. Installed by bench/api-process.ts
// --gather-sends, at the driver: the API sends its own statement as ever,
// and this answers it with the row of a gathered run.
//
// The rules of the design: a send that finds fewer than GATHER_IN_FLIGHT
// send statements running goes at once, alone, as the API's own statement
// (a batch of one costs twice that); the others wait, and when a statement
// comes back the waiting ones go as one batch, at most one a session and one
// a conversation (a statement updates a row once; the rest wait for the
// next batch). A batch that fails runs each of its sends alone again, so one
// send's failure is its own. Left out here: the batch takes its first send's
// time (`now`) and the shared parameters for all of its sends.
import pg from 'pg'
import { BATCHED, batchParameters, CONVERSATION_AT, SESSION_AT } from './batched-statement.ts'

const SEND = 'send_message_session'
/** Send statements running at once before sends wait to go together. */
const IN_FLIGHT = Number(process.env.GATHER_IN_FLIGHT ?? 4)
/** The most sends in one statement. */
const MOST = Number(process.env.GATHER_MOST ?? 32)

interface Waiting {
  config: { name: string; text: string; types?: unknown }
  values: unknown[]
  resolve(result: unknown): void
  reject(e: unknown): void
}

/** Counts of what ran, printed by the API process when it stops. */
export const gathered = { alone: 0, batches: 0, inBatches: 0, fellBack: 0 }

export function gatherSends(): void {
  type Query = (this: pg.Pool, ...args: unknown[]) => Promise<unknown>
  const query = pg.Pool.prototype.query as unknown as Query
  let running = 0
  const waiting: Waiting[] = []

  const alone = (pool: pg.Pool, w: Waiting) =>
    query.call(pool, w.config, w.values).then(w.resolve, w.reject)

  async function together(pool: pg.Pool, batch: Waiting[]) {
    const values = batchParameters(batch.map((w) => w.values))
    try {
      const result = (await query.call(
        pool,
        { name: 'gathered_send', text: BATCHED, types: batch[0]!.config.types },
        values,
      )) as { rows: ({ n: string } & Record<string, unknown>)[] }
      gathered.batches++
      gathered.inBatches += batch.length
      for (const row of result.rows) {
        const { n, ...rest } = row
        batch[Number(n) - 1]!.resolve({ ...result, rows: [rest], rowCount: 1 })
      }
    } catch {
      gathered.fellBack += batch.length
      await Promise.all(batch.map((w) => alone(pool, w)))
    }
  }

  function pump(pool: pg.Pool) {
    while (running < IN_FLIGHT && waiting.length > 0) {
      const batch: Waiting[] = []
      const rest: Waiting[] = []
      const sessions = new Set<unknown>()
      const conversations = new Set<unknown>()
      for (const w of waiting) {
        if (
          batch.length < MOST &&
          !sessions.has(w.values[SESSION_AT]) &&
          !conversations.has(w.values[CONVERSATION_AT])
        ) {
          batch.push(w)
          sessions.add(w.values[SESSION_AT])
          conversations.add(w.values[CONVERSATION_AT])
        } else rest.push(w)
      }
      waiting.splice(0, waiting.length, ...rest)
      running++
      if (batch.length === 1) gathered.alone++
      const done = batch.length === 1 ? alone(pool, batch[0]!) : together(pool, batch)
      void done.finally(() => {
        running--
        pump(pool)
      })
    }
  }

  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const [config, values] = args as [Waiting['config'] & { values?: unknown[] }, unknown]
    if (config?.name !== SEND || args.length > 2 || typeof values === 'function')
      return query.apply(this, args)
    return new Promise((resolve, reject) => {
      waiting.push({ config, values: config.values ?? (values as unknown[]), resolve, reject })
      pump(this)
    })
  } as typeof pg.Pool.prototype.query
}
