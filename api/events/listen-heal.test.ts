// The LISTEN connection heals (docs/several-machines.md, "LISTEN that heals"):
// PostgreSQL ends it on a restart, a failover or pg_terminate_backend, and the
// process must listen again by itself. PostgreSQL only: PGlite's LISTEN lives
// in the process and cannot be cut.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { LISTEN_APPLICATION_NAME } from '../../db/listen.ts'
import { createApi } from '../app.ts'
import type { Poke } from '../contract/index.ts'
import { rowsOf } from '../shared/rows.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { eventStream } from '../test/event-stream.ts'
import { login } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { scaled } from '../test/time-scale.ts'
import { createEventBus, type EventBus, notifyMembers } from './bus.ts'

/** How long a healed LISTEN may take to deliver again (the retry waits 0.5 s, doubling to 10 s). */
const HEAL_MS = 10_000

const suite = process.env.DATABASE_URL ? describe : describe.skip
const title = process.env.DATABASE_URL
  ? 'LISTEN after PostgreSQL ended its connection'
  : 'LISTEN after PostgreSQL ended its connection (set DATABASE_URL to run it)'

suite(title, () => {
  let t: TestDatabase
  let bus: EventBus
  beforeAll(async () => {
    t = await freshDatabase('postgres')
    // The first retry 0.75-1.5 s after the cut (0.25-0.5 s by default): long
    // enough for /readyz to be asked while LISTEN is down, on a busy machine too.
    bus = createEventBus(t.listen, { retry: { firstMs: 1500, maxMs: 10_000 } })
    await bus.ready()
  })
  afterAll(async () => {
    await bus?.close()
    await t?.close()
  })

  /** Ends this database's LISTEN connection as an administrator would; how many it ended. */
  async function terminateListener(): Promise<number> {
    const rows = await rowsOf(
      t.db,
      sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND (application_name = ${LISTEN_APPLICATION_NAME} OR query ILIKE 'LISTEN%')`,
      z.object({ ended: z.boolean() }),
    )
    return rows.filter((r) => r.ended).length
  }

  /** Sends a poke to `memberId` every 100 ms until `arrived()` or HEAL_MS; how many were sent. */
  async function notifyUntil(memberId: number, arrived: () => boolean): Promise<number> {
    // A NOTIFY sent while LISTEN is down is lost (no replay), so one is sent
    // again and again until one arrives or the bound is reached.
    const deadline = Date.now() + scaled(HEAL_MS)
    let sent = 0
    while (!arrived() && Date.now() < deadline) {
      await t.db.transaction((tx) => notifyMembers(tx, [memberId], { type: 'messages' }))
      sent++
      await new Promise((done) => setTimeout(done, 100))
    }
    return sent
  }

  it('listens again: a NOTIFY sent after the cut reaches the subscriber, which is told to pull everything', async () => {
    const member = await addMember(t.db)
    const pokes: Poke[] = []
    const leave = bus.subscribe(member.id, (p) => pokes.push(p))
    try {
      expect(await terminateListener(), 'the LISTEN connection of this database').toBe(1)
      const arrived = () => pokes.some((p) => p.type === 'messages')
      const sent = await notifyUntil(member.id, arrived)
      expect(
        arrived(),
        `no poke arrived within ${HEAL_MS} ms of ending the LISTEN connection (${sent} NOTIFYs sent); bus state ${bus.state}`,
      ).toBe(true)
      // A poke may have been missed while down: the subscriber is told to pull everything.
      expect(pokes).toContainEqual({ type: 'sync' })
    } finally {
      leave()
    }
  })

  it('closes open streams while LISTEN is down, /readyz answers 503 naming it, then 200 again', async () => {
    const member = await addMember(t.db)
    const app = createApi({ db: t.db, events: bus })
    const cookie = await login(app, member.email, TEST_PASSWORD)
    const res = await app.request('http://localhost/api/events.php', {
      headers: { host: 'localhost', cookie },
    })
    expect(res.status).toBe(200)
    const stream = eventStream(res.body)
    await stream.untilText('event: ready')
    const before = await app.request('http://localhost/readyz')
    expect(before.status, await before.clone().text()).toBe(200)

    // /readyz asked over and over from the cut until LISTEN is back.
    const answers: { status: number; failed: string[] }[] = []
    let watching = true
    const watcher = (async () => {
      while (watching) {
        const r = await app.request('http://localhost/readyz')
        const body = (await r.json()) as { failed?: string[] }
        answers.push({ status: r.status, failed: body.failed ?? [] })
        await new Promise((done) => setTimeout(done, 10))
      }
    })()
    const pokes: Poke[] = []
    const leave = bus.subscribe(member.id, (p) => pokes.push(p))
    try {
      expect(await terminateListener(), 'the LISTEN connection of this database').toBe(1)
      // Open streams end, so their clients poll until they reconnect.
      await stream.untilEnd()
      await notifyUntil(member.id, () => pokes.some((p) => p.type === 'messages'))
    } finally {
      watching = false
      await watcher
      leave()
    }
    expect(
      answers.some((a) => a.status === 503 && a.failed.includes('listen')),
      `/readyz while LISTEN was down: ${JSON.stringify(answers.slice(0, 20))}`,
    ).toBe(true)
    const after = await app.request('http://localhost/readyz')
    expect(after.status, await after.clone().text()).toBe(200)
    expect(bus.state).toBe('up')
  })
})
