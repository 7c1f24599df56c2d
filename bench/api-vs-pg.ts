// The API against the same SQL run directly with `pg`: the API's own cost
// per request (goal: at least 0.7x raw pg for user, search, chats and likes at
// 10 connections on PostgreSQL). Prints requests/s of each side and their ratio next to the goal.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/api-vs-pg.ts
//        [--seconds=5] [--rounds=2] [--connections=10] [--members=2000] [--show] [--profile]
//        [--only=user,search,chats,likes] [--client=wrk|node]
//
// A throw-away database holds `--members` members; the viewer has 50 chats,
// likes 100 members and is liked by 100. For each endpoint the benchmark
// first records the statements one request runs (in order, with their
// parameters, on a pooled connection of an in-process API with the same code),
// then measures, interleaved so both see the same load on this shared machine:
// - API: the server of `npm start` in a process of its own
//   (bench/api-process.ts, pool of 10), 10 keep-alive HTTP connections
//   (wrk where installed, else Node's client: CLIENT below);
// - pg: 10 `pg` clients, each running the recorded statements of one request
//   one after the other on its connection, rows parsed, no HTTP and no JSON.
// A benchmark, not a test: it never fails on a figure.
import { createHash, randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { createApi } from '../api/app.ts'
import { createMailer } from '../api/mail/mailer.ts'
import { freshDatabase } from '../api/test/databases.ts'
import { addConversation, addMembers, birthDate } from '../api/test/seed.ts'
import { openDatabase } from '../db/client.ts'
import { refreshNewestMessages } from '../db/newest-message.ts'
import { likes, messages, sessions } from '../db/schema/index.ts'
import {
  cpuSecondsOf,
  cpuSecondsOfAll,
  hasWrk,
  keepAliveClient,
  loadavg,
  startApiProcess,
  wrkRun,
} from './http.ts'

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  return hit ? Number(hit.split('=')[1]) : fallback
}
const SECONDS = arg('seconds', 5)
const ROUNDS = arg('rounds', 2)
const CONNECTIONS = arg('connections', 10)
const MEMBERS = arg('members', 2000)
const GOAL = 0.7
/**
 * The API side's HTTP client. The clients share the two cores with the
 * server and PostgreSQL, so what they spend per request is taken from the
 * API: Node's keep-alive client spent 0.22-0.39 ms a request, as much as
 * the `pg` side's whole request for `user` (bench/RESULTS.md). wrk, a C load
 * generator (Debian's `wrk`), spends a fraction of that; it is the default
 * where it is installed, `--client=node` keeps Node's.
 */
const CLIENT =
  process.argv.find((a) => a.startsWith('--client='))?.slice('--client='.length) ??
  (hasWrk() ? 'wrk' : 'node')
if (CLIENT !== 'wrk' && CLIENT !== 'node') throw new Error('--client is wrk or node')

const ALL_ENDPOINTS: { label: string; path: string }[] = [
  { label: 'user', path: '/api/user.php' },
  { label: 'search', path: '/api/search.php?gender=female&min_age=18&max_age=99' },
  { label: 'chats', path: '/api/chats.php' },
  { label: 'likes', path: '/api/likes.php' },
]

// --only=chats,likes measures those alone (a profile of one endpoint).
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
const ENDPOINTS = ALL_ENDPOINTS.filter((e) => !only || only.includes(e.label))

if (!process.env.DATABASE_URL) throw new Error('bench/api-vs-pg.ts needs DATABASE_URL (PostgreSQL)')
console.log(`bench/api-vs-pg.ts on ${new Date().toISOString()}, load average ${loadavg()}`)

// --- data --------------------------------------------------------------------
const fresh = await freshDatabase('postgres')
const db = fresh.db
const url = new URL(process.env.DATABASE_URL)
url.pathname = `/${
  ((await db.execute(sql`SELECT current_database() AS d`)) as unknown as { rows: { d: string }[] })
    .rows[0]!.d
}`
const people = await addMembers(
  db,
  Array.from({ length: MEMBERS }, (_, i) => ({
    gender: i % 2 === 0 ? ('male' as const) : ('female' as const),
    dateOfBirth: birthDate(18 + (i % 50)),
  })),
)
const viewer = people[0]!
const token = randomBytes(32).toString('base64url')
await db.insert(sessions).values({
  tokenHash: createHash('sha256').update(token).digest('hex'),
  memberId: viewer.id,
  expiresAt: new Date(Date.now() + 86_400_000),
})
const cookie = `sid=${token}`
const others = people.slice(1)
await db
  .insert(likes)
  .values(others.slice(0, 100).map((o) => ({ likerId: viewer.id, likedId: o.id })))
await db
  .insert(likes)
  .values(others.slice(50, 150).map((o) => ({ likerId: o.id, likedId: viewer.id })))
for (const o of others.slice(200, 250)) {
  const conversationId = await addConversation(db, viewer.id, o.id)
  await db.insert(messages).values(
    Array.from({ length: 20 }, (_, k) => ({
      conversationId,
      senderId: k % 2 ? viewer.id : o.id,
      body: `message ${k}`,
    })),
  )
}
await refreshNewestMessages(db)
await db.execute(sql`ANALYZE`)

// --- what one request runs ------------------------------------------------------
interface Statement {
  name?: string
  text: string
  values?: unknown[]
  rowMode?: string
}
let recording: Statement[] | null = null
const clientQuery = pg.Client.prototype.query
// Every statement of the recording API goes through a pooled pg.Client.
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (recording) {
    const [first, second] = args as [string | Statement, unknown[] | undefined]
    const config = typeof first === 'string' ? { text: first } : first
    recording.push({
      ...(config.name ? { name: config.name } : {}),
      text: config.text,
      values: (Array.isArray(second) ? second : config.values) ?? [],
      ...(config.rowMode ? { rowMode: config.rowMode } : {}),
    })
  }
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args)
} as typeof pg.Client.prototype.query

const recorder = await openDatabase({ kind: 'postgres', url: url.href })
const inProcess = createApi({
  db: recorder.db,
  accounts: {
    mailer: createMailer({ devListing: false }),
    trustProxy: false,
    publicUrl: undefined,
  },
})
const scripts = new Map<string, Statement[]>()
for (const e of ENDPOINTS) {
  const ask = () => inProcess.request(`http://127.0.0.1${e.path}`, { headers: { cookie } })
  // Warm: caches of the API (settings, cost) fill as they would on a live server.
  for (let i = 0; i < 3; i++) await (await ask()).arrayBuffer()
  recording = []
  const res = await ask()
  await res.arrayBuffer()
  scripts.set(e.label, recording)
  recording = null
  if (res.status !== 200) throw new Error(`${e.path} answered ${res.status}`)
}
pg.Client.prototype.query = clientQuery
await recorder.close()
// --show lists each endpoint's statements (what the API asks the database per request).
if (process.argv.includes('--show'))
  for (const [label, script] of scripts)
    for (const s of script) console.log(`${label}: ${s.text.replace(/\s+/g, ' ').slice(0, 160)}`)

// --- both sides ---------------------------------------------------------------
// --profile: the API process writes its CPU profile to the temp directory (node --cpu-prof).
const api = await startApiProcess(
  url.href,
  process.argv.includes('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${tmpdir()}`] : [],
)
const http = keepAliveClient(api.url, CONNECTIONS)
const direct = new pg.Pool({ connectionString: url.href, max: CONNECTIONS })

/** CPU milliseconds per request, by who spent them. */
interface CpuShare {
  api: number
  postgres: number
  client: number
}
const cpuNow = (): CpuShare => {
  const own = process.cpuUsage()
  return {
    api: cpuSecondsOf(api.pid),
    postgres: cpuSecondsOfAll('postgres'),
    client: (own.user + own.system) / 1e6,
  }
}

/**
 * Requests per second of `run` on CONNECTIONS concurrent loops for SECONDS,
 * and the CPU each process spent per request meanwhile (from /proc): on two
 * shared cores a side's rate is bounded by the sum.
 */
async function rate(
  run: (loop: number) => Promise<void>,
): Promise<{ rate: number; cpu: CpuShare }> {
  let done = 0
  const until = performance.now() + SECONDS * 1000
  const started = performance.now()
  const before = cpuNow()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, loop) => {
      while (performance.now() < until) {
        await run(loop)
        done++
      }
    }),
  )
  const after = cpuNow()
  const per = (k: keyof CpuShare) => ((after[k] - before[k]) * 1000) / done
  return {
    rate: done / ((performance.now() - started) / 1000),
    cpu: { api: per('api'), postgres: per('postgres'), client: per('client') },
  }
}

let refused = 0
const viaApi = (path: string) => async () => {
  const res = await http.request('GET', path, { cookie, 'accept-encoding': 'gzip' })
  if (res.status !== 200) refused++
}

/**
 * The API side's requests/s and CPU per request: wrk's connections, or
 * (`--client=node`, or without wrk) the loops of Node's keep-alive client.
 */
async function rateOfApi(path: string): Promise<{ rate: number; cpu: CpuShare }> {
  if (CLIENT === 'node') return rate(viaApi(path))
  const before = cpuNow()
  const run = await wrkRun(`${api.url}${path}`, CONNECTIONS, SECONDS, {
    cookie,
    'accept-encoding': 'gzip',
  })
  const after = cpuNow()
  refused += run.notOk
  const per = (seconds: number) => (seconds * 1000) / run.requests
  return {
    rate: run.rate,
    cpu: {
      api: per(after.api - before.api),
      postgres: per(after.postgres - before.postgres),
      client: per(run.cpuSeconds + after.client - before.client),
    },
  }
}
const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => direct.connect()))
const viaPg = (script: Statement[]) => async (loop: number) => {
  const client = clients[loop]!
  for (const s of script) await client.query(s as pg.QueryConfig)
}

const rows: string[] = []
const cpuRows: string[] = []
const ms = (x: number) => x.toFixed(2).padStart(5)
const mean = (xs: number[]) => xs.reduce((x, y) => x + y) / xs.length
const meanCpu = (xs: CpuShare[]): CpuShare => ({
  api: mean(xs.map((x) => x.api)),
  postgres: mean(xs.map((x) => x.postgres)),
  client: mean(xs.map((x) => x.client)),
})
for (const e of ENDPOINTS) {
  const script = scripts.get(e.label)!
  const apiRuns: Awaited<ReturnType<typeof rate>>[] = []
  const pgRuns: Awaited<ReturnType<typeof rate>>[] = []
  // Warm both sides, then alternate so a burst of load elsewhere hits both.
  await rateOfApi(e.path)
  await rate(viaPg(script))
  for (let r = 0; r < ROUNDS; r++) {
    apiRuns.push(await rateOfApi(e.path))
    pgRuns.push(await rate(viaPg(script)))
  }
  const a = mean(apiRuns.map((x) => x.rate))
  const p = mean(pgRuns.map((x) => x.rate))
  const ratio = a / p
  rows.push(
    `| ${e.label.padEnd(6)} | ${String(script.length).padStart(10)} | ${a.toFixed(0).padStart(7)} | ${p.toFixed(0).padStart(7)} | ${ratio.toFixed(2).padStart(5)}x | >= ${GOAL}x ${ratio >= GOAL ? 'met' : 'NOT met'} | ${loadavg()} |`,
  )
  console.log(rows[rows.length - 1])
  const ac = meanCpu(apiRuns.map((x) => x.cpu))
  const pc = meanCpu(pgRuns.map((x) => x.cpu))
  cpuRows.push(
    `| ${e.label.padEnd(6)} | ${ms(ac.api)} | ${ms(ac.postgres)} | ${ms(ac.client)} | ${ms(ac.api + ac.postgres + ac.client)} | ${ms(pc.postgres)} | ${ms(pc.client)} | ${ms(pc.postgres + pc.client)} |`,
  )
}
for (const c of clients) c.release()
console.log(
  `\n${CONNECTIONS} connections each side, ${ROUNDS} x ${SECONDS} s per side, ${MEMBERS} members, API client ${CLIENT}, ${refused} API answers not 200`,
)
console.log('| what   | statements | API r/s |  pg r/s | ratio | goal | load average after |')
console.log('|---|---|---|---|---|---|---|')
for (const r of rows) console.log(r)
console.log(
  "\nCPU ms per request (from /proc; both sides share the two cores, so each side's rate is about cores / its sum):",
)
console.log('| what   | API: server | postgres | client | sum | pg: postgres | client | sum |')
console.log('|---|---|---|---|---|---|---|---|')
for (const r of cpuRows) console.log(r)
http.close()
await direct.end()
await api.close()
await fresh.close()
process.exit(0)
