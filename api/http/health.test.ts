// GET /healthz and GET /readyz (api/http/health.ts, docs/several-machines.md):
// no session, never cached, HEAD as GET, and /readyz names the check that fails.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../db/client.ts'
import { latestMigration } from '../../db/migrations-state.ts'
import { createApi } from '../app.ts'
import { ReadyResponse } from '../contract/health.ts'
import { createEventBus, type EventBus, silentBus } from '../events/bus.ts'
import { startProgress } from '../site/start-page.ts'
import { describeEngines, freshDatabase, type TestDatabase } from '../test/databases.ts'
import { createLifecycle } from './drain.ts'
import { healthRoutes } from './health.ts'

const request = (
  app: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  path: string,
  method = 'GET',
) => app.request(`http://localhost${path}`, { method, headers: { host: 'localhost' } })

async function readyOf(res: Response): Promise<ReadyResponse> {
  return ReadyResponse.parse(await res.json())
}

describeEngines('health probes on %s', (engine) => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await freshDatabase(engine)
  })
  afterAll(() => t.close())

  it('/healthz: 200 {status: ok}, no session, no-store, HEAD without a body', async () => {
    const app = createApi({ db: t.db })
    const res = await request(app, '/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
    expect(res.headers.get('cache-control')).toBe('no-store')
    const head = await request(app, '/healthz', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('/readyz: 200 when the database answers, migrations are in, LISTEN is up and nothing drains', async () => {
    const events = createEventBus(t.listen)
    try {
      const app = createApi({ db: t.db, events })
      // LISTEN has not started (no stream yet): the probe starts it.
      expect(events.state).toBe('idle')
      const res = await request(app, '/readyz')
      const body = await readyOf(res)
      expect(res.status, JSON.stringify(body)).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(body).toMatchObject({ status: 'ready', failed: [] })
      expect(body.checks.migrations.detail).toBe(`up to ${latestMigration().tag}`)
      expect(events.state).toBe('up')
      const head = await request(app, '/readyz', 'HEAD')
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
    } finally {
      await events.close()
    }
  })

  it('/readyz: 503 at once when the process drains, naming it', async () => {
    const lifecycle = createLifecycle()
    const app = createApi({ db: t.db, lifecycle })
    expect((await request(app, '/readyz')).status).toBe(200)
    lifecycle.drain()
    const res = await request(app, '/readyz')
    expect(res.status).toBe(503)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await readyOf(res)
    expect(body).toMatchObject({ status: 'not_ready', error: 'not_ready', failed: ['draining'] })
    expect(body.message).toBe('not ready: draining')
    expect((await request(app, '/readyz', 'HEAD')).status).toBe(503)
    // Alive all the same: nothing restarts a machine that is stopping.
    expect((await request(app, '/healthz')).status).toBe(200)
  })

  it('/readyz: 503 naming LISTEN when it is down', async () => {
    const events: EventBus = createEventBus(
      async () => {
        throw new Error('connection refused')
      },
      { log: () => undefined },
    )
    try {
      const app = createApi({ db: t.db, events })
      const res = await request(app, '/readyz')
      const body = await readyOf(res)
      expect(res.status).toBe(503)
      expect(body.failed).toEqual(['listen'])
      expect(body.checks.listen).toEqual({ ok: false, detail: 'LISTEN is down' })
    } finally {
      await events.close()
    }
  })

  it('/readyz: 503 naming the migrations when this build has one the database lacks', async () => {
    const latest = latestMigration()
    await t.db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ${latest.when}`,
    )
    try {
      const res = await request(createApi({ db: t.db }), '/readyz')
      const body = await readyOf(res)
      expect(res.status).toBe(503)
      expect(body.failed).toEqual(['migrations'])
      expect(body.checks.migrations.detail).toBe(`${latest.tag} not applied yet`)
    } finally {
      await t.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('test', ${latest.when})`,
      )
    }
  })
})

describe('/readyz without a database', () => {
  it('503 naming the database, without the driver message, and the migrations not checked', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), {
      code: 'ECONNREFUSED',
    })
    const db = { execute: () => Promise.reject(refused) } as unknown as Db
    const app = healthRoutes({
      db,
      events: silentBus(),
      lifecycle: createLifecycle(),
      log: () => undefined,
    })
    const res = await request(app, '/readyz')
    expect(res.status).toBe(503)
    const body = await readyOf(res)
    expect(body.failed).toEqual(['database'])
    expect(body.checks.database).toEqual({ ok: false, detail: 'failed (ECONNREFUSED)' })
    expect(body.checks.migrations.detail).toMatch(/^not checked/)
    expect(JSON.stringify(body)).not.toContain('10.1.2.3')
  })

  it('503 when the database does not answer within the time limit', async () => {
    const db = { execute: () => new Promise(() => {}) } as unknown as Db
    const app = healthRoutes({
      db,
      events: silentBus(),
      lifecycle: createLifecycle(),
      timeoutMs: 50,
      log: () => undefined,
    })
    const body = await readyOf(await request(app, '/readyz'))
    expect(body.checks.database).toEqual({ ok: false, detail: 'no answer within 50 ms' })
  })
})

describe('probes while the site starts (api/site/start-page.ts)', () => {
  it('/healthz answers 200 and /readyz 503 until the site is ready', async () => {
    const progress = startProgress(['Open the database'])
    const health = progress.fetch(new Request('http://localhost/healthz'))
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    expect(health.headers.get('cache-control')).toBe('no-store')
    const ready = progress.fetch(new Request('http://localhost/readyz'))
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ error: 'starting' })
    expect(ready.headers.get('cache-control')).toBe('no-store')
  })
})
