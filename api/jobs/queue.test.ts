// The job queue (api/jobs/queue.ts): enqueued with the effect's transaction,
// run once per claim across runners, retried with backoff, failed after the
// last attempt, taken again when a runner dies mid-job.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs } from '../../db/schema/index.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import {
  backoffMs,
  createJobRunner,
  discardJob,
  enqueue,
  type JobHandler,
  RetryAfter,
  retryJob,
} from './queue.ts'

const T0 = Date.UTC(2026, 10, 23, 12)

describe('backoff', () => {
  it('starts at 2 s and doubles per attempt, capped at 1 hour, jitter ±20 %', () => {
    const mid = () => 0.5
    expect([1, 2, 3, 4].map((a) => backoffMs(a, mid))).toEqual([2_000, 4_000, 8_000, 16_000])
    expect(backoffMs(30, mid)).toBe(3_600_000)
    expect(backoffMs(1, () => 0)).toBe(1_600)
    expect(backoffMs(1, () => 1)).toBe(2_400)
  })
})

describeEngines('job queue on %s', (engine) => {
  let database: TestDatabase
  let clock = T0
  beforeAll(async () => {
    database = await freshDatabase(engine)
  })
  afterAll(() => database?.close())

  let serial = 0
  /** A kind of its own per test, so runners of one test never see another's jobs. */
  const kind = () => `test.${++serial}`
  const runner = (handlers: Record<string, JobHandler>) =>
    createJobRunner({
      db: database.db,
      handlers,
      now: () => new Date(clock),
      random: () => 0.5,
      log: () => {},
    })
  const jobsOf = (k: string) => database.db.select().from(jobs).where(eq(jobs.kind, k))

  it('a job enqueued in a rolled-back transaction does not exist', async () => {
    const k = kind()
    await expect(
      database.db.transaction(async (tx) => {
        await enqueue(tx, { kind: k, payload: { n: 1 } })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await jobsOf(k)).toEqual([])
  })

  it('runs a due job once with its payload and marks it done', async () => {
    const k = kind()
    const seen: unknown[] = []
    await enqueue(database.db, { kind: k, payload: { n: 7 }, runAt: new Date(clock) })
    const r = runner({ [k]: async (p) => void seen.push(p) })
    expect(await r.runDue()).toBe(1)
    expect(await r.runDue()).toBe(0)
    expect(seen).toEqual([{ n: 7 }])
    expect(await jobsOf(k)).toMatchObject([{ status: 'done', attempts: 1, lastError: null }])
  })

  it('a job enqueued without run_at is due to a runner reading the same millisecond', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k })
    const [row] = await jobsOf(k)
    // The runner's clock is a Date (milliseconds); the row's time read back
    // is that millisecond. A time stored with microseconds would be later.
    const r = createJobRunner({
      db: database.db,
      handlers: { [k]: async () => {} },
      now: () => new Date(row!.runAt),
      log: () => {},
    })
    expect(await r.runDue()).toBe(1)
  })

  it('waits for run_at', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k, runAt: new Date(clock + 60_000) })
    const r = runner({ [k]: async () => {} })
    expect(await r.runDue()).toBe(0)
    clock += 60_000
    expect(await r.runDue()).toBe(1)
  })

  it('retries a failing job after 2 s, then 4 s, and fails it after the last attempt', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k, maxAttempts: 3, runAt: new Date(clock) })
    const r = runner({
      [k]: async () => {
        throw new Error('smtp down')
      },
    })
    await r.runDue()
    let [job] = await jobsOf(k)
    expect(job).toMatchObject({ status: 'queued', attempts: 1, lastError: 'smtp down' })
    expect(job?.runAt.getTime()).toBe(clock + 2_000)
    clock += 2_000
    await r.runDue()
    ;[job] = await jobsOf(k)
    expect(job).toMatchObject({ status: 'queued', attempts: 2 })
    expect(job?.runAt.getTime()).toBe(clock + 4_000)
    clock += 4_000
    await r.runDue()
    ;[job] = await jobsOf(k)
    expect(job).toMatchObject({ status: 'failed', attempts: 3, lastError: 'smtp down' })
    clock += 3_600_000
    expect(await r.runDue()).toBe(0)
  })

  it('a handler sets the retry delay with RetryAfter (e.g. a Retry-After header)', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k, runAt: new Date(clock) })
    const r = runner({
      [k]: async () => {
        throw new RetryAfter(120_000)
      },
    })
    await r.runDue()
    const [job] = await jobsOf(k)
    expect(job?.runAt.getTime()).toBe(clock + 120_000)
  })

  it('two runners on one database never run a job twice', async () => {
    const k = kind()
    for (let i = 0; i < 40; i++) {
      await enqueue(database.db, { kind: k, payload: { i }, runAt: new Date(clock) })
    }
    const runs = new Map<number, number>()
    const handler: JobHandler = async (p) => {
      const i = (p as { i: number }).i
      runs.set(i, (runs.get(i) ?? 0) + 1)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    await Promise.all([runner({ [k]: handler }).runDue(), runner({ [k]: handler }).runDue()])
    expect(runs.size).toBe(40)
    expect([...runs.values()].every((n) => n === 1)).toBe(true)
    expect((await jobsOf(k)).every((j) => j.status === 'done')).toBe(true)
  })

  it('a job whose runner died (lease past) is claimed again', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k, runAt: new Date(clock) })
    await database.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedUntil: new Date(clock + 1_000) })
      .where(eq(jobs.kind, k))
    const ran: number[] = []
    const r = runner({ [k]: async () => void ran.push(1) })
    expect(await r.runDue()).toBe(0) // still leased
    clock += 1_001
    expect(await r.runDue()).toBe(1)
    expect(await jobsOf(k)).toMatchObject([{ status: 'done', attempts: 2 }])
  })

  it('a dedupe key keeps one job', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k, key: `${k}:order-1` })
    await enqueue(database.db, { kind: k, key: `${k}:order-1` })
    expect(await jobsOf(k)).toHaveLength(1)
  })

  it('an operator retries or discards a failed job', async () => {
    const k = kind()
    await enqueue(database.db, { kind: k, maxAttempts: 1, runAt: new Date(clock) })
    let fail = true
    const r = runner({
      [k]: async () => {
        if (fail) throw new Error('boom')
      },
    })
    await r.runDue()
    const [failed] = await jobsOf(k)
    expect(failed?.status).toBe('failed')
    expect(await discardJob(database.db, failed!.id + 100_000)).toBe(false)
    fail = false
    expect(await retryJob(database.db, failed!.id, new Date(clock))).toBe(true)
    await r.runDue()
    expect(await jobsOf(k)).toMatchObject([{ status: 'done' }])
    expect(await discardJob(database.db, failed!.id)).toBe(false) // only failed jobs
  })

  it('refuses a job kind registered twice', () => {
    const r = runner({ 'x.once': async () => {} })
    expect(() => r.register({ 'x.once': async () => {} })).toThrow('registered twice')
  })
})
