// Reads on a real PostgreSQL streaming replica (db/replica.ts,
// docs/several-machines.md "Reads on a replica"): a base backup of the
// DATABASE_URL server started as a hot standby (api/test/streaming-replica.ts),
// the API given a router over both. Skipped, with the reason, where the
// machine cannot run one (no DATABASE_URL, not root, no cluster 15/main).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type ReadRouter, replicaReads } from '../../db/replica.ts'
import { ProfileResponse } from '../contract/index.ts'
import { type AccountsApi, accountsApi } from '../test/accounts.ts'
import { freshDatabase, type TestDatabase } from '../test/databases.ts'
import { login, send } from '../test/http.ts'
import { addMember, TEST_PASSWORD } from '../test/seed.ts'
import {
  queryOn,
  replicaUnavailable,
  type StreamingReplica,
  startStreamingReplica,
} from '../test/streaming-replica.ts'
import { scaled } from '../test/time-scale.ts'

const TOKEN = 'replica-test-token'
const unavailable = replicaUnavailable()
const suite = unavailable ? describe.skip : describe
/** The probe period of the test's router: short, so the states change quickly. */
const PROBE_MS = 200

/** Polls `check` until it holds, at most `ms` (scaled with the load); never a fixed sleep. */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000) {
  const end = Date.now() + scaled(ms)
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited in vain: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

suite(`reads on a streaming replica${unavailable ? ` (${unavailable})` : ''}`, () => {
  const lines: string[] = []
  let replica: StreamingReplica
  let database: TestDatabase
  let router: ReadRouter
  let api: AccountsApi
  let dbName: string
  let member: { id: number; email: string }
  let cookie: string
  const onReplica = (statement: string) => queryOn(replica.url('postgres'), statement)

  beforeAll(async () => {
    replica = await startStreamingReplica(process.env.DATABASE_URL ?? '')
    // Created after the base backup: streaming brings it to the replica.
    database = await freshDatabase('postgres')
    dbName = new URL(database.url ?? '').pathname.slice(1)
    member = await addMember(database.db, { activatedAt: new Date() })
    await until('the suite database on the replica', () =>
      queryOn(replica.url(dbName), 'SELECT 1').then(
        () => true,
        () => false,
      ),
    )
    router = replicaReads(database.db, {
      url: replica.url(dbName),
      maxLagMs: scaled(3000),
      probeMs: PROBE_MS,
      log: (line) => lines.push(line),
    })
    vi.stubEnv('METRICS_TOKEN', TOKEN)
    api = accountsApi(database.db, { reads: router })
    vi.unstubAllEnvs()
    cookie = await login(api.app, member.email, TEST_PASSWORD)
  })
  afterAll(async () => {
    await router?.close()
    await replica?.remove()
    await api?.mailer.idle()
    await database?.close()
  })

  /**
   * The router's lines are one a change of state: in use and skipped take
   * turns (the server's other suites may make the replica lag a moment now
   * and then, which is a change too).
   */
  const alternating = () => {
    const states = lines
      .filter((l) => l.startsWith('db: replica '))
      .map((l) => l.startsWith('db: replica in use'))
    return states.every((s, i) => i === 0 || s !== states[i - 1])
  }
  const metrics = async () => {
    const res = await api.app.request('http://localhost/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    return res.text()
  }
  const search = async () => {
    const res = await send(api.app, '/api/search.php', { cookie })
    expect(res.status).toBe(200)
  }
  /** The rows the replica's backends read in the suite's database (pg_stat_database). */
  const replicaRowsRead = async () => {
    const rows = await onReplica(
      `SELECT tup_returned + tup_fetched AS n FROM pg_stat_database WHERE datname = '${dbName}'`,
    )
    return Number(rows[0]?.n ?? 0)
  }
  /** Searches until one is served by `target` (the session's write window passes first). */
  const searchUntilServedBy = (target: 'replica' | 'primary') =>
    until(`a search served by the ${target}`, async () => {
      const before = { ...router.stats.reads }
      await search()
      return router.stats.reads[target] > before[target]
    })

  it('a search is served by the replica: its counter and the replica’s own statistics grow', async () => {
    await until('the replica in use', () => router.stats.usable)
    await searchUntilServedBy('replica')
    const rowsBefore = await replicaRowsRead()
    await until('rows read on the replica by a search it served', async () => {
      const replicaBefore = router.stats.reads.replica
      await search()
      return router.stats.reads.replica > replicaBefore && (await replicaRowsRead()) > rowsBefore
    })
    const scraped = await metrics()
    expect(scraped).toMatch(/^db_replica_usable 1$/m)
    expect(scraped).toMatch(/^db_reads_total\{target="replica"\} [1-9]\d*$/m)
    expect(lines.at(-1)).toMatch(/^db: replica in use/)
    expect(alternating(), lines.join('\n')).toBe(true)
  })

  it('a likes list is read from the replica too', async () => {
    // (Another suite's writes may hold the replica back a moment: ask again then.)
    await until('a likes list served by the replica', async () => {
      const replicaBefore = router.stats.reads.replica
      const res = await send(api.app, '/api/likes.php', { cookie })
      expect(res.status).toBe(200)
      return router.stats.reads.replica === replicaBefore + 1
    })
  })

  it('a member reads their own profile change at once, even while the replica replays nothing', async () => {
    await onReplica('SELECT pg_wal_replay_pause()')
    await until('replay paused', async () => {
      const rows = await onReplica('SELECT pg_get_wal_replay_pause_state() AS state')
      return rows[0]?.state === 'paused'
    })
    const put = await send(api.app, '/api/user.php', {
      method: 'PUT',
      cookie,
      body: { country: 'NL', city: 'Utrecht' },
    })
    expect(put.status).toBe(200)
    const primaryBefore = router.stats.reads.primary
    const res = await send(api.app, `/api/profile.php?id=${member.id}`, { cookie })
    expect(res.status).toBe(200)
    expect(ProfileResponse.parse(await res.json()).profile.city).toBe('Utrecht')
    expect(router.stats.reads.primary, 'the writer read the primary').toBe(primaryBefore + 1)
    // A guest's read of the same profile, if it went to the paused replica,
    // shows the old city: the replica really is behind.
    const replicaBefore = router.stats.reads.replica
    const guest = await send(api.app, `/api/profile.php?id=${member.id}`)
    const guestCity = ProfileResponse.parse(await guest.json()).profile.city
    expect(guestCity).toBe(router.stats.reads.replica > replicaBefore ? null : 'Utrecht')
  })

  it('a replica further behind than the limit is skipped until it catches up, one log line each way', async () => {
    // Replay is still paused; the write above leaves the replica behind.
    await until('the lagging replica skipped', () => !router.stats.usable)
    expect(await metrics()).toMatch(/^db_replica_usable 0$/m)
    // The line names the lag: over the limit, or (on a busy server, whose
    // replica already trailed before the pause) behind every position the
    // probe sampled, which is as old as the limit and more.
    expect(lines.at(-1), lines.join('\n')).toMatch(
      /^db: replica skipped.*(over DATABASE_REPLICA_MAX_LAG_MS|lag unknown)/,
    )
    const replicaBefore = router.stats.reads.replica
    await searchUntilServedBy('primary')
    expect(router.stats.reads.replica, 'no read on the lagging replica').toBe(replicaBefore)

    await onReplica('SELECT pg_wal_replay_resume()')
    await until('the replica in use again', () => router.stats.usable)
    await searchUntilServedBy('replica')
    expect(await metrics()).toMatch(/^db_replica_usable 1$/m)
    // One line a change of state, never one a probe.
    expect(alternating(), lines.join('\n')).toBe(true)
  })

  it('a stopped replica is skipped: reads work on the primary, a log line and the metric say so', async () => {
    // From a replica in use (other suites' writes may hold it back a moment).
    await until('the replica in use before it stops', () => router.stats.usable)
    await replica.stop()
    await until('the stopped replica skipped', () => !router.stats.usable)
    expect(lines.at(-1), lines.join('\n')).toMatch(
      /^db: replica skipped.*(does not answer|no answer)/,
    )
    expect(alternating(), lines.join('\n')).toBe(true)
    expect(await metrics()).toMatch(/^db_replica_usable 0$/m)
    const primaryBefore = router.stats.reads.primary
    await search()
    expect(router.stats.reads.primary).toBe(primaryBefore + 1)
  })
})
