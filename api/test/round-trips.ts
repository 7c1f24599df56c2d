// Counts the statements a piece of work (one API request) sends to the
// database: its round trips. The test database's own client is wrapped, once,
// below drizzle, so every way of reaching the database is seen: drizzle's
// queries, raw `db.execute`, the prepared statements of db/prepared.ts and
// transactions with their BEGIN and COMMIT, which are statements (and round
// trips) like any other.
//
// - PGlite (`@electric-sql/pglite`): `query` and `exec` of the client, and
//   `transaction`, whose BEGIN, COMMIT (or ROLLBACK) PGlite sends itself and
//   whose statements go through the transaction's own `query`/`exec`.
// - pg (`pg.Pool`): every statement runs on a pooled `pg.Client`, checked out
//   through `pool.connect()` (by `pool.query` too), so each client handed out
//   gets its `query` wrapped; drizzle's transactions send `begin`/`commit`
//   there.
//
// Only statements sent while the work runs are counted, and the count is
// read once the database is quiet: the statements still in flight when the
// work's promise resolves (a poke batched by notifyMembersSoon, which runs on
// a later turn of the event loop, api/events/bus.ts) are the work's too.
// Background work that is not the request's (the job runner) must be kept
// out of the app under test; see api/round-trips.test.ts.
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Db } from '../../db/client.ts'

export interface Trips {
  /** Statements sent: each one a round trip to the database. */
  count: number
  /** Their SQL text, in the order sent (BEGIN/COMMIT included). */
  statements: string[]
}

interface Recorder {
  /** The statements of the work being counted; null between countTrips calls. */
  recording: string[] | null
  /** Statements sent and not answered yet (any time, counted or not). */
  inFlight: number
}

const recorders = new WeakMap<object, Recorder>()

/** The one-line text of a statement as it was sent, whatever the driver's argument shape. */
function textOf(query: unknown): string {
  const text =
    typeof query === 'string'
      ? query
      : typeof query === 'object' && query !== null && 'text' in query
        ? String((query as { text: unknown }).text)
        : String(query)
  return text.replace(/\s+/g, ' ').trim()
}

/** `fn` with each call recorded and tracked until its promise settles. */
function tracked<F extends (...args: never[]) => unknown>(
  recorder: Recorder,
  fn: F,
  self: unknown,
): F {
  return function (this: unknown, ...args: Parameters<F>) {
    recorder.recording?.push(textOf(args[0]))
    return settleTracked(recorder, () => fn.apply(self, args))
  } as unknown as F
}

/** Runs `call`, counting it in flight until its promise (if any) settles. */
function settleTracked<T>(recorder: Recorder, call: () => T): T {
  recorder.inFlight++
  let result: T
  try {
    result = call()
  } catch (e) {
    recorder.inFlight--
    throw e
  }
  if (result && typeof (result as { then?: unknown }).then === 'function') {
    const done = () => {
      recorder.inFlight--
    }
    ;(result as unknown as Promise<unknown>).then(done, done)
  } else {
    recorder.inFlight--
  }
  return result
}

type PgliteTx = Parameters<Parameters<PGlite['transaction']>[0]>[0]

function wrapPglite(client: PGlite, recorder: Recorder): void {
  const transaction = client.transaction.bind(client)
  client.query = tracked(recorder, client.query, client)
  client.exec = tracked(recorder, client.exec, client)
  // PGlite sends BEGIN before it calls back, then COMMIT when the callback
  // resolves or ROLLBACK when it throws, unless tx.rollback() ended it.
  client.transaction = (<T>(callback: (tx: PgliteTx) => Promise<T>) =>
    settleTracked(recorder, () =>
      transaction(async (tx) => {
        recorder.recording?.push('BEGIN')
        let closed = false
        const rollback = tx.rollback.bind(tx)
        tx.query = tracked(recorder, tx.query, tx)
        tx.exec = tracked(recorder, tx.exec, tx)
        tx.rollback = async () => {
          recorder.recording?.push('ROLLBACK')
          closed = true
          await rollback()
        }
        try {
          const result = await callback(tx)
          if (!closed) recorder.recording?.push('COMMIT')
          return result
        } catch (e) {
          if (!closed) recorder.recording?.push('ROLLBACK')
          throw e
        }
      }),
    )) as PGlite['transaction']
}

function wrapPool(pool: pg.Pool, recorder: Recorder): void {
  const wrapped = new WeakSet<pg.PoolClient>()
  const wrapClient = (client: pg.PoolClient | undefined) => {
    if (!client || wrapped.has(client)) return
    wrapped.add(client)
    const query = client.query
    client.query = function (this: pg.PoolClient, ...args: unknown[]) {
      recorder.recording?.push(textOf(args[0]))
      // pool.query passes a callback: the statement is in flight until it is called.
      const last = args.length - 1
      const callback = args[last]
      if (typeof callback === 'function') {
        let pending = true
        const done = () => {
          if (pending) recorder.inFlight--
          pending = false
        }
        recorder.inFlight++
        args[last] = (...results: unknown[]) => {
          done()
          return (callback as (...a: unknown[]) => unknown)(...results)
        }
        try {
          return (query as (...a: unknown[]) => unknown).apply(client, args)
        } catch (e) {
          done()
          throw e
        }
      }
      return settleTracked(recorder, () =>
        (query as (...a: unknown[]) => unknown).apply(client, args),
      )
    } as typeof client.query
  }
  const connect = pool.connect.bind(pool) as (
    cb?: (err: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => void,
  ) => Promise<pg.PoolClient> | undefined
  pool.connect = ((
    cb?: (err: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => void,
  ) => {
    if (cb)
      return connect((err, client, done) => {
        wrapClient(client)
        cb(err, client, done)
      })
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      wrapClient(client)
      return client
    })
  }) as typeof pool.connect
}

/** The recorder of `db`'s client, wrapping the client the first time. */
function recorderOf(db: Db): Recorder {
  const client = (db as unknown as { $client: unknown }).$client
  if (typeof client !== 'object' || client === null) throw new Error('countTrips: no $client')
  let recorder = recorders.get(client)
  if (recorder) return recorder
  recorder = { recording: null, inFlight: 0 }
  if (client instanceof PGlite) wrapPglite(client, recorder)
  else if (client instanceof pg.Pool) wrapPool(client, recorder)
  else throw new Error('countTrips: neither a PGlite nor a pg.Pool client')
  recorders.set(client, recorder)
  return recorder
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Waits until nothing is in flight on the database and a whole turn of the
 * event loop started nothing new (the bus flushes its poke batch on a
 * setImmediate): turns of the event loop, not time.
 */
async function quiet(recorder: Recorder): Promise<void> {
  let seen = -1
  for (;;) {
    await turn()
    const sent = recorder.recording?.length ?? 0
    if (recorder.inFlight === 0 && sent === seen) return
    seen = recorder.inFlight === 0 ? sent : -1
  }
}

/**
 * The statements `work` sends to `db` (a test database made by
 * freshDatabase): `countTrips(db, () => app.request(...))`. A Response is
 * read to its end before counting stops. Calls must not overlap.
 */
export async function countTrips(db: Db, work: () => unknown): Promise<Trips> {
  const recorder = recorderOf(db)
  if (recorder.recording) throw new Error('countTrips: already counting on this database')
  await quiet(recorder)
  const statements: string[] = []
  recorder.recording = statements
  try {
    const result = await work()
    if (result instanceof Response) await result.arrayBuffer()
    await quiet(recorder)
  } finally {
    recorder.recording = null
  }
  return { count: statements.length, statements }
}
