// Live signals at speed (docs/live.md): how long "is typing" and "Seen" take
// from the member's request to the other member's open event stream. Prints
// the figures; never gates on them.
//
//   node --import tsx bench/live-signals.ts [--pairs=20] [--rounds=10] [--postgres-only]
//
// Real HTTP servers (@hono/node-server) on this machine. PGlite: one server.
// With DATABASE_URL: two server instances with their own pools and LISTEN
// connections on one PostgreSQL database (two "API processes" in one Node
// process); the typist and the reader talk to the first, the other member's
// stream is held by the second, so every signal crosses processes.
//
// typing: POST /api/typing.php sent → the `typing` poke read on the other
//   member's stream.
// seen: PUT /api/chat.php (the recipient opens the chat) sent → the `seen`
//   poke read on the sender's stream.
// Rounds are 1.1 s apart, and a pair's typing signals 1.1 s after its last
// one was answered: the server lets one typing signal per member and
// conversation through per second (TYPING_SERVER_GAP_MS).
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { credit } from '../api/credits/ledger.ts'
import { createLogger } from '../api/http/request-log.ts'
import { freshDatabase, type TestDatabase } from '../api/test/databases.ts'
import { addConversation, addMembers } from '../api/test/seed.ts'
import { type Db, openDatabase } from '../db/client.ts'
import { sessions } from '../db/schema/index.ts'
import { startServer } from './api-server.ts'
import { loadavg } from './http.ts'
import { summarise } from './stats.ts'

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  return hit ? Number(hit.split('=')[1]) : fallback
}
const PAIRS = arg('pairs', 20)
const ROUNDS = arg('rounds', 10)
const fmt = (n: number) => n.toFixed(1).padStart(8)

/** Pairs of members (2k writes to 2k+1), each with a session and credits. */
async function setUp(db: Db) {
  const rows = await addMembers(
    db,
    Array.from({ length: PAIRS * 2 }, () => ({})),
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
  const conversations: number[] = []
  for (let p = 0; p < PAIRS; p++) {
    conversations.push(await addConversation(db, rows[2 * p]!.id, rows[2 * p + 1]!.id))
  }
  return { cookies, conversations }
}

/** A member's event stream: calls `onPoke` with each poke's type and conversation and when it was read. */
async function openStream(
  base: string,
  cookie: string,
  onPoke: (type: string, conversation: number | undefined, at: number) => void,
): Promise<AbortController> {
  const abort = new AbortController()
  const res = await fetch(`${base}/api/events.php`, { headers: { cookie }, signal: abort.signal })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  await new Promise<void>((resolve) => {
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
        if (done) return
        const at = performance.now()
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
          onPoke(poke.type, poke.conversation, at)
        }
      }
    })()
  })
  return abort
}

async function run(label: string, dbs: { db: Db; listen: TestDatabase['listen'] }[]) {
  // No member limits, and a silent request log: it would drown the figures.
  const quiet = { memberLimits: false, logger: createLogger({ LOG_LEVEL: 'silent' }) }
  const servers = await Promise.all(dbs.map((d) => startServer(d.db, d.listen, quiet)))
  const front = servers[0]!.url
  const back = servers[servers.length - 1]!.url
  const { cookies, conversations } = await setUp(dbs[0]!.db)
  const waiting = new Map<string, (at: number) => void>()
  // A poke that never comes counts as lost after 30 s (NaN), not as a hang.
  const heard = (key: string) =>
    new Promise<number>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(key)
        resolve(Number.NaN)
      }, 30_000)
      waiting.set(key, (at) => {
        clearTimeout(timer)
        resolve(at)
      })
    })
  const streams: AbortController[] = []
  for (let p = 0; p < PAIRS; p++) {
    // The writer (2p) hears `seen`, the reader (2p+1) hears `typing`; both on the second server.
    for (const who of [2 * p, 2 * p + 1]) {
      streams.push(
        await openStream(back, cookies[who]!, (type, conversation, at) => {
          const key = `${type}:${conversation}:${who}`
          waiting.get(key)?.(at)
          waiting.delete(key)
        }),
      )
    }
  }
  const post = (cookie: string, method: string, path: string, body: unknown) =>
    fetch(`${front}${path}`, {
      method,
      headers: { cookie, origin: front, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.text())

  const typing: number[] = []
  const seen: number[] = []
  /** When each pair's last typing signal was answered. */
  const typedAt: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    await Promise.all(
      conversations.map(async (conversation, p) => {
        const writer = cookies[2 * p]!
        const reader = cookies[2 * p + 1]!
        // Typing: the writer types, the reader's stream hears it.
        // The server passes one signal a second per member and conversation,
        // timed when it handles the request: wait until this pair's last one
        // was answered more than a gap ago, so jitter never turns a signal
        // into a throttled one (counted as lost).
        const wait = (typedAt[p] ?? -Infinity) + 1100 - performance.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        const typed = heard(`typing:${conversation}:${2 * p + 1}`)
        const t0 = performance.now()
        await post(writer, 'POST', '/api/typing.php', { conversation })
        typedAt[p] = performance.now()
        typing.push((await typed) - t0)
        // The message, then the reader opens the chat: the writer's stream hears `seen`.
        await post(writer, 'POST', '/api/messages.php', {
          conversation,
          text: `round ${round}`,
          client_id: randomUUID(),
        })
        const read = heard(`seen:${conversation}:${2 * p}`)
        const s0 = performance.now()
        await post(reader, 'PUT', '/api/chat.php', { conversation })
        seen.push((await read) - s0)
      }),
    )
    const left = 1100 - (performance.now() - started)
    if (left > 0) await new Promise((r) => setTimeout(r, left))
  }
  for (const s of streams) s.abort()
  await Promise.all(servers.map((s) => s.close()))
  const lost = (xs: number[]) => xs.filter((x) => Number.isNaN(x)).length
  const t = summarise(typing.filter((x) => !Number.isNaN(x)))
  const s = summarise(seen.filter((x) => !Number.isNaN(x)))
  console.log(`\n${label}: ${PAIRS} conversations at once, ${ROUNDS} rounds`)
  console.log('                 p50      p95      p99      max   (ms)')
  console.log(
    `  typing   ${fmt(t.p50)} ${fmt(t.p95)} ${fmt(t.p99)} ${fmt(t.max)}   (${typing.length} signals, ${lost(typing)} lost)`,
  )
  console.log(
    `  seen     ${fmt(s.p50)} ${fmt(s.p95)} ${fmt(s.p99)} ${fmt(s.max)}   (${seen.length} reads, ${lost(seen)} lost)`,
  )
  console.log(`  (load average ${loadavg()})`)
}

console.log(`bench/live-signals.ts on ${new Date().toISOString()}`)
if (!process.argv.includes('--postgres-only')) {
  const lite = await freshDatabase('pglite')
  await run('One process, PGlite', [{ db: lite.db, listen: lite.listen }])
  await lite.close()
}
if (process.env.DATABASE_URL) {
  const pg = await freshDatabase('postgres')
  const url = new URL(process.env.DATABASE_URL)
  const name = (
    (await pg.db.execute(sql`SELECT current_database() AS d`)) as unknown as {
      rows: { d: string }[]
    }
  ).rows[0]!.d
  url.pathname = `/${name}`
  const second = await openDatabase({ kind: 'postgres', url: url.href })
  await run('Two API instances sharing PostgreSQL (the signal crosses them)', [
    { db: pg.db, listen: pg.listen },
    { db: second.db, listen: second.listen },
  ])
  await second.close()
  await pg.close()
}
process.exit(0)
