// The long fuzz run: the fuzzer of api/http/fuzz.test.ts with 10,000 inputs
// per endpoint (docs/security.md), printing what it sent and found.
//   node --import tsx bench/fuzz.ts [--per-endpoint=10000] [--seed=1] [--shard=1/2]
// --shard=i/n runs every n-th endpoint/method pair from the i-th (1-based), so
// n processes, each on its own database, share the long run; each pair gets
// the same inputs as in a whole run (its seed is the seed plus its index).
// Runs on an in-memory PGlite; FUZZ_DATABASE_URL runs it on that PostgreSQL
// database instead (a throw-away one: the run adds triggers and rows).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApi } from '../api/app.ts'
import { createJobRunner } from '../api/jobs/queue.ts'
import { FUZZED, fuzz, installChangeCounter, sessionCookie } from '../api/test/fuzz.ts'
import { addMembers } from '../api/test/seed.ts'
import { openDatabase } from '../db/client.ts'

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
const perEndpoint = arg('per-endpoint', 10_000)
const seed = arg('seed', 1)
const shardArg = process.argv.find((a) => a.startsWith('--shard='))?.split('=')[1]
const [shardIndex, shardCount] = (shardArg ?? '1/1').split('/').map(Number)
if (!shardIndex || !shardCount || shardIndex > shardCount)
  throw new Error('--shard=i/n, 1 <= i <= n')

const url = process.env.FUZZ_DATABASE_URL
const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite' })
const media = mkdtempSync(join(tmpdir(), 'amora-fuzz-bench-'))
// Its own job queue, so the fuzzer can wait for the work a request leaves to it.
const jobs = createJobRunner({ db: database.db, handlers: {} })
const app = createApi({ db: database.db, mediaDir: media, jobs })
const members = await addMembers(database.db, [
  { gender: 'male', activatedAt: new Date() },
  { activatedAt: new Date() },
  {},
])
await installChangeCounter(database.db)

const t0 = performance.now()
const stats = await fuzz(app, database.db, {
  perEndpoint,
  seed,
  ids: members.map((m) => m.id),
  emails: members.map((m) => m.email),
  cookie: () => sessionCookie(database.db, members[0]!.id),
  jobs,
  shard: { index: shardIndex - 1, count: shardCount },
  onPair: (name, so) =>
    console.log(
      `${((performance.now() - t0) / 1000).toFixed(0)} s  ${name} done: ${so.requests} requests, ${so.failures.length} rule breaks so far`,
    ),
})
const seconds = (performance.now() - t0) / 1000

const pairs = FUZZED.filter((_, i) => i % shardCount === shardIndex - 1).length
console.log(
  `engine ${database.kind}, ${pairs} of ${FUZZED.length} endpoint/method pairs (shard ${shardIndex}/${shardCount}), ${perEndpoint} each`,
)
console.log(
  `${stats.requests} requests in ${seconds.toFixed(0)} s (${(stats.requests / seconds).toFixed(0)}/s)`,
)
console.log('answers by status:', JSON.stringify(stats.byStatus))
console.log(`logins refused with 429 that mailed the unlock link (allowed): ${stats.unlockMails}`)
const distinct = new Map(stats.failures.map((f) => [`${f.endpoint}: ${f.problem}`, f.request]))
console.log(`rule breaks: ${stats.failures.length} (${distinct.size} distinct)`)
for (const [what, request] of distinct) console.log(`  ${what}\n    e.g. ${request}`)
rmSync(media, { recursive: true, force: true })
await database.close()
process.exit(stats.failures.length > 0 ? 1 : 0)
