// Search, likes and chats at a million members (issue 4 "Fast at scale").
//
//   node --import tsx bench/search.ts [--reseed] [--members=1000000] [--runs=30] [--explain=4]
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_members)
// names the database; it is created when missing and seeded on the first run
// (about a minute; later runs reuse the data, --reseed redoes it). Every figure
// comes from the real service functions (search, likesOf, chatsOf), so it
// measures what the API does, minus HTTP. Prints p50/p95/p99 per query shape
// and EXPLAIN (ANALYZE, BUFFERS) of the slowest shapes' SQL. A benchmark, not a
// test: it never fails on a time.
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { chatsOf } from '../api/services/chats.ts'
import { likesOf } from '../api/services/likes.ts'
import { search } from '../api/services/search.ts'
import { openDatabase } from '../db/client.ts'
import { members } from '../db/schema.ts'
import { findCountry } from '../db/seed/geo.ts'
import { explainSearch } from './explain.ts'
import { existingSeed, seedMembers } from './seed-members.ts'
import { measure, ms, type Summary, summarise, table } from './stats.ts'
import { type Shape, searchShapes } from './shapes.ts'

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/bench_members'
/** Issue 4: p95 under this for every shape; the table marks shapes above it. */
const TARGET_P95_MS = 20
const WARMUP_RUNS = 3

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  const n = hit ? Number(hit.split('=')[1]) : fallback
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`)
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
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version')
    log(`PostgreSQL ${rows[0]?.server_version}, ${runs} runs per shape after ${WARMUP_RUNS} warm-up`)

    const load = async (id: number) => {
      const [row] = await db.select().from(members).where(eq(members.id, id))
      if (!row) throw new Error(`bench member ${id} is missing: run with --reseed`)
      return row
    }
    const viewers = { NL: await load(people.viewerNl), US: await load(people.viewerUs) }

    // Search: every filter combination, page 1 and page 50.
    const results: { shape: Shape; summary: Summary; found: number; shown: number }[] = []
    const shapes = searchShapes(
      Object.values(viewers).map((v) => ({
        member: v,
        neighbour: v.country === 'NL' ? 'BE' : 'CA',
        regionOf: (country: string) => findCountry(country)?.regions[0]?.id ?? null,
      })),
    )
    let done = 0
    for (const shape of shapes) {
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
      if (++done % 24 === 0) log(`search: ${done}/${shapes.length} shapes measured`)
    }
    log('')
    log(searchTable(results))

    // Likes and chats lists of the member with 5,000 likes each way.
    const star = people.star
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
    const listRows: string[][] = []
    for (const l of lists) {
      const { samples, last } = await measure(l.fn, runs, WARMUP_RUNS)
      const s = summarise(samples)
      listRows.push([l.name, last, ms(s.p50), ms(s.p95), ms(s.p99), flag(s)])
    }
    log('')
    log(table(['list', 'size', 'p50 ms', 'p95 ms', 'p99 ms', ''], listRows))

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
    await client.end()
    await database.close()
  }
}

const flag = (s: Summary) => (s.p95 >= TARGET_P95_MS ? 'OVER' : '')

function searchTable(
  results: { shape: Shape; summary: Summary; found: number; shown: number }[],
): string {
  // One row per filter combination, page 1 and page 50 side by side.
  const byKey = new Map<string, { p1?: (typeof results)[number]; p50?: (typeof results)[number] }>()
  for (const r of results) {
    const entry = byKey.get(r.shape.key) ?? {}
    if (r.shape.page === 1) entry.p1 = r
    else entry.p50 = r
    byKey.set(r.shape.key, entry)
  }
  const cells = (r?: (typeof results)[number]) =>
    r
      ? [
          `${ms(r.summary.p50)} / ${ms(r.summary.p95)} / ${ms(r.summary.p99)}${flag(r.summary) ? ' !' : ''}`,
        ]
      : ['-']
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
