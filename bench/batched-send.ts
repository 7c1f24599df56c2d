// What several common sends in one statement cost PostgreSQL, against the
// same sends one statement each, on the database path alone
// (docs/performance.md, "Several sends in one statement"). Both statements
// are the API's own (api/chats/messages.ts, api/chats/send-batch.ts),
// captured at the driver from real sends: the lone one with its
// parameters, the batched one with each send's row of its json parameter,
// replayed with new client ids in batches of the sizes asked for.
//
//   DATABASE_URL=postgres://… node --import tsx bench/batched-send.ts [--batch=8] [--sends=4000] [--connections=1,4]
//
// Prints, for each batch size and number of connections: the sends/s of the
// database path alone (no HTTP, no API) and the CPU every `postgres`
// process spent a send; then checks that every send was stored, debited and
// claimed once, and the balances are what the ledger says (bench/money-check.ts).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { createApi } from '../api/app.ts'
import { credit } from '../api/credits/ledger.ts'
import { createEventBus } from '../api/events/bus.ts'
import { createMailer } from '../api/mail/mailer.ts'
import { freshDatabase } from '../api/test/databases.ts'
import { sessionCookie } from '../api/test/fuzz.ts'
import { addConversation, addMembers } from '../api/test/seed.ts'
import { captureNamedStatements } from './capture.ts'
import { cpuSecondsBetween, cpuSecondsByPid } from './http.ts'
import { moneyCheck } from './money-check.ts'

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const BATCHES = arg('batch', '1,4,8,16').split(',').map(Number)
const SENDS = Number(arg('sends', '4000'))
const CONNECTIONS = arg('connections', '1,4').split(',').map(Number)
const SENDERS = Math.max(...BATCHES) * Math.max(...CONNECTIONS)
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL: a PostgreSQL server to measure on')

const captured = captureNamedStatements()
/** The senders' places from `from`, `size` of them. */
const range = (from: number, size: number) => Array.from({ length: size }, (_, i) => from + i)

const database = await freshDatabase('postgres')
try {
  const members = await addMembers(
    database.db,
    Array.from({ length: SENDERS * 2 }, () => ({})),
  )
  const senders = members.slice(0, SENDERS)
  const conversations: number[] = []
  for (const [i, sender] of senders.entries()) {
    conversations.push(await addConversation(database.db, sender.id, members[SENDERS + i]!.id))
    await database.db.transaction((tx) => credit(tx, sender.id, 10_000_000, 'bonus', 'bench'))
  }
  const events = createEventBus(database.listen)
  await events.ready()
  const app = createApi({
    db: database.db,
    events,
    memberLimits: false,
    // One statement at work: the sends of a wave go in batches (captured below).
    sendGathering: { inFlight: 1, most: 256, stallMs: 3_600_000, waitMs: 0 },
    accounts: {
      mailer: createMailer({ devListing: false }),
      trustProxy: false,
      publicUrl: undefined,
    },
  })
  const base = 'http://localhost'
  // Each sender logs in and sends twice (the first opens the conversation):
  // the second is a common send alone, whose statement and values are kept
  // (with where its client id is in them).
  const post = (cookie: string, conversation: number, clientId: string = randomUUID()) =>
    app.fetch(
      new Request(`${base}/api/messages.php`, {
        method: 'POST',
        headers: { origin: base, cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ conversation, text: 'x', client_id: clientId }),
      }),
    )
  const single: unknown[][] = []
  const cookies: string[] = []
  let text = ''
  let clientIdAt = -1
  for (const [i, sender] of senders.entries()) {
    const cookie = await sessionCookie(database.db, sender.id)
    cookies.push(cookie)
    let clientId: string = randomUUID()
    for (let k = 0; k < 2; k++) {
      clientId = randomUUID()
      const res = await post(cookie, conversations[i]!, clientId)
      if (res.status !== 201) throw new Error(`send refused: ${res.status} ${await res.text()}`)
    }
    const statement = captured.filter((c) => c.name === 'send_message_session').at(-1)
    clientIdAt = statement?.values.indexOf(clientId) ?? -1
    if (!statement || clientIdAt < 0) throw new Error('the common send statement was not seen')
    text = statement.text
    single.push(statement.values)
  }
  // Then all at once, led by one more send of the first sender, which goes
  // alone: every sender's send of the wave goes in a batch, whose rows are kept.
  const wave = await Promise.all(
    [0, ...senders.keys()].map((i) => post(cookies[i]!, conversations[i]!)),
  )
  if (wave.some((res) => res.status !== 201)) throw new Error('a send of the wave was refused')
  const batches = captured.filter((c) => c.name === 'send_message_batch')
  if (batches.length === 0) throw new Error('the batched send statement was not seen')
  const batchText = batches[0]!.text
  // Its first parameter is the sends (json); the others are the statement's constants.
  const batchConstants = batches[0]!.values.slice(1)
  const rowOf = new Map<unknown, Record<string, unknown>>()
  for (const b of batches)
    for (const row of JSON.parse(String(b.values[0])) as Record<string, unknown>[])
      rowOf.set(row.hash, row)
  const batchRows = single.map((values) => {
    const row = [...rowOf.values()].find((r) => values.includes(r.hash))
    if (!row) throw new Error('a sender did not send in a batch')
    return row
  })
  await events.close()

  // The captured values with a new client id (the same one would replay).
  const fresh = (values: unknown[]) => values.map((v, i) => (i === clientIdAt ? randomUUID() : v))
  const batchValues = (group: number[]) => [
    JSON.stringify(group.map((s, i) => ({ ...batchRows[s], n: i + 1, client_id: randomUUID() }))),
    ...batchConstants,
  ]
  /** Every send stored so far: the three each sender made through the app (one more of the first), then each run's. */
  let sent = senders.length * 3 + 1
  const count = (rows: { stored: string }[]) => {
    for (const row of rows) sent += Number(row.stored)
  }
  const stored = async (pool: pg.Pool) =>
    Number((await pool.query('SELECT count(*)::int AS n FROM messages')).rows[0].n)

  console.log(
    `Common sends on PostgreSQL without HTTP: ${SENDERS} senders, ${SENDS} sends a run, one statement a send against one a batch`,
  )
  console.log('  connections  batch    sends/s   postgres CPU µs a send')
  for (const connections of CONNECTIONS) {
    const pool = new pg.Pool({ connectionString: database.url, max: connections })
    // Warm every connection's prepared statements and caches.
    await Promise.all(
      Array.from({ length: connections }, async (_, c) => {
        const client = await pool.connect()
        for (let i = 0; i < 50; i++)
          count(
            (await client.query({ name: 'single', text, values: fresh(single[c % SENDERS]!) }))
              .rows,
          )
        for (const size of BATCHES)
          for (let i = 0; i < 20; i++)
            count(
              (
                await client.query({
                  name: `batch_${size}`,
                  text: batchText,
                  values: batchValues(range(c * size, size)),
                })
              ).rows,
            )
        client.release()
      }),
    )
    for (const size of [0, ...BATCHES]) {
      // Connection c sends for senders [c*max, c*max + size): no sender in two batches at once.
      const group = Math.max(size, 1)
      const before = await stored(pool)
      const cpuBefore = cpuSecondsByPid('postgres')
      const started = performance.now()
      await Promise.all(
        Array.from({ length: connections }, async (_, c) => {
          const client = await pool.connect()
          const mine = range(c * Math.max(...BATCHES), group)
          for (let done = 0; done < SENDS / connections; done += group) {
            if (size === 0)
              count(
                (
                  await client.query({
                    name: 'single',
                    text,
                    values: fresh(single[mine[done % group]!]!),
                  })
                ).rows,
              )
            else {
              const { rows } = await client.query({
                name: `batch_${size}`,
                text: batchText,
                values: batchValues(mine),
              })
              if (rows.length !== size || rows.some((r) => Number(r.stored) !== 1))
                throw new Error(`a batch of ${size} did not store every send`)
              count(rows)
              if (process.argv.includes('--show') && done === 0 && c === 0) console.log(rows[0])
            }
          }
          client.release()
        }),
      )
      const seconds = (performance.now() - started) / 1000
      const sends = (await stored(pool)) - before
      const cpu = cpuSecondsBetween(cpuBefore, cpuSecondsByPid('postgres'))
      console.log(
        `  ${String(connections).padStart(11)}  ${(size === 0 ? 'single' : String(size)).padStart(6)}  ${(sends / seconds).toFixed(0).padStart(9)}   ${((cpu * 1e6) / sends).toFixed(0).padStart(6)}`,
      )
    }
    await pool.end()
  }
  // Every send stored once, debited once, with its ledger row and claim; balances as the ledger says.
  console.log(`  ${await moneyCheck(database.db, sent)}`)
} catch (err) {
  console.error(err)
  process.exitCode = 1
} finally {
  await database.close()
}
