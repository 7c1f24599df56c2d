// The site behind Debian's PgBouncer in the one mode it supports (session
// pooling, docs/several-machines.md "PgBouncer"): two app processes
// (api/start.ts under node, as `npm start` runs it), started in the same tick
// on one empty database, reach PostgreSQL only through PgBouncer, which caps
// the server's connections. The start-up lock (a session-level advisory
// lock), the named prepared statements and LISTEN all ride on PgBouncer's
// connections: the demo is seeded once, members sign up and write, a message
// reaches a stream held by the other process, and under concurrent requests
// the server never sees more connections than the pool figures per process
// promise (DATABASE_POOL_SIZE + 1 for LISTEN). Needs DATABASE_URL and
// /usr/sbin/pgbouncer (.ci/run installs it); skipped, saying which, without.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../api/contract/endpoints.ts'
import { emptyPostgresDatabase } from '../api/test/databases.ts'
import { eventStream } from '../api/test/event-stream.ts'
import { scaled } from '../api/test/time-scale.ts'
import { LISTEN_APPLICATION_NAME } from '../db/listen.ts'
import {
  callJson as call,
  sessionCookieOf as cookieOf,
  DEMO,
  freePort,
  type Site,
  startSite,
  until,
} from './harness.ts'

const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer'
/** Each process's pool (DATABASE_POOL_SIZE); it holds one more connection for LISTEN. */
const POOL_SIZE = 3
const PROCESSES = 2
/** What the processes promise to hold at most (docs/several-machines.md, pool size). */
const PROMISED = PROCESSES * (POOL_SIZE + 1)
/**
 * PgBouncer's cap on server connections, set well above the promise so the
 * test sees what the app itself opens, not what PgBouncer lets through.
 */
const SERVER_CAP = 50
const CONCURRENT = 40
const WAIT_MS = scaled(60_000)

const missing = [
  process.env.DATABASE_URL ? '' : 'set DATABASE_URL to run it',
  existsSync(PGBOUNCER) ? '' : `no ${PGBOUNCER}: apt-get install pgbouncer`,
].filter(Boolean)
const suite = missing.length === 0 ? describe : describe.skip

interface Bouncer {
  port: number
  output(): string
  stop(): Promise<void>
}

/**
 * Debian's pgbouncer in the foreground on a config of its own: session
 * pooling in front of the test server, at most SERVER_CAP server connections.
 * PgBouncer will not run as root; as root it is started with `-u postgres`.
 */
async function startPgBouncer(server: URL): Promise<Bouncer> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'amora-pgbouncer-'))
  chmodSync(dir, 0o755)
  const users = join(dir, 'users.txt')
  writeFileSync(users, `"${decodeURIComponent(server.username || 'postgres')}" ""\n`)
  const ini = join(dir, 'pgbouncer.ini')
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = session',
      'max_client_conn = 500',
      `default_pool_size = ${SERVER_CAP}`,
      `max_db_connections = ${SERVER_CAP}`,
      // node-postgres sends no such parameters, but other clients may.
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  )
  for (const f of [users, ini]) chmodSync(f, 0o644)
  const root = process.getuid?.() === 0
  const child: ChildProcess = spawn(PGBOUNCER, [...(root ? ['-u', 'postgres'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  for (const s of [child.stdout, child.stderr])
    s?.on('data', (c: Buffer) => {
      log = (log + c.toString()).slice(-20_000)
    })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = new URL(server.href)
  url.port = String(port)
  await until(`pgbouncer to take connections on ${port}:\n${log}`, async () => {
    const client = new pg.Client({ connectionString: url.href })
    await client.connect()
    await client.end()
    return true
  })
  return {
    port,
    output: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

suite(`PgBouncer: two processes through session pooling${missing.length ? ` (${missing.join('; ')})` : ''}`, () => {
  let database: { url: string; drop(): Promise<void> }
  let bouncer: Bouncer | undefined
  let sites: Site[] = []
  /** A direct connection to PostgreSQL (not through PgBouncer), to watch the server's side. */
  let direct: pg.Client
  let dbName = ''
  let newcomer: { cookie: string; id: number }
  let demoCookie: string
  let conversation: number

  /** Server connections to the test database right now, all of them PgBouncer's. */
  const serverConnections = async () =>
    (
      await direct.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [dbName],
      )
    ).rows[0]!.n

  beforeAll(async () => {
    database = await emptyPostgresDatabase()
    const url = new URL(database.url)
    dbName = url.pathname.slice(1)
    direct = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await direct.connect()
    bouncer = await startPgBouncer(url)
    const through = new URL(database.url)
    through.port = String(bouncer.port)
    // Started in the same tick: both reach the empty database together, and
    // the start-up lock, taken through PgBouncer, lets one migrate and seed.
    sites = await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        startSite({
          DATABASE_URL: through.href,
          DATABASE_POOL_SIZE: String(POOL_SIZE),
          DEMO_SEED: 'on',
          DEMO_MEMBERS: '20',
        }),
      ),
    )
  })
  afterAll(async () => {
    await Promise.all(sites.map((s) => s.stop()))
    await bouncer?.stop()
    await direct?.end()
    await database?.drop()
  })

  it('migrated and seeded the demo once, with the start-up lock held through PgBouncer', () => {
    const said = sites.map((s) => s.output())
    expect(said.filter((o) => o.includes('seed: demo data already present'))).toHaveLength(
      PROCESSES - 1,
    )
  })

  it('signs a member up and opens a chat through PgBouncer', async () => {
    const email = `bouncer-${randomUUID().slice(0, 8)}@example.com`
    const res = await call(sites[0]!.url, 'POST', `${endpoints.signup.path}?new=1`, undefined, {
      email,
      name: 'Bo',
      password: 'a long enough secret',
      timezone: 'Europe/Amsterdam',
      country: 'NL',
      language: 'en',
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const cookie = cookieOf(res)!
    const me = await call(sites[1]!.url, 'GET', endpoints.user.path, cookie)
    expect(me.status).toBe(200)
    newcomer = { cookie, id: ((await me.json()) as { profile: { id: number } }).profile.id }

    const login = await call(sites[0]!.url, 'POST', endpoints.login.path, undefined, DEMO)
    expect(login.status, await login.clone().text()).toBe(200)
    demoCookie = cookieOf(login)!
    const chat = await call(
      sites[0]!.url,
      'GET',
      `${endpoints.chatStart.path}?profile=${newcomer.id}`,
      demoCookie,
    )
    expect(chat.status, await chat.clone().text()).toBe(200)
    conversation = ((await chat.json()) as { id: number }).id
  })

  it("delivers a message live to the other process's stream: LISTEN holds its PgBouncer connection", async () => {
    // Each process's LISTEN connection reaches the server through PgBouncer.
    const { rows } = await direct.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [dbName, LISTEN_APPLICATION_NAME],
    )
    expect(rows[0]!.n, 'one LISTEN connection per process').toBe(PROCESSES)

    const abort = new AbortController()
    const res = await fetch(new URL(endpoints.events.path, sites[1]!.url), {
      headers: { cookie: newcomer.cookie },
      signal: abort.signal,
    })
    expect(res.status).toBe(200)
    const reader = eventStream(res.body)
    try {
      await reader.untilText('event: ready', WAIT_MS)
      const sent = await call(sites[0]!.url, 'POST', endpoints.sendMessage.path, demoCookie, {
        conversation,
        text: 'hello through PgBouncer',
        client_id: randomUUID(),
      })
      expect(sent.status, await sent.clone().text()).toBe(201)
      await reader.until(
        'the poke of the message on the other process',
        (seen) => seen.includes('event: poke') && seen.includes(`"conversation":${conversation}`),
        WAIT_MS,
      )
    } finally {
      abort.abort()
    }
  })

  it(`answers ${CONCURRENT} concurrent requests while the server sees at most ${PROMISED} connections`, async () => {
    let most = 0
    let watching = true
    const watch = (async () => {
      while (watching) {
        most = Math.max(most, await serverConnections())
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    const statuses = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const site = sites[i % PROCESSES]!
        const cookie = i % 2 === 0 ? newcomer.cookie : demoCookie
        const path = i % 4 < 2 ? endpoints.user.path : endpoints.chats.path
        return (await call(site.url, 'GET', path, cookie)).status
      }),
    )
    watching = false
    await watch
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    // The processes asked for connections: the pools and LISTEN are in use.
    expect(most).toBeGreaterThan(PROCESSES)
    // The pool figures per process hold: never more than DATABASE_POOL_SIZE + 1 each.
    expect(most).toBeLessThanOrEqual(PROMISED)
    expect(bouncer!.output()).not.toMatch(/no more connections allowed|query_wait_timeout/)
  })
})
