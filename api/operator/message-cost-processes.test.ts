// The message cost is cached in each process (api/credits/ledger.ts). An
// operator's change goes out as a NOTIFY on the caches channel in the
// change's own transaction, and every process's event bus drops its copy:
// two API processes on one PostgreSQL database, each with its own LISTEN
// connection, agree on the new price within seconds. PostgreSQL only: PGlite
// is one process, where forgetting locally is all there is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../db/client.ts'
import { type Api, createApi } from '../app.ts'
import { PackagesResponse } from '../contract/payments.ts'
import { createEventBus, type EventBus } from '../events/bus.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { send } from '../test/http.ts'
import { staffSession } from '../test/staff.ts'

/** How long the other process may answer the old price after the change. */
const AGREE_MS = 10_000

const suite = process.env.DATABASE_URL ? describe : describe.skip
const title = process.env.DATABASE_URL
  ? 'the message cost on two processes of one PostgreSQL database'
  : 'the message cost on two processes of one PostgreSQL database (set DATABASE_URL to run it)'

suite(title, () => {
  let t: TestDatabase
  let other: Database
  let busA: EventBus
  let busB: EventBus
  let appA: Api
  let appB: Api

  beforeAll(async () => {
    t = await freshDatabase('postgres')
    if (!t.url) throw new Error('freshDatabase(postgres) gave no url')
    // Process B: a pool and a LISTEN connection of its own on the same database.
    other = await openDatabase({ kind: 'postgres', url: t.url })
    busA = createEventBus(t.listen)
    busB = createEventBus(other.listen)
    await Promise.all([busA.ready(), busB.ready()])
    appA = createApi({ db: t.db, events: busA })
    appB = createApi({ db: other.db, events: busB })
  })
  afterAll(async () => {
    await busA?.close()
    await busB?.close()
    await other?.close()
    await t?.close()
  })

  const priceOn = async (app: Api) => {
    const res = await send(app, '/api/packages.php?country=NL')
    expect(res.status).toBe(200)
    return PackagesResponse.parse(await res.json()).message_cost
  }

  it("an operator's change on process A reaches process B's cached price", async () => {
    // Both read (and cache) the default price.
    expect(await priceOn(appA)).toBe(10)
    expect(await priceOn(appB)).toBe(10)

    const admin = (await staffSession(appA, t.db, ['admin'])).cookie
    const res = await send(appA, '/api/operator/message-cost.php', {
      method: 'PUT',
      body: { credits: 25 },
      cookie: admin,
    })
    expect(res.status).toBe(200)
    expect(await priceOn(appA)).toBe(25)

    const start = Date.now()
    let seen = await priceOn(appB)
    while (seen !== 25 && Date.now() - start < AGREE_MS) {
      await new Promise((done) => setTimeout(done, 50))
      seen = await priceOn(appB)
    }
    expect(
      seen,
      `process B still answers ${seen} credits ${Date.now() - start} ms after process A set 25`,
    ).toBe(25)
  })
})
