// Messages at speed: live delivery, debited sends per second, and reads at
// scale. Prints figures next to their goals; never gates on them.
//
//   node --import tsx bench/messages.ts [--members=500] [--rate=20] [--seconds=20]
//        [--senders=50] [--throughput-seconds=10] [--warm-seconds=10] [--pool=10] [--messages=10000000]
//        [--only=delivery,throughput,processes,reads] [--counts=1,2,3 (processes)]
//
// Delivery and throughput run real HTTP servers (@hono/node-server) on this
// machine; PostgreSQL needs DATABASE_URL (each part makes a throw-away database).
// "Two API processes" of the delivery part are two server instances with
// their own connection pools and their own LISTEN connection, in one Node
// process; throughput and `processes` (sends/s with 1, 2 and 3 API
// processes on one database) run real processes (bench/api-process.ts).
// Their sends gather as npm start's do (api/chats/send-batch.ts);
// SEND_GATHER_IN_FLIGHT=0 in the environment measures every send alone.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import os, { tmpdir } from 'node:os'
import { sql } from 'drizzle-orm'
import { chatsOf } from '../api/chats/chats.ts'
import { listMessages } from '../api/chats/messages.ts'
import { credit } from '../api/credits/ledger.ts'
import { emptyPostgresDatabase, freshDatabase, type TestDatabase } from '../api/test/databases.ts'
import { addConversation, addMembers } from '../api/test/seed.ts'
import { type Db, DEFAULT_POOL_SIZE, openDatabase } from '../db/client.ts'
import { refreshNewestMessages } from '../db/newest-message.ts'
import { sessions } from '../db/schema/index.ts'
import { startServer } from './api-server.ts'
import { cpuSecondsOf, cpuSecondsOfAll, keepAliveClient, loadavg, startApiProcess } from './http.ts'
import { moneyCheck } from './money-check.ts'
import { summarise } from './stats.ts'

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  return hit ? Number(hit.split('=')[1]) : fallback
}
/** The comma-separated values of `--name=a,b`; undefined when not given. */
const listArg = (name: string) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split('=')[1]
    ?.split(',')
const only = listArg('only')
const wants = (part: string) => !only || only.includes(part)

const MEMBERS = arg('members', 500)
const RATE = arg('rate', 20)
const SECONDS = arg('seconds', 20)
const SENDERS = arg('senders', 50)
const THROUGHPUT_SECONDS = arg('throughput-seconds', 10)
const WARM_SECONDS = arg('warm-seconds', 10)
const SCALE = arg('messages', 10_000_000)
const fmt = (n: number) => n.toFixed(1).padStart(8)

/** Members in pairs (i talks to i^1), each with a session cookie and credits. */
async function setUp(db: Db, count: number) {
  const rows = await addMembers(
    db,
    Array.from({ length: count }, () => ({})),
  )
  const cookies: string[] = []
  for (const m of rows) {
    const token = randomBytes(32).toString('base64url')
    await db.insert(sessions).values({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      memberId: m.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    cookies.push(`sid=${token}`)
    await db.transaction((tx) => credit(tx, m.id, 1_000_000, 'bonus', 'bench'))
  }
  const conversationOf: number[] = []
  for (let i = 0; i + 1 < rows.length; i += 2) {
    const id = await addConversation(db, rows[i]!.id, rows[i + 1]!.id)
    conversationOf[i] = id
    conversationOf[i + 1] = id
  }
  return { cookies, conversationOf }
}

const headers = (cookie: string, base: string) => ({
  cookie,
  origin: base,
  'content-type': 'application/json',
})

async function delivery(label: string, dbs: { db: Db; listen: TestDatabase['listen'] }[]) {
  const servers = await Promise.all(dbs.map((d) => startServer(d.db, d.listen)))
  const { cookies, conversationOf } = await setUp(dbs[0]!.db, MEMBERS)
  const serverOf = (i: number) => servers[i % servers.length]!
  /** Per client id: when the send started and was accepted, and when the recipient heard and pulled it. */
  const sent = new Map<string, { start: number; accepted?: number; recipient: number }>()
  const seen = new Map<string, { poked: number; pulled: number; by: number }>()
  const lastSeen = new Map<number, number>()
  const streams: AbortController[] = []

  // Every member holds a stream; a poke for a conversation makes the
  // recipient pull what is new, as the worker does.
  await Promise.all(
    cookies.map(async (cookie, i) => {
      const abort = new AbortController()
      streams.push(abort)
      const base = serverOf(i).url
      const res = await fetch(`${base}/api/events.php`, {
        headers: { cookie },
        signal: abort.signal,
      })
      const reader = res.body!.getReader()
      const decoder = new TextDecoder()
      let buffer = ''
      const ready = new Promise<void>((resolve) => {
        void (async () => {
          for (;;) {
            const { value, done } = await reader
              .read()
              .catch(() => ({ value: undefined, done: true }))
            if (done) return
            buffer += decoder.decode(value)
            if (buffer.includes('event: ready')) resolve()
            let cut = buffer.indexOf('\n\n')
            while (cut >= 0) {
              const block = buffer.slice(0, cut)
              buffer = buffer.slice(cut + 2)
              cut = buffer.indexOf('\n\n')
              const data = /data: (.*)/.exec(block)?.[1]
              if (!block.includes('event: poke') || !data) continue
              const poke = JSON.parse(data) as { type: string; conversation?: number }
              if (poke.type !== 'messages') continue
              const pokedAt = performance.now()
              // `after` is a message id (positive): none before the first pull.
              const after = lastSeen.get(i)
              const page = (await (
                await fetch(
                  `${base}/api/messages.php?conversation=${poke.conversation}${after ? `&after=${after}` : ''}`,
                  {
                    headers: { cookie },
                  },
                )
              ).json()) as { messages: { id: number; client_id: string; from: number }[] }
              const pulledAt = performance.now()
              for (const m of page.messages) {
                lastSeen.set(i, Math.max(lastSeen.get(i) ?? 0, m.id))
                const key = `${m.client_id}:${i}`
                if (!seen.has(key)) seen.set(key, { poked: pokedAt, pulled: pulledAt, by: i })
              }
            }
          }
        })()
      })
      await ready
    }),
  )

  const total = RATE * SECONDS
  const started = performance.now()
  const posts: Promise<void>[] = []
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    const i = Math.floor(Math.random() * MEMBERS)
    const recipient = i ^ 1
    const clientId = randomUUID()
    const base = serverOf(i).url
    const entry: { start: number; accepted?: number; recipient: number } = {
      start: performance.now(),
      recipient,
    }
    sent.set(clientId, entry)
    posts.push(
      (async () => {
        const res = await fetch(`${base}/api/messages.php`, {
          method: 'POST',
          headers: headers(cookies[i]!, base),
          body: JSON.stringify({
            conversation: conversationOf[i],
            text: `hello ${n}`,
            client_id: clientId,
          }),
        })
        // "Accepted": the 201 is in; what the recipient sees is timed from here.
        if (res.status === 201) entry.accepted = performance.now()
        await res.arrayBuffer()
      })(),
    )
  }
  await Promise.all(posts)
  await new Promise((r) => setTimeout(r, 2000))
  for (const s of streams) s.abort()
  await Promise.all(servers.map((s) => s.close()))
  const toEvent: number[] = []
  const toStore: number[] = []
  const fromStart: number[] = []
  let delivered = 0
  for (const [clientId, s] of sent) {
    const got = seen.get(`${clientId}:${s.recipient}`)
    if (!got || s.accepted === undefined) continue
    delivered++
    // NOTIFY is delivered at commit, which can be before the 201 reaches the
    // sender: such a delivery counts as 0 ms after acceptance.
    toEvent.push(Math.max(0, got.poked - s.accepted))
    toStore.push(Math.max(0, got.pulled - s.accepted))
    fromStart.push(got.pulled - s.start)
  }
  const ev = summarise(toEvent)
  const st = summarise(toStore)
  const whole = summarise(fromStart)
  console.log(
    `\n${label}: ${MEMBERS} connected members, ${RATE} messages/s for ${SECONDS} s, ${delivered}/${total} delivered`,
  )
  console.log('  from POST accepted to          p50      p95      p99 (ms)   goal p95 <= 300')
  console.log(`  recipient's stream event  ${fmt(ev.p50)} ${fmt(ev.p95)} ${fmt(ev.p99)}`)
  console.log(`  message in recipient pull ${fmt(st.p50)} ${fmt(st.p95)} ${fmt(st.p99)}`)
  console.log(`  (from POST sent to pulled ${fmt(whole.p50)} ${fmt(whole.p95)} ${fmt(whole.p99)})`)
}

/** The URL of the database `db` is connected to (a fresh one of freshDatabase). */
async function urlOf(db: Db): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!)
  const name = (
    (await db.execute(sql`SELECT current_database() AS d`)) as unknown as {
      rows: { d: string }[]
    }
  ).rows[0]!.d
  url.pathname = `/${name}`
  return url.href
}

/**
 * Debited sends per second over HTTP: SENDERS members, each sending as fast
 * as it can on a keep-alive connection of its own, spread over `processes`
 * API processes (bench/api-process.ts, the server of `npm start`) on the one
 * database `db`. `--profile` writes each server's CPU profile to /tmp
 * (node --cpu-prof).
 */
/**
 * Request connections per API process when `processes` share the database:
 * the pool of one process (DEFAULT_POOL_SIZE) split between them, as
 * docs/several-machines.md sizes pools against the server's connections.
 * More backends than the database machine has cores only take turns.
 */
const poolSize = (processes: number) => Math.ceil(arg('pool', DEFAULT_POOL_SIZE) / processes)

async function sendRate(db: Db, processes: number) {
  const { cookies, conversationOf } = await setUp(db, SENDERS * 2)
  // Each sender sends as fast as it can, far past the per-member send limits
  // (20 a minute): they are off here, so the figure is the send path's own.
  const url = await urlOf(db)
  const servers = await Promise.all(
    Array.from({ length: processes }, () =>
      startApiProcess(
        url,
        [
          ...(process.argv.includes('--profile')
            ? ['--cpu-prof', `--cpu-prof-dir=${tmpdir()}`]
            : []),
          ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
        ],
        ['--no-member-limits', `--pool-size=${poolSize(processes)}`],
      ),
    ),
  )
  // Sender s talks to process s % processes, as a balancer's round robin would spread them.
  const clients = servers.map((server) =>
    keepAliveClient(server.url, Math.ceil(SENDERS / processes)),
  )
  let ok = 0
  let failed = 0
  /** Every 201, the warm-up's too (the money check counts them all). */
  let created = 0
  const send = async (s: number) => {
    const i = s * 2
    const server = servers[s % processes]!
    const res = await clients[s % processes]!.request(
      'POST',
      '/api/messages.php',
      headers(cookies[i]!, server.url),
      JSON.stringify({ conversation: conversationOf[i], text: 'x', client_id: randomUUID() }),
    )
    if (res.status === 201) {
      ok++
      created++
    } else failed++
  }
  // Warm-up: every sender's connection open, then sending as measured for
  // WARM_SECONDS, so the figure is a running server's: V8 compiles the hot
  // path with its optimising compiler only after thousands of requests, and
  // a few rounds left that compiling (a third of the API's CPU) inside the
  // measured seconds.
  await Promise.all(Array.from({ length: SENDERS }, (_, s) => send(s)))
  const warmUntil = performance.now() + WARM_SECONDS * 1000
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, s) => {
      while (performance.now() < warmUntil) await send(s)
    }),
  )
  ok = 0
  failed = 0
  const loadBefore = loadavg()
  // CPU seconds of each side over the measured window: where a send's time goes.
  const cpu = () => ({
    api: servers.reduce((sum, server) => sum + cpuSecondsOf(server.pid), 0),
    postgres: cpuSecondsOfAll('postgres'),
    clients: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  })
  const cpuBefore = cpu()
  const until = performance.now() + THROUGHPUT_SECONDS * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, s) => {
      while (performance.now() < until) await send(s)
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const cpuAfter = cpu()
  for (const client of clients) client.close()
  await Promise.all(servers.map((server) => server.close()))
  const check = await moneyCheck(db, created)
  const perSend = (side: keyof typeof cpuAfter) =>
    (((cpuAfter[side] - cpuBefore[side]) * 1e6) / Math.max(ok, 1)).toFixed(0)
  return {
    rate: ok / seconds,
    failed,
    loadBefore,
    loadAfter: loadavg(),
    cpu: `CPU µs per send: API ${perSend('api')}, PostgreSQL ${perSend('postgres')}, clients ${perSend('clients')}`,
    check,
  }
}

/** One API process in its own process, its clients here on keep-alive connections. */
async function throughput(db: Db) {
  const r = await sendRate(db, 1)
  console.log(
    `\nThroughput on PostgreSQL, ${SENDERS} concurrent senders over HTTP (API in its own process, keep-alive): ${r.rate.toFixed(0)} debited sends/s (goal >= 1000), ${r.failed} refused; load average ${r.loadBefore} before, ${r.loadAfter} after\n  ${r.cpu}\n  ${r.check}`,
  )
}

/**
 * The same sends spread over 1, 2 and 3 API processes on one PostgreSQL
 * database (docs/several-machines.md): each count on a database of its own,
 * so none starts with the others' messages. On one machine the processes
 * share its cores with PostgreSQL and the clients; the figure says what one
 * database takes from several processes, not what several machines give.
 */
async function processes() {
  console.log(
    `\nSends/s by API processes on one PostgreSQL database, ${SENDERS} senders over HTTP, ${THROUGHPUT_SECONDS} s each (${os.availableParallelism()} cores here)`,
  )
  console.log('  processes   debited sends/s   refused   load average before / after')
  for (const count of listArg('counts')?.map(Number) ?? [1, 2, 3]) {
    // An empty database migrated on open (not a copy of the tests' template,
    // which another checkout's migrations may replace meanwhile).
    const empty = await emptyPostgresDatabase()
    const pg = await openDatabase({ kind: 'postgres', url: empty.url })
    const r = await sendRate(pg.db, count)
    await pg.close()
    await empty.drop()
    console.log(
      `  ${String(count).padStart(9)}   ${r.rate.toFixed(0).padStart(15)}   ${String(r.failed).padStart(7)}   ${r.loadBefore} / ${r.loadAfter}   (pool ${poolSize(count)} each; ${r.cpu})`,
    )
  }
}

/**
 * The member with 200 conversations and SCALE messages around them. With
 * `--keep`, the database `bench_messages_<SCALE>` is made once and kept, and a
 * later run reuses it (the 10 M seed takes minutes); else a throw-away one.
 */
async function readsDatabase(): Promise<{
  db: Db
  me: number
  ids: number[]
  close(): Promise<void>
}> {
  if (!process.argv.includes('--keep')) {
    const pg = await freshDatabase('postgres')
    const { me, ids } = await seedReads(pg.db)
    return { db: pg.db, me, ids, close: () => pg.close() }
  }
  const name = `bench_messages_${SCALE}`
  const url = new URL(process.env.DATABASE_URL!)
  const admin = await openAdmin(url.href)
  const exists =
    (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
  if (!exists) await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  url.pathname = `/${name}`
  const opened = await openDatabase({ kind: 'postgres', url: url.href })
  const db = opened.db
  await db.execute(sql`CREATE TABLE IF NOT EXISTS bench_reads (me bigint NOT NULL)`)
  const kept = rowsOf<{ me: string }>(await db.execute(sql`SELECT me FROM bench_reads`))[0]
  let me: number
  let ids: number[]
  if (kept) {
    me = Number(kept.me)
    ids = rowsOf<{ id: string }>(
      await db.execute(
        sql`SELECT conversation_id AS id FROM conversation_members WHERE member_id = ${me} ORDER BY 1`,
      ),
    ).map((r) => Number(r.id))
    console.log(
      `\nReads at scale: database ${name} reused (member ${me}, ${ids.length} conversations)`,
    )
  } else {
    ;({ me, ids } = await seedReads(db))
    await db.execute(sql`INSERT INTO bench_reads (me) VALUES (${me})`)
  }
  return { db, me, ids, close: () => opened.close() }
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

async function openAdmin(url: string) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return client
}

async function seedReads(db: Db): Promise<{ me: number; ids: number[] }> {
  const [me] = await addMembers(db, [{}])
  const others = await addMembers(
    db,
    Array.from({ length: 200 }, () => ({})),
  )
  const ids: number[] = []
  for (const o of others) {
    ids.push(await addConversation(db, me!.id, o.id))
  }
  const t0 = Date.now()
  // The bulk of the table belongs to other conversations; each of the 200 gets 500.
  await db.execute(sql`
    INSERT INTO messages (conversation_id, sender_id, body, created_at)
    SELECT ${ids[0]!} + (g % 200), ${me!.id}, 'bulk message ' || g, now() - (g || ' seconds')::interval
    FROM generate_series(1, ${SCALE}) g`)
  await db.execute(sql`ANALYZE messages`)
  await refreshNewestMessages(db)
  console.log(
    `\nReads at scale: ${SCALE.toLocaleString('en')} messages inserted in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  )
  return { me: me!.id, ids }
}

async function reads() {
  const { db, me: meId, ids, close } = await readsDatabase()
  const me = { id: meId }
  const time = async (fn: () => Promise<unknown>, runs = 200) => {
    for (let i = 0; i < 20; i++) await fn()
    const samples: number[] = []
    for (let i = 0; i < runs; i++) {
      const s = performance.now()
      await fn()
      samples.push(performance.now() - s)
    }
    return summarise(samples)
  }
  const thread = await time(() =>
    listMessages(db, me!.id, { conversation: ids[Math.floor(Math.random() * ids.length)]! }),
  )
  const older = await time(() =>
    listMessages(db, me!.id, { conversation: ids[0]!, before: SCALE / 2 }),
  )
  const list = await time(() => chatsOf(db, me!.id))
  console.log(
    '  query                                   p50      p95      p99 (ms)   goal p95 <= 10',
  )
  console.log(
    `  thread page (newest 50)            ${fmt(thread.p50)} ${fmt(thread.p95)} ${fmt(thread.p99)}`,
  )
  console.log(
    `  thread page (older, before=id)     ${fmt(older.p50)} ${fmt(older.p95)} ${fmt(older.p99)}`,
  )
  console.log(
    `  chats list, 200 conversations      ${fmt(list.p50)} ${fmt(list.p95)} ${fmt(list.p99)}`,
  )
  console.log(`  (load average ${loadavg()})`)
  await close()
}

console.log(`bench/messages.ts on ${new Date().toISOString()}`)
if (wants('delivery')) {
  const lite = await freshDatabase('pglite')
  await delivery('One process, PGlite', [{ db: lite.db, listen: lite.listen }])
  await lite.close()
}
if (process.env.DATABASE_URL) {
  if (wants('delivery')) {
    const pg = await freshDatabase('postgres')
    // A second pool and LISTEN connection on the same database: the second "process".
    const url = new URL(process.env.DATABASE_URL)
    const name = (
      (await pg.db.execute(sql`SELECT current_database() AS d`)) as unknown as {
        rows: { d: string }[]
      }
    ).rows[0]!.d
    url.pathname = `/${name}`
    const second = await openDatabase({ kind: 'postgres', url: url.href })
    await delivery('Two API instances sharing PostgreSQL', [
      { db: pg.db, listen: pg.listen },
      { db: second.db, listen: second.listen },
    ])
    await second.close()
    await pg.close()
  }
  if (wants('throughput')) {
    const pg = await freshDatabase('postgres')
    await throughput(pg.db)
    await pg.close()
  }
  if (wants('processes')) {
    await processes()
  }
  if (wants('reads')) {
    await reads()
  }
} else {
  console.log(
    '\nDATABASE_URL unset: the PostgreSQL parts (two instances, throughput, processes, reads at scale) are skipped',
  )
}
process.exit(0)
