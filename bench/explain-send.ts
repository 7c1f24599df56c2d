// EXPLAIN (ANALYZE, BUFFERS) of the common send's one statement, as the API
// sends it: a send over the real app is captured at the driver (its prepared
// statement's text and parameters), then the same statement is explained
// with a fresh client id, in a transaction rolled back, `--runs` times; the
// last plan is printed with each run's planning and execution times.
//
//   DATABASE_URL=postgres://… node --import tsx bench/explain-send.ts [--runs=20] [--cpu=N] [--text]
//
// --text prints the statement's text; each run prints the relation locks
// one run of it holds, fast-path or in the shared lock table.
//
// --cpu=N then runs the statement N times as the API does (named, each run
// its own transaction) and prints the server's CPU per run.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { createApi } from '../api/app.ts'
import { credit } from '../api/credits/ledger.ts'
import { createEventBus } from '../api/events/bus.ts'
import { createMailer } from '../api/mail/mailer.ts'
import { freshDatabase } from '../api/test/databases.ts'
import { addConversation, addMembers, TEST_PASSWORD } from '../api/test/seed.ts'
import { captureNamedStatements } from './capture.ts'
import { cpuSecondsOf } from './http.ts'

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 20)
const CPU_RUNS = Number(process.argv.find((a) => a.startsWith('--cpu='))?.split('=')[1] ?? 0)
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL: a PostgreSQL server to explain on')

const captured = captureNamedStatements()

const database = await freshDatabase('postgres')
try {
  const [mia, bob] = await addMembers(database.db, [{}, {}])
  const conversation = await addConversation(database.db, mia!.id, bob!.id)
  await database.db.transaction((tx) => credit(tx, mia!.id, 1_000_000, 'bonus', 'bench'))
  const events = createEventBus(database.listen)
  await events.ready()
  const app = createApi({
    db: database.db,
    events,
    memberLimits: !process.argv.includes('--no-member-limits'),
    accounts: {
      mailer: createMailer({ devListing: false }),
      trustProxy: false,
      publicUrl: undefined,
    },
  })
  const base = 'http://localhost'
  const login = await app.fetch(
    new Request(`${base}/api/login.php`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ email: mia!.email, password: TEST_PASSWORD }),
    }),
  )
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
  const send = () =>
    app.fetch(
      new Request(`${base}/api/messages.php`, {
        method: 'POST',
        headers: { origin: base, cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ conversation, text: 'x', client_id: randomUUID() }),
      }),
    )
  // The first send opens the conversation (a statement of its own); the next are common sends.
  for (let i = 0; i < 3; i++) if ((await send()).status !== 201) throw new Error('send refused')
  const statement = captured.filter((c) => c.name === 'send_message_session').at(-1)
  if (!statement) throw new Error('the common send statement was not seen')
  await events.close()

  const pool = new pg.Pool({ connectionString: database.url, max: 1 })
  const client = await pool.connect()
  let plan = ''
  const times: string[] = []
  // The captured parameters with a fresh client id each run (the same id would replay).
  const clientId = statement.values.find((v) => typeof v === 'string' && /^[0-9a-f-]{36}$/.test(v))
  const freshValues = () => statement.values.map((v) => (v === clientId ? randomUUID() : v))
  for (let run = 0; run < RUNS; run++) {
    const values = freshValues()
    await client.query('BEGIN')
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
      values,
    )
    await client.query('ROLLBACK')
    plan = rows.map((r) => r['QUERY PLAN']).join('\n')
    times.push(
      plan
        .split('\n')
        .filter((l) => /Planning Time|Execution Time/.test(l))
        .map((l) => l.trim())
        .join(', '),
    )
  }
  console.log(plan)
  if (process.argv.includes('--text')) console.log(`\n${statement.text}`)
  {
    // The locks one run holds until its commit: a backend keeps 16 relation
    // locks in its own fast-path slots (PostgreSQL 15); the rest go through
    // the shared lock table, whose partition locks every backend running
    // the same statement takes in turn.
    await client.query('BEGIN')
    await client.query({ name: 'locks_send', text: statement.text, values: freshValues() })
    const { rows: locks } = await client.query<{ fastpath: boolean; n: number }>(
      `SELECT fastpath, count(*)::int AS n FROM pg_locks
       WHERE pid = pg_backend_pid() AND locktype = 'relation' GROUP BY 1`,
    )
    await client.query('ROLLBACK')
    const count = (fast: boolean) => locks.find((l) => l.fastpath === fast)?.n ?? 0
    console.log(
      `\nRelation locks of one run: ${count(true) + count(false)} (${count(true)} fast-path, ${count(false)} in the shared lock table)`,
    )
  }
  console.log(`\n${times.slice(-5).join('\n')}`)
  if (CPU_RUNS > 0) {
    // The statement as the API runs it (named, prepared once, each run its
    // own transaction), one after another: the server's CPU per run.
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    // Variants of the text (VARIANTS=a,b: what each part of the statement
    // costs the server) run in turns, CPU_RUNS in all each, so a machine
    // that slows down meanwhile slows them all alike.
    const variants = ['as sent', ...(process.env.VARIANTS?.split(',').filter(Boolean) ?? [])]
    const texts = variants.map((variant) => variantOf(statement.text, variant))
    const run = (v: number) =>
      client.query({
        name: `cpu_send_${v}`,
        text: texts[v]!,
        values: variants[v]!.startsWith('just ')
          ? variants[v] === 'just a write'
            ? [randomUUID()]
            : []
          : [...freshValues(), ...(variants[v] === 'member' ? [mia!.id] : [])],
      })
    for (let v = 0; v < texts.length; v++) for (let i = 0; i < 100; i++) await run(v)
    const cpu = variants.map(() => 0)
    const rounds = 10
    for (let round = 0; round < rounds; round++)
      for (let v = 0; v < texts.length; v++) {
        const before = cpuSecondsOf(rows[0]!.pid)
        for (let i = 0; i < CPU_RUNS / rounds; i++) await run(v)
        cpu[v]! += cpuSecondsOf(rows[0]!.pid) - before
      }
    for (let v = 0; v < texts.length; v++)
      console.log(
        `${variants[v]!.padEnd(12)} ${texts[v]!.length} characters: server CPU ${((cpu[v]! * 1e6) / CPU_RUNS).toFixed(0)} µs per run`,
      )
  }
  client.release()
  await pool.end()
} catch (err) {
  console.error(err)
  process.exitCode = 1
} finally {
  await database.close()
}

/** The statement's text with a part taken out, to see what that part costs. */
function variantOf(text: string, variant: string): string {
  if (variant === 'as sent') return text
  // A floor: a statement that does nothing, and one that writes one row (a commit that flushes).
  if (variant === 'just a read') return 'SELECT 1'
  if (variant === 'just a write')
    return `INSERT INTO member_actions (member_id, client_id, kind, response) SELECT id, $1::uuid, 'bench', '{}' FROM members ORDER BY id LIMIT 1`
  if (variant === 'member') {
    // The member as one more parameter, after the statement's own.
    const last = Math.max(...(text.match(/\$\d+/g) ?? []).map((p) => Number(p.slice(1))))
    return text.replaceAll('(SELECT id FROM me)', `$${last + 1}::bigint`)
  }
  if (variant === 'touch')
    // The session's renewal read but not written: what its UPDATE costs.
    return text
      .replace(
        /UPDATE sessions SET last_seen_at = (\$\d+)::timestamptz FROM sess\s+WHERE/,
        'SELECT sessions.id FROM sessions, sess WHERE $1::timestamptz IS NOT NULL AND false AND',
      )
      .replace('RETURNING sessions.id', '')
  if (variant === 'jobs')
    // The two job rows chosen but not inserted: what their INSERTs cost.
    return text
      .replace(/INSERT INTO jobs \([^)]*\)\s*SELECT/g, 'SELECT 1 AS id,')
      .replaceAll(/ON CONFLICT DO NOTHING\s*RETURNING id/g, '')
  if (variant === 'no mail') {
    // The mail job's CTE left out; its parameters stay typed in the answer's columns.
    const params = /, mail AS \(([\s\S]*?RETURNING id\s*)\)\s*SELECT sess/.exec(text)
    if (!params) throw new Error('no mail CTE in the statement')
    // Each parameter with the type the CTE gave it (the job's kind is text).
    const typed = new Map<string, string>()
    for (const [, n, type] of params[1]!.matchAll(/(\$\d+)(?:::(\w+))?/g))
      if (type || !typed.has(n!)) typed.set(n!, `${n}::${type ?? 'text'}`)
    return text.replace(params[0], ` SELECT ${[...typed.values()].join(', ')}, sess`)
  }
  if (variant === 'gate')
    // The age gate's lookup left out (a site without a gate skips it anyway).
    return text.replace(
      /OR EXISTS \(SELECT 1 FROM age_assurance aa WHERE aa\.member_id = me\.id\)/,
      'OR true',
    )
  throw new Error(`no variant ${variant}`)
}
