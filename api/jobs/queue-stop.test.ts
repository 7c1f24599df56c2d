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
    await new Promise((r) => setTimeout(r, 50))
    expect(stopped, 'stop() waits for the job running').toBe(false)
    release()
    await stopping
    expect(ran).toEqual([1])
    expect(await runner.runDue()).toBe(0)
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, kind))
    expect(rows.map((r) => [(r.payload as { n: number }).n, r.status]).sort()).toEqual([
      [1, 'done'],
      [2, 'queued'],
    ])
  })
})
