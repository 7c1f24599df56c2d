// Members online per process: 1,000, 5,000 and 10,000 live event streams of
// distinct signed-in members held open against ONE API process
// (bench/api-process.ts, the server of `npm start`) on PostgreSQL, over
// loopback. Prints, per level: memory per open stream (resident and heap,
// after two forced collections in the API process, and as read without),
// the process's CPU while idle, the database's statements per second at
// idle (pg_stat_database, and the app's own count of stream session
// checks from /metrics), and the delivery of messages sent at a steady rate
// to random online members and of typing pokes (p50/p95/p99), with a burst
// (one member's message to BURST others) in the middle of the run.
// Prints figures next to their goals; never gates on them. docs/live.md,
// "Stream upkeep".
//
//   DATABASE_URL=postgres://… node --import tsx bench/online.ts
//        [--levels=1000,5000,10000] [--rate=50] [--typing-rate=20]
//        [--seconds=20] [--idle-seconds=65] [--burst=500]
//
// Bounded: the largest level is capped at 15,000 streams (each holds a
// socket at both ends; both processes' file limits must cover it), every
// wait has a time-out, and the API process and its database are dropped at
// the end.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { sql } from 'drizzle-orm'
import { credit } from '../api/credits/ledger.ts'
import { freshDatabase } from '../api/test/databases.ts'
import { addConversation, addMembers, type NewMember } from '../api/test/seed.ts'
import type { Db } from '../db/client.ts'
import { sessions } from '../db/schema/index.ts'
import { cpuSecondsOf, keepAliveClient, loadavg, startApiProcess } from './http.ts'
import { summarise } from './stats.ts'

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const LEVELS = arg('levels', '1000,5000,10000')
  .split(',')
  .map(Number)
  .map((n) => Math.min(n, 15_000))
const RATE = Number(arg('rate', '50'))
const TYPING_RATE = Number(arg('typing-rate', '20'))
const SECONDS = Number(arg('seconds', '20'))
const IDLE_SECONDS = Number(arg('idle-seconds', '65'))
const BURST = Number(arg('burst', '500'))
/** Conversations the steady messages and typing pokes go through (a sender each, a random online recipient each). */
const PAIRS = 500
const OPEN_AT_ONCE = 200
const fmt = (n: number) => n.toFixed(1).padStart(8)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `count` members signed in, in bulk: one session row each, the cookie that names it. */
async function signedIn(db: Db, count: number, spec: NewMember = {}) {
  const cookies: string[] = []
  const ids: number[] = []
  for (let from = 0; from < count; from += 1000) {
    const rows = await addMembers(
      db,
      Array.from({ length: Math.min(1000, count - from) }, () => ({ ...spec })),
    )
    const tokens = rows.map(() => randomBytes(32).toString('base64url'))
    await db.insert(sessions).values(
      rows.map((m, i) => ({
        tokenHash: createHash('sha256').update(tokens[i]!).digest('hex'),
        memberId: m.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    )
    for (const [i, m] of rows.entries()) {
      ids.push(m.id)
      cookies.push(`sid=${tokens[i]}`)
    }
  }
  return { ids, cookies }
}

/** Pokes heard, by member: when each `type` poke arrived (the bench reads what it awaits). */
type Heard = (member: number, type: string, conversation: number | undefined) => void

/** One live stream of `cookie`; resolves when `ready` arrived. */
function openStream(base: URL, cookie: string, member: number, heard: Heard) {
  return new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.request({
      host: base.hostname,
      port: base.port,
      path: '/api/events.php',
      headers: { cookie },
      agent: false,
    })
    const timer = setTimeout(() => reject(new Error('no ready within 60 s')), 60_000)
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer)
        reject(new Error(`stream answered ${res.statusCode}`))
        res.resume()
        return
      }
      res.setEncoding('utf8')
      let buffer = ''
      res.on('data', (chunk: string) => {
        buffer += chunk
        let cut = buffer.indexOf('\n\n')
        while (cut >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          cut = buffer.indexOf('\n\n')
          if (block.includes('event: ready')) {
            clearTimeout(timer)
            resolve(req)
            continue
          }
          const data = /data: (.*)/.exec(block)?.[1]
          if (!block.includes('event: poke') || !data) continue
          const poke = JSON.parse(data) as { type: string; conversation?: number }
          heard(member, poke.type, poke.conversation)
        }
      })
    })
    req.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    req.end()
  })
}

/** Resident and heap bytes of the API process (/proc and its /metrics), and its stream figures. */
async function memoryOf(pid: number, base: string) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
  const text = await (await fetch(`${base}/metrics`)).text()
  const heap = Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? 0)
  const checks = Number(/^event_stream_session_checks_total (\S+)/m.exec(text)?.[1] ?? 0)
  const open = Number(/^event_streams_open (\S+)/m.exec(text)?.[1] ?? 0)
  const waiting = Number(/^db_pool_waiting (\S+)/m.exec(text)?.[1] ?? 0)
  const channels = Number(/^event_listen_channels (\S+)/m.exec(text)?.[1] ?? 0)
  const wanted = Number(/^event_pokes_received\{for="stream_here"\} (\S+)/m.exec(text)?.[1] ?? 0)
  const unwanted = Number(
    /^event_pokes_received\{for="no_stream_here"\} (\S+)/m.exec(text)?.[1] ?? 0,
  )
  return { rss, heap, checks, open, waiting, channels, wanted, unwanted }
}

async function transactions(db: Db): Promise<number> {
  const result = (await db.execute(
    sql`SELECT (xact_commit + xact_rollback)::float8 AS n FROM pg_stat_database WHERE datname = current_database()`,
  )) as unknown as { rows: { n: number }[] }
  return result.rows[0]!.n
}

/**
 * Timed deliveries: key → when its request went out and when it was
 * answered; the poke's arrival is measured from both (a poke may come before
 * the answer: 0 then). A request not answered 2xx, or a typing signal the
 * server kept quiet, or a first message the scam rules held (never poked
 * to the recipient), is dropped and counted as refused.
 */
function tracker() {
  const pending = new Map<string, { start: number; answered?: number; arrived?: number }>()
  const fromStart: number[] = []
  const fromAnswer: number[] = []
  let refused = 0
  const done = (key: string) => {
    const t = pending.get(key)
    if (t?.answered === undefined || t.arrived === undefined) return
    pending.delete(key)
    fromStart.push(t.arrived - t.start)
    fromAnswer.push(Math.max(0, t.arrived - t.answered))
  }
  return {
    sent(key: string) {
      pending.set(key, { start: performance.now() })
    },
    answered(key: string, ok: boolean) {
      const t = pending.get(key)
      if (!t) return
      if (!ok) {
        pending.delete(key)
        refused++
        return
      }
      t.answered = performance.now()
      done(key)
    },
    arrived(key: string) {
      const t = pending.get(key)
      if (!t || t.arrived !== undefined) return
      t.arrived = performance.now()
      done(key)
    },
    finish() {
      const lost = pending.size
      pending.clear()
      return {
        ...summarise(fromAnswer),
        start: summarise(fromStart),
        count: fromAnswer.length,
        lost,
        refused,
      }
    },
  }
}

const main = async () => {
  if (!process.env.DATABASE_URL) throw new Error('bench/online.ts needs DATABASE_URL (PostgreSQL)')
  const top = Math.max(...LEVELS)
  const database = await freshDatabase('postgres')
  const db = database.db
  console.log(`setting up ${top} signed-in members (+${PAIRS + 1} senders)…`)
  const online = await signedIn(db, top)
  // Senders of a year: the burst is not a new account's spree of openings (refused 429, api/chats/scam-cases.ts).
  const senders = await signedIn(db, PAIRS + 1, {
    signupDate: new Date(Date.now() - 365 * 86_400_000),
  })
  // Sender k talks with a random online member; the burst's sender with BURST of them.
  const pairs: { conversation: number; recipient: number }[] = []
  for (let k = 0; k < PAIRS; k++) {
    const r = Math.floor(Math.random() * Math.min(...LEVELS))
    pairs.push({
      conversation: await addConversation(db, senders.ids[k]!, online.ids[r]!),
      recipient: r,
    })
  }
  const burster = PAIRS
  const burstTo: { conversation: number; recipient: number }[] = []
  for (let r = 0; r < Math.min(BURST, Math.min(...LEVELS)); r++)
    burstTo.push({
      conversation: await addConversation(db, senders.ids[burster]!, online.ids[r]!),
      recipient: r,
    })
  for (const id of senders.ids)
    await db.transaction((tx) => credit(tx, id, 1_000_000, 'bonus', 'bench'))

  // --expose-gc: memory is read after two forced collections too (api.collect).
  const api = await startApiProcess(database.url!, ['--expose-gc'], ['--no-member-limits'])
  /** Memory as it is, then after two full collections (what the streams hold). */
  const memory = async () => {
    const raw = await memoryOf(api.pid, api.url)
    await api.collect()
    const held = await memoryOf(api.pid, api.url)
    return { ...held, rawRss: raw.rss, rawHeap: raw.heap }
  }
  const base = new URL(api.url)
  const client = keepAliveClient(api.url, 64)
  const headers = (cookie: string) => ({
    cookie,
    origin: api.url,
    'content-type': 'application/json',
  })
  let messages = tracker()
  let typing = tracker()
  let burst = tracker()
  const heard: Heard = (member, type, conversation) => {
    const key = `${member}:${conversation}`
    if (type === 'messages') {
      messages.arrived(key)
      burst.arrived(key)
    } else if (type === 'typing') typing.arrived(key)
  }
  const streams: http.ClientRequest[] = []
  const rows: string[] = []
  try {
    // Warm: the code paths compiled, the pool filled.
    for (let i = 0; i < 50; i++)
      await client.request('GET', '/api/user.php', headers(senders.cookies[i]!))
    const empty = await memory()
    for (const level of LEVELS) {
      messages = tracker()
      typing = tracker()
      burst = tracker()
      const opening = performance.now()
      while (streams.length < level) {
        const from = streams.length
        const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, level - from) }, (_, i) =>
          openStream(base, online.cookies[from + i]!, online.ids[from + i]!, heard),
        )
        streams.push(...(await Promise.all(batch)))
      }
      const openSeconds = (performance.now() - opening) / 1000
      await sleep(2000)
      const held = await memory()
      // Idle: nothing but keep-alives and the upkeep.
      const cpu0 = cpuSecondsOf(api.pid)
      const tx0 = await transactions(db)
      await sleep(IDLE_SECONDS * 1000)
      const tx1 = await transactions(db)
      const cpu1 = cpuSecondsOf(api.pid)
      const after = await memoryOf(api.pid, api.url)
      // Delivery: messages at RATE/s and typing at TYPING_RATE/s to random online members, the burst halfway.
      const ticks: Promise<unknown>[] = []
      const started = performance.now()
      let burstAt = 0
      const post = (
        track: ReturnType<typeof tracker>,
        recipient: number,
        conversation: number,
        cookie: string,
        path: '/api/messages.php' | '/api/typing.php',
      ) => {
        const key = `${online.ids[recipient]}:${conversation}`
        track.sent(key)
        const body =
          path === '/api/typing.php'
            ? { conversation }
            : {
                conversation,
                text: `hello ${randomUUID().replace(/[^a-f]/g, '')}`,
                client_id: randomUUID(),
              }
        ticks.push(
          client.request('POST', path, headers(cookie), JSON.stringify(body)).then(
            (a) => track.answered(key, a.status < 300 && !/"quiet"|"held":true/.test(a.body)),
            () => track.answered(key, false),
          ),
        )
      }
      /** A message or a typing signal from a random pair's sender to its recipient. */
      const postToRandomPair = (
        track: ReturnType<typeof tracker>,
        path: '/api/messages.php' | '/api/typing.php',
      ) => {
        const k = Math.floor(Math.random() * pairs.length)
        post(track, pairs[k]!.recipient, pairs[k]!.conversation, senders.cookies[k]!, path)
      }
      for (let t = 0; performance.now() - started < SECONDS * 1000; t++) {
        postToRandomPair(messages, '/api/messages.php')
        if (t % Math.max(1, Math.round(RATE / TYPING_RATE)) === 0)
          postToRandomPair(typing, '/api/typing.php')
        if (!burstAt && performance.now() - started > (SECONDS * 1000) / 2) {
          burstAt = performance.now()
          for (const b of burstTo)
            post(burst, b.recipient, b.conversation, senders.cookies[burster]!, '/api/messages.php')
        }
        // On the clock, not after each send: a slow loop catches up instead of sending fewer.
        await sleep(Math.max(0, started + ((t + 1) * 1000) / RATE - performance.now()))
      }
      await Promise.all(ticks)
      await sleep(2000)
      const delivered = await memoryOf(api.pid, api.url)
      const m = messages.finish()
      const ty = typing.finish()
      const bu = burst.finish()
      const perStream = (b: number, a: number) => ((a - b) / level / 1024).toFixed(1)
      const idleCpu = ((cpu1 - cpu0) / IDLE_SECONDS) * 100
      const txPerS = (tx1 - tx0) / IDLE_SECONDS
      const checksPerS = (after.checks - held.checks) / IDLE_SECONDS
      console.log(
        `\n${level} streams open (${after.open} by /metrics) in ${openSeconds.toFixed(1)} s; load ${loadavg()}`,
      )
      console.log(
        `  memory per stream after a forced GC: RSS ${perStream(empty.rss, held.rss)} KB, heap ${perStream(empty.heap, held.heap)} KB (goal <= 20 KB); without: RSS ${perStream(empty.rawRss, held.rawRss)} KB, heap ${perStream(empty.rawHeap, held.rawHeap)} KB`,
      )
      console.log(
        `  idle ${IDLE_SECONDS} s: API CPU ${idleCpu.toFixed(1)} %, database transactions ${txPerS.toFixed(2)}/s, stream session checks ${checksPerS.toFixed(3)}/s (goal <= 5/s)`,
      )
      console.log(
        '  answer to poke on the stream   n  lost refused    p50      p95      p99 (ms)  goal p95 <= 100   (from the request: p50 p95)',
      )
      for (const [name, s] of [
        ['messages', m],
        ['typing', ty],
        ['burst of one', bu],
      ] as const)
        console.log(
          `  ${name.padEnd(22)} ${String(s.count).padStart(6)} ${String(s.lost).padStart(5)} ${String(s.refused).padStart(7)} ${fmt(s.p50)} ${fmt(s.p95)} ${fmt(s.p99)}   ${fmt(s.start.p50)} ${fmt(s.start.p95)}`,
        )
      console.log(`  pool waiting after: ${after.waiting}`)
      // Fan-out: each send pokes its recipient (online here) and its sender
      // (online nowhere in this bench); the process LISTENs on its members'
      // channels only, so PostgreSQL sends it the first and never the second.
      console.log(
        `  fan-out: LISTEN on ${delivered.channels} member channels; pokes PostgreSQL sent this process while delivering: ${delivered.wanted - after.wanted} for its streams, ${delivered.unwanted - after.unwanted} for members with no stream here`,
      )
      rows.push(
        `| ${level} | ${perStream(empty.rss, held.rss)} | ${perStream(empty.heap, held.heap)} | ${perStream(empty.rawRss, held.rawRss)} / ${perStream(empty.rawHeap, held.rawHeap)} | ${idleCpu.toFixed(1)} % | ${txPerS.toFixed(2)} | ${checksPerS.toFixed(3)} | ${m.p50.toFixed(0)} / ${m.p95.toFixed(0)} / ${m.p99.toFixed(0)} (${m.lost} lost) | ${ty.p50.toFixed(0)} / ${ty.p95.toFixed(0)} / ${ty.p99.toFixed(0)} (${ty.lost} lost) | ${bu.p95.toFixed(0)} / ${bu.p99.toFixed(0)} (${bu.lost} lost, ${bu.refused} refused) | ${m.start.p95.toFixed(0)} |`,
      )
    }
  } finally {
    for (const s of streams) s.destroy()
    await api.close()
    await database.close()
  }
  console.log(
    '\n| streams | RSS KB/stream | heap KB/stream | without GC: RSS / heap KB | idle CPU | DB xact/s idle | session checks/s | messages p50/p95/p99 ms | typing p50/p95/p99 ms | burst p95/p99 ms | messages p95 from the request ms |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(r)
}

await main()
process.exit(0)
