// A lost database connection must not take the server down: PostgreSQL ends
// connections on a restart or pg_terminate_backend, and `pg` reports that as
// an 'error' event that kills the process when nobody listens (db/client.ts
// createPool). Requests caught by it answer 503; later ones answer again.
// PostgreSQL only: PGlite runs in this process and has no connections to lose.
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client.ts'
import { type Api, createApi } from '../app.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import { type TcpProxy, tcpProxy } from '../test/tcp-proxy.ts'

const serverUrl = process.env.DATABASE_URL

/** Member and public calls as a browser sends them; statuses only. */
async function traffic(app: Api, cookie: string): Promise<number[]> {
  const calls = [
    ['/api/settings.php', undefined],
    ['/api/user.php', cookie],
    ['/api/likes.php', cookie],
    ['/api/search.php', cookie],
  ] as const
  return Promise.all(
    calls.map(async ([path, c]) => {
      const res = await app.request(`http://localhost${path}`, {
        headers: c ? { cookie: c, host: 'localhost' } : { host: 'localhost' },
      })
      await res.arrayBuffer()
      return res.status
    }),
  )
}

async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid()) AS t`,
      [database],
    )
    return rows[0]?.n ?? 0
  } finally {
    await admin.end()
  }
}

describe.skipIf(!serverUrl)('database connections lost (postgres)', () => {
  let t: TestDatabase
  let name: string
  let email: string

  beforeAll(async () => {
    t = await freshDatabase('postgres')
    // pg's result of a raw statement: rows of plain objects.
    const result = (await t.db.execute(sql`SELECT current_database() AS name`)) as unknown as {
      rows: { name: string }[]
    }
    name = result.rows[0]!.name
    email = (await addMember(t.db, { email: 'outage@example.com', country: 'NL' })).email
  })
  afterAll(() => t.close())

  it('keeps answering while PostgreSQL terminates its connections mid-traffic', async () => {
    const app = createApi({ db: t.db })
    const cookie = await login(app, email, TEST_PASSWORD)
    const seen: number[] = []
    let terminated = 0
    for (let round = 0; round < 8; round++) {
      const load = Promise.all([traffic(app, cookie), traffic(app, cookie)])
      if (round % 2 === 0) terminated += await terminateBackends(name)
      seen.push(...(await load).flat())
    }
    expect(terminated, 'backends terminated mid-traffic').toBeGreaterThan(0)
    // A request on a killed connection is a 503 with Retry-After, never a 500.
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([])
    // The pool replaced the dead connections: everything answers again.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await traffic(app, cookie)).toEqual([200, 200, 200, 200])
  })

  describe('through a proxy that plays a restart', () => {
    let proxy: TcpProxy
    let app: Api
    let close: () => Promise<void>

    beforeAll(async () => {
      const target = new URL(serverUrl!)
      proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
      const url = new URL(serverUrl!)
      url.host = `127.0.0.1:${proxy.port}`
      url.pathname = `/${name}`
      const database = await openDatabase({ kind: 'postgres', url: url.href })
      close = () => database.close()
      app = createApi({ db: database.db })
    })
    afterAll(async () => {
      await close()
      await proxy.stop()
    })

    it('answers 503 while the database is down and 200 once it is back', async () => {
      const cookie = await login(app, email, TEST_PASSWORD)
      expect(await traffic(app, cookie)).toEqual([200, 200, 200, 200])

      await proxy.stop()
      const down = await app.request('http://localhost/api/settings.php', {
        headers: { host: 'localhost' },
      })
      expect(down.status).toBe(503)
      expect(down.headers.get('retry-after')).toBe('1')
      expect(await down.json()).toEqual({ error: 'database_unavailable' })
      expect((await traffic(app, cookie)).every((s) => s === 503)).toBe(true)

      await proxy.start()
      expect(await traffic(app, cookie)).toEqual([200, 200, 200, 200])
    })
  })
})
