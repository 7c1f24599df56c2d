// Search, likes and chats at a million members: fast at scale.
//
//   node --import tsx bench/search.ts [--reseed] [--members=1000000] [--runs=30] [--explain=4]
//                                    [--churn=10000] [--only=search|lists]
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_members)
// names the database; it is created when missing and seeded on the first run
// (about a minute; later runs reuse the data, --reseed redoes it). Every figure
// comes from the real service functions (search, likesOf, chatsOf), so it
// measures what the API does, minus HTTP. Prints p50/p95/p99 per query shape
// and EXPLAIN (ANALYZE, BUFFERS) of the slowest shapes' SQL. A benchmark, not a
// test: it never fails on a time.
import { cpus, loadavg } from 'node:os'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { chatsOf } from '../api/chats/chats.ts'
import { likesOf } from '../api/likes/likes.ts'
import { search } from '../api/search/search.ts'
import { type Db, openDatabase } from '../db/client.ts'
import { findCountry } from '../db/reference/geo.ts'
import { members } from '../db/schema/index.ts'
import { explainSearch } from './explain.ts'
import { existingSeed, restoreAutovacuum, seedMembers, simulateActivity } from './seed-members.ts'
import { edgeShapes, type Shape, searchShapes, type Viewer } from './shapes.ts'
import { measure, ms, type Summary, summarise, table } from './stats.ts'

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/bench_members'
/** The goal: p95 under this for every shape; the table marks shapes above it. */
const TARGET_P95_MS = 20
const WARMUP_RUNS = 3

const arg = (name: string, fallback: number, min = 1) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  const n = hit ? Number(hit.split('=')[1]) : fallback
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}`)
  return n
}

const log = (line: string) => console.log(line)

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url)
  const name = decodeURIComponent(target.pathname.slice(1))
  const server = new URL(url)
  server.pathname = '/postgres'
  const client = new pg.Client({ connectionString: server.href })
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount === 0) {
      log(`creating database ${name}`)
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`)
    }
  } finally {
    await client.end()
  }
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_URL
  const total = arg('members', 1_000_000)
  const runs = arg('runs', 30)
  const explainCount = arg('explain', 4)
  // 1% of the members: about twice what autovacuum lets pile up on members
  // (db/migrations/0003_members_autovacuum.sql), so the figures are the
  // worst state production is in between two vacuums. --churn=0: just vacuumed.
  const churn = arg('churn', Math.round(total / 100), 0)
  await ensureDatabase(url)
  const database = await openDatabase({ kind: 'postgres', url })
  const { db } = database
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    let people = process.argv.includes('--reseed') ? null : await existingSeed(client, total)
    if (people) {
      log(`seed: ${total.toLocaleString('en-US')} members already there (--reseed redoes it)`)
    } else {
      people = await seedMembers(client, total, log)
      const start = performance.now()
      // VACUUM sets the visibility map, which index-only scans rely on (as
      // autovacuum would in production); ANALYZE gives the planner statistics.
      await client.query('VACUUM (ANALYZE)')
      log(`seed: vacuum + analyze ${((performance.now() - start) / 1000).toFixed(1)} s`)
    }
    await simulateActivity(client, total, churn)
    log(`activity: ${churn.toLocaleString('en-US')} members active since the last vacuum`)
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version')
    log(
      `PostgreSQL ${rows[0]?.server_version}, ${runs} runs per shape after ${WARMUP_RUNS} warm-up`,
    )

    const load = async (id: number) => {
      const [row] = await db.select().from(members).where(eq(members.id, id))
      if (!row) throw new Error(`bench member ${id} is missing: run with --reseed`)
      return row
    }
    const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1]
    log(`machine: ${cpus().length} cores, load average ${loadAverage()}`)
    const results =
      only === 'lists'
        ? []
        : await benchSearch(db, [await load(people.viewerNl), await load(people.viewerUs)], runs)
    if (only !== 'search') await benchLists(db, people.star, runs)
    log(`load average at the end: ${loadAverage()}`)
    if (results.length === 0) return

    const worst = [...results].sort((a, b) => b.summary.p95 - a.summary.p95).slice(0, explainCount)
    const over = results.filter((r) => r.summary.p95 >= TARGET_P95_MS).length
    const all = summarise(results.flatMap((r) => [r.summary.p95]))
    log('')
    log(
      `search: ${results.length} shapes, worst p95 ${ms(all.max)} ms, median p95 ${ms(all.p50)} ms; ` +
        `${over} shape(s) at or above the ${TARGET_P95_MS} ms target`,
    )
    for (const w of worst) {
      log(`\n### EXPLAIN of ${w.shape.label} (p95 ${ms(w.summary.p95)} ms)\n`)
      log(await explainSearch(url, w.shape.viewer, w.shape.query))
    }
  } finally {
    await restoreAutovacuum(client)
    await client.end()
    await database.close()
  }
}

type Member = typeof members.$inferSelect
type SearchResult = { shape: Shape; summary: Summary; found: number; shown: number }

/** A bench viewer: NL searches NL or BE, US searches US or CA; a region is the first listed. */
const viewerOf = (member: Member): Viewer => ({
  member,
  neighbour: member.country === 'NL' ? 'BE' : 'CA',
  regionOf: (country) => findCountry(country)?.regions[0]?.id ?? null,
})

/** Every filter combination, page 1 and page 50, through the real search(); then edge cases. */
async function benchSearch(db: Db, viewers: Member[], runs: number): Promise<SearchResult[]> {
  const results: SearchResult[] = []
  const edgeRows: string[][] = []
  const shapes = searchShapes(viewers.map(viewerOf))
  for (const [i, shape] of shapes.entries()) {
    const { samples, last } = await measure(
      () => search(db, shape.viewer, shape.query),
      runs,
      WARMUP_RUNS,
    )
    results.push({
      shape,
      summary: summarise(samples),
      found: last.response.paging.num_results,
      shown: last.response.profiles.length,
    })
    if ((i + 1) % 24 === 0) log(`search: ${i + 1}/${shapes.length} shapes measured`)
  }
  log('')
  log(searchTable(results))

  const edges: SearchResult[] = []
  for (const shape of edgeShapes(viewers.map(viewerOf))) {
    const { samples, last } = await measure(
      () => search(db, shape.viewer, shape.query),
      runs,
      WARMUP_RUNS,
    )
    const { paging, profiles, similar } = last.response
    const s = summarise(samples)
    edges.push({ shape, summary: s, found: paging.num_results, shown: profiles.length })
    edgeRows.push([
      shape.label,
      String(paging.num_results),
      String(profiles.length),
      String(similar.length),
      `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}${flag(s) ? ' !' : ''}`,
    ])
  }
  log('')
  log(table(['edge case', 'num_results', 'rows', 'similar', 'p50/p95/p99 ms'], edgeRows))
  return [...results, ...edges]
}

/** The likes and chats lists of the member with 5,000 likes each way and 200 chats. */
async function benchLists(db: Db, star: number, runs: number): Promise<void> {
  const lists: { name: string; fn: () => Promise<string> }[] = [
    {
      name: 'likesOf (5,000 given + 5,000 received)',
      fn: async () => {
        const r = await likesOf(db, star)
        return `${r.profiles.length} + ${r.liked_by.length} profiles`
      },
    },
    {
      name: 'chatsOf (200 conversations)',
      fn: async () => `${(await chatsOf(db, star)).length} chats`,
    },
  ]
  const rows: string[][] = []
  for (const l of lists) {
    const { samples, last } = await measure(l.fn, runs, WARMUP_RUNS)
    const s = summarise(samples)
    rows.push([l.name, last, ms(s.p50), ms(s.p95), ms(s.p99), flag(s)])
  }
  log('')
  log(table(['list', 'size', 'p50 ms', 'p95 ms', 'p99 ms', ''], rows))
}

/** 1, 5 and 15 minute load: the machine is shared, and other work moves the tails. */
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

const flag = (s: Summary) => (s.p95 >= TARGET_P95_MS ? 'OVER' : '')

function searchTable(results: SearchResult[]): string {
  // One row per filter combination, page 1 and page 50 side by side.
  const byKey = new Map<string, { p1?: SearchResult; p50?: SearchResult }>()
  for (const r of results) {
    const entry = byKey.get(r.shape.key) ?? {}
    if (r.shape.page === 1) entry.p1 = r
    else entry.p50 = r
    byKey.set(r.shape.key, entry)
  }
  const cells = (r?: SearchResult) => {
    if (!r) return ['-']
    const { p50, p95, p99 } = r.summary
    return [`${ms(p50)} / ${ms(p95)} / ${ms(p99)}${flag(r.summary) ? ' !' : ''}`]
  }
  const rows = [...byKey.entries()].map(([key, e]) => [
    key,
    String(e.p1?.found ?? ''),
    ...cells(e.p1),
    ...cells(e.p50),
    String(e.p50?.shown ?? ''),
  ])
  return table(
    [
      'viewer gender country region ages',
      'num_results',
      'page 1 p50/p95/p99 ms',
      'page 50 p50/p95/p99 ms',
      'page 50 rows',
    ],
    rows,
  )
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
