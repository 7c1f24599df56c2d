// The API as `npm start` serves it (api/server.ts: security headers,
// compression, the whole app), in a process of its own on an existing
// database, for the HTTP benchmarks: their clients then do not share the
// server's event loop. Prints `listening <url>` once it answers; ends on
// SIGTERM or when its parent's stdin closes. A line `gc` on stdin runs two
// full collections (under --expose-gc) and answers `collected`.
//
//   node --import tsx bench/api-process.ts <postgres url> [--no-member-limits] [--pool-size=N]
//
// --no-member-limits turns off the per-member send and like limits (a
// throughput benchmark sends far past them on purpose). --pool-size sets the
// process's connections for requests (DATABASE_POOL_SIZE of npm start).
// The sends gather as npm start's do (SEND_GATHER_* of the environment,
// api/chats/send-batch.ts); how they ran is printed when it stops.
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createMailer } from '../api/mail/mailer.ts'
import { createEventBus } from '../api/events/bus.ts'
import { createJobRunner } from '../api/jobs/queue.ts'
import { createServer } from '../api/server.ts'
import { openDatabase } from '../db/client.ts'
import { sendBatches, sendStatements } from '../api/http/metrics.ts'

const url = process.argv[2]
const poolSize = process.argv.find((a) => a.startsWith('--pool-size='))?.split('=')[1]
if (!url) throw new Error('usage: bench/api-process.ts <postgres url>')
const database = await openDatabase({
  kind: 'postgres',
  url,
  ...(poolSize ? { poolSize: Number(poolSize) } : {}),
})
const events = createEventBus(database.listen)
await events.ready()
const server = serve({
  fetch: createServer({
    db: database.db,
    distDir: join(tmpdir(), 'no-dist'),
    mediaDir: mkdtempSync(join(tmpdir(), 'bench-media-')),
    accounts: {
      mailer: createMailer({ devListing: false }),
      trustProxy: false,
      publicUrl: undefined,
    },
    jobs: createJobRunner({ db: database.db, handlers: {} }),
    events,
    memberLimits: !process.argv.includes('--no-member-limits'),
  }).fetch,
  port: 0,
  hostname: '127.0.0.1',
})
await new Promise((r) => server.once('listening', r))
console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`)

let closing = false
const close = async () => {
  if (closing) return
  closing = true
  const ways = (await sendStatements.get()).values.map((v) => `${v.value} ${v.labels.way}`)
  const batches = (await sendBatches.get()).values[0]?.value ?? 0
  if (ways.length > 0) console.error(`[api] sends: ${ways.join(', ')}; ${batches} batch statements`)
  ;(server as unknown as { closeAllConnections(): void }).closeAllConnections()
  await new Promise((r) => server.close(r))
  await events.close()
  await database.close()
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.stdin.on('end', () => void close())
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  for (const line of chunk.split('\n')) {
    if (line !== 'gc') continue
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    gc?.()
    console.log('collected')
  }
})
