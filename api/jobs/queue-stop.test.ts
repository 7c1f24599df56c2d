// stop() on a stopping process (api/start.ts, docs/several-machines.md): the
// job running finishes, nothing more is claimed, pokes are ignored; what is
// due waits in the table for another machine or the next start.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { jobs } from '../../db/schema/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { createJobRunner, enqueue } from './queue.ts'

describeEngines('job runner stop on %s', (engine) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase(engine)
  })
  afterAll(() => database?.close())

  it('finishes the job running, then claims nothing more, even a follow-up due at once', async () => {
    const kind = 'test.stop'
    /** [n, status] of this test's jobs, by n. */
    const statuses = async () =>
      (await database.db.select().from(jobs).where(eq(jobs.kind, kind)))
        .map((r) => [(r.payload as { n: number }).n, r.status] as const)
        .sort((a, b) => a[0] - b[0])
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let started: () => void = () => {}
    const running = new Promise<void>((resolve) => {
      started = resolve
    })
    const ran: number[] = []
    const runner = createJobRunner({
      db: database.db,
      log: () => {},
      handlers: {
        [kind]: async (payload) => {
          const n = (payload as { n: number }).n
          ran.push(n)
          if (n === 1) {
            // A follow-up, due at once: a round would claim it next.
            await enqueue(database.db, { kind, payload: { n: 2 } })
            started()
            await held
          }
        },
      },
    })
    await enqueue(database.db, { kind, payload: { n: 1 } })
    runner.poke()
    await running
    let stopped = false
    const stopping = runner.stop().then(() => {
      stopped = true
    })
    runner.poke()
    // A barrier instead of a pause: a read of the table goes to the database
    // and back, after everything stop() and the poke set going without
    // waiting for the job (a stop() that did not wait would have resolved by
    // then). Job 1 still runs, its follow-up waits, stop() has not resolved.
    expect(await statuses()).toEqual([
      [1, 'running'],
      [2, 'queued'],
    ])
    expect(stopped, 'stop() waits for the job running').toBe(false)
    release()
    await stopping
    expect(ran).toEqual([1])
    expect(await runner.runDue()).toBe(0)
    expect(await statuses()).toEqual([
      [1, 'done'],
      [2, 'queued'],
    ])
  })
})
