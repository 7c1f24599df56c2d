// Fan-out of one event to many devices: a member with 10,000 push
// subscriptions gets a message; how fast do the pushes go out?
//
//   node --import tsx bench/push-fanout.ts [--subscriptions=10000] [--concurrency=64]
//
// The local push service (api/push/local-push-service.ts) runs in a worker
// thread, as the push service is another machine: it checks every VAPID JWT
// and decrypts every message like a browser, so each send is verified.
// Database: in-memory PGlite, or a fresh PostgreSQL database on DATABASE_URL.
// Two measures:
//   job     notifyMember, then its one job through sendPushJob, as the job
//           runner would run it: block and subscription look-ups once, then
//           the sends, at most --concurrency at once;
//   sender  the same messages through the sender alone (encryption, VAPID, HTTP).
// Prints sends/s and the time until the last one; the goal is >= 500/s. A
// benchmark, not a test: it never fails on a time.
import { cpus, loadavg } from 'node:os'
import { isMainThread, parentPort, Worker } from 'node:worker_threads'
import { conversationWith } from '../api/chats/conversations.ts'
import { sendPushJob } from '../api/push/job.ts'
import { type BrowserSubscription, startLocalPushService } from '../api/push/local-push-service.ts'
import { badgeOf } from '../api/badge.ts'
import { notifyMember } from '../api/push/notify.ts'
import { createPushSender, type PushSender } from '../api/push/sender.ts'
import { vapidKeys } from '../api/settings/vapid.ts'
import { freshDatabase } from '../api/test/databases.ts'
import { addMember } from '../api/test/seed.ts'
import { pushSubscriptions } from '../db/schema/index.ts'
import { ms, summarise, table } from './stats.ts'

const GOAL_PER_S = 500

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`))
  const n = hit ? Number(hit.split('=')[1]) : fallback
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`)
  return n
}

type ToService = { type: 'subscribe'; count: number; key: string } | { type: 'count' }
type FromService =
  | { type: 'ready'; origin: string }
  | { type: 'subscriptions'; list: BrowserSubscription[] }
  | { type: 'count'; deliveries: number; refused: number }

/** The push service side: answers the main thread's requests. */
async function serve(): Promise<void> {
  const port = parentPort!
  const service = await startLocalPushService()
  // Ten thousand decrypted payloads would only fill memory: keep counting.
  const post = (m: FromService) => port.postMessage(m)
  port.on('message', (m: ToService) => {
    if (m.type === 'subscribe') {
      const list = Array.from({ length: m.count }, () =>
        service.subscribe({ applicationServerKey: m.key }),
      )
      post({ type: 'subscriptions', list })
    } else {
      post({
        type: 'count',
        deliveries: service.deliveries.length,
        refused: service.requests.filter((r) => r.status !== 201).length,
      })
      service.deliveries.length = 0
      service.requests.length = 0
    }
  })
  post({ type: 'ready', origin: service.origin })
}

/** Runs `work` on every item with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>) {
  let next = 0
  const lane = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}

async function main(): Promise<void> {
  const count = arg('subscriptions', 10_000)
  const concurrency = arg('concurrency', 64)
  const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite'
  console.log(
    `push fan-out: ${count} subscriptions, ${concurrency} at once, ${engine}, ` +
      `${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`,
  )

  // The worker loads this file through tsx's loader: Node 20 does not apply
  // an inherited --import before a worker's first module.
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}) })`,
    { eval: true },
  )
  const replies: ((m: FromService) => void)[] = []
  worker.on('message', (m: FromService) => replies.shift()?.(m))
  const ask = (m?: ToService) =>
    new Promise<FromService>((resolve) => {
      replies.push(resolve)
      if (m) worker.postMessage(m)
    })
  const ready = await ask()
  if (ready.type !== 'ready') throw new Error('push service did not start')

  const database = await freshDatabase(engine)
  const db = database.db
  try {
    const vapid = await vapidKeys(db, {})
    const sender = createPushSender({
      vapid,
      subject: 'mailto:bench@amora.example',
      allowHttpOrigins: [ready.origin],
      maxSockets: concurrency,
    })
    const reply = await ask({ type: 'subscribe', count, key: vapid.publicKey })
    if (reply.type !== 'subscriptions') throw new Error('no subscriptions')
    const me = await addMember(db, { language: 'de' })
    const anna = await addMember(db, { name: 'Anna', gender: 'female' })
    for (let i = 0; i < reply.list.length; i += 2000) {
      await db.insert(pushSubscriptions).values(
        reply.list.slice(i, i + 2000).map((s) => ({
          memberId: me.id,
          endpoint: s.endpoint,
          p256dh: s.keys.p256dh,
          auth: s.keys.auth,
        })),
      )
    }
    const conversation = await conversationWith(db, anna.id, me.id)

    const rows: string[][] = []
    const report = async (name: string, started: number, latencies: number[]) => {
      const seconds = (performance.now() - started) / 1000
      const counted = await ask({ type: 'count' })
      if (counted.type !== 'count') throw new Error('no count')
      const s = summarise(latencies)
      rows.push([
        name,
        String(counted.deliveries),
        String(counted.refused),
        (counted.deliveries / seconds).toFixed(0),
        (seconds * 1000).toFixed(0),
        ms(s.p50),
        ms(s.p95),
        ms(s.p99),
      ])
    }

    // The job path: notifyMember builds the one job (badge query, payload),
    // then the job handler fans it out. Send latencies via a timing wrapper.
    const timed = (latencies: number[]): PushSender => ({
      ...sender,
      send: async (...args) => {
        const start = performance.now()
        try {
          return await sender.send(...args)
        } finally {
          latencies.push(performance.now() - start)
        }
      },
    })
    let started = performance.now()
    const [job] = await notifyMember(
      db,
      me.id,
      {
        kind: 'message',
        from: { id: anna.id, name: 'Anna' },
        conversation,
        text: 'Hallo! Hast du heute Abend Zeit? '.repeat(4),
      },
      { badgeOf },
    )
    if (!job) throw new Error('no push job')
    const built = performance.now() - started
    const jobLatencies: number[] = []
    const outcome = await sendPushJob(db, job.payload, {
      sender: timed(jobLatencies),
      concurrency,
      log: (line, details) => console.log(line, details),
    })
    await report('job (notifyMember + sendPushJob)', started, jobLatencies)

    // The sender alone, same payload and subscriptions.
    started = performance.now()
    const senderLatencies: number[] = []
    const bare = timed(senderLatencies)
    await pool(reply.list, concurrency, (s) =>
      bare.send(s, job.payload.payload, {
        ttl: 86_400,
        urgency: 'high',
        topic: `chat-${conversation}`,
      }),
    )
    await report('sender only', started, senderLatencies)
    sender.close()

    console.log(`notifyMember: 1 job in ${ms(built)} ms`)
    console.log(`job report: ${JSON.stringify(outcome)}`)
    console.log(
      table(
        ['path', 'delivered', 'refused', 'sends/s', 'last after ms', 'p50 ms', 'p95 ms', 'p99 ms'],
        rows,
      ),
    )
    console.log(`goal: >= ${GOAL_PER_S} sends/s (every message checked and decrypted)`)
  } finally {
    await database.close()
    await worker.terminate()
  }
}

if (isMainThread) await main()
else await serve()
