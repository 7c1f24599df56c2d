// Last seen in every profile row: the maintained column against the two
// correlated subqueries it replaced (docs/live.md "Online now").
//
//   node --import tsx bench/last-seen.ts [--runs=30]
//
// On the seed of bench/search.ts (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/bench_members; run bench/search.ts once
// first). The SQL of the real search() is captured for every page-1 and
// page-50 shape of its grid, then each statement runs twice per round, as
// sent (members.public_seen_at) and with the old expression put back
// (newest session use and hidden flag, read per row), in turn A B, B A, …,
// so both meet the same load. Prints p50/p95 of each and the per-shape ratio.
// A benchmark, not a test: it never fails on a time.
import { cpus, loadavg } from 'node:os'
import { eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { search } from '../api/search/search.ts'
import type { Db } from '../db/client.ts'
import * as schema from '../db/schema/index.ts'
import { members } from '../db/schema/index.ts'
import { existingSeed } from './seed-members.ts'
import { edgeShapes, searchShapes, type Viewer } from './shapes.ts'
import { ms, summarise, table } from './stats.ts'
import { findCountry } from '../db/reference/geo.ts'

const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_members'
const runsArg = process.argv.find((a) => a.startsWith('--runs='))
const RUNS = runsArg ? Number(runsArg.split('=')[1]) : 30

/** What profileColumns.seenMs read before public_seen_at (0027_last-seen.sql). */
const OLD_SEEN = `CASE WHEN EXISTS (SELECT 1 FROM member_privacy mp
      WHERE mp.member_id = "members"."id" AND mp.hide_online) THEN NULL
    ELSE extract(epoch FROM greatest("members"."last_active_at",
      (SELECT max(s.last_seen_at) FROM sessions s WHERE s.member_id = "members"."id"))) * 1000 END`
const NEW_SEEN = /extract\(epoch FROM (?:"members"\.)?"public_seen_at"\) \* 1000/

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

async function main(): Promise<void> {
  const pool = new pg.Pool({ connectionString: URL_, max: 2 })
  const client = await pool.connect()
  const people = await existingSeed(client as unknown as pg.Client, 1_000_000)
  client.release()
  if (!people) throw new Error('no bench seed: run node --import tsx bench/search.ts first')
  const captured: { sql: string; params: unknown[] }[] = []
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) }
  const db = drizzle(pool, { schema, logger }) as unknown as Db
  const load = async (id: number) => {
    const [row] = await db.select().from(members).where(eq(members.id, id))
    if (!row) throw new Error(`bench member ${id} is missing`)
    return row
  }
  const viewers: Viewer[] = (await Promise.all([load(people.viewerNl), load(people.viewerUs)])).map(
    (member) => ({
      member,
      neighbour: member.country === 'NL' ? 'BE' : 'CA',
      regionOf: (country) => findCountry(country)?.regions[0]?.id ?? null,
    }),
  )
  const shapes = [...searchShapes(viewers), ...edgeShapes(viewers)].filter(
    (s) => s.query.sort === 'active',
  )
  const statements: { label: string; now: string; old: string; params: unknown[] }[] = []
  for (const shape of shapes) {
    captured.length = 0
    await search(db, shape.viewer, shape.query)
    const first = captured[0]
    if (!first || !NEW_SEEN.test(first.sql)) throw new Error(`no seen column in ${shape.label}`)
    statements.push({
      label: shape.label,
      now: first.sql,
      old: first.sql.replace(new RegExp(NEW_SEEN, 'g'), OLD_SEEN),
      params: first.params,
    })
  }
  console.log(`machine: ${cpus().length} cores, load average ${loadAverage()}`)
  console.log(`${statements.length} search statements, ${RUNS} runs of each variant, interleaved`)
  const time = async (sql: string, params: unknown[]) => {
    const start = performance.now()
    await pool.query(sql, params)
    return performance.now() - start
  }
  const all = { now: [] as number[], old: [] as number[] }
  const ratios: number[] = []
  for (const s of statements) {
    await time(s.now, s.params)
    await time(s.old, s.params)
    const now: number[] = []
    const old: number[] = []
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        now.push(await time(s.now, s.params))
        old.push(await time(s.old, s.params))
      } else {
        old.push(await time(s.old, s.params))
        now.push(await time(s.now, s.params))
      }
    }
    all.now.push(...now)
    all.old.push(...old)
    ratios.push(summarise(old).p50 / summarise(now).p50)
  }
  const a = summarise(all.now)
  const b = summarise(all.old)
  const r = summarise(ratios)
  console.log(
    table(
      ['variant', 'p50 ms', 'p95 ms', 'p99 ms'],
      [
        ['subqueries (before)', ms(b.p50), ms(b.p95), ms(b.p99)],
        ['public_seen_at (after)', ms(a.p50), ms(a.p95), ms(a.p99)],
      ],
    ),
  )
  console.log(
    `per statement, p50 before / p50 after: median ${r.p50.toFixed(2)}, max ${r.max.toFixed(2)}`,
  )
  console.log(`load average at the end: ${loadAverage()}`)
  await pool.end()
}

await main()
