// Several machines (docs/several-machines.md): the real entry (api/start.ts
// under node, as `npm start` runs it) started twice at the same moment on one
// empty PostgreSQL database, each with its own port and data directory, the
// demo seed on. Both must open the site: before the start-up lock one of the
// two crashed on every try, in drizzle's migrator (duplicate key on
// pg_type_typname_nsp_index) or, past it, in the seed (members_email_key).
// `npm run migrate` twice at once on an empty database is tried the same way.
// Needs DATABASE_URL (a server on which it may create databases); skipped without.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyPostgresDatabase } from '../api/test/databases.ts'
import { freePort } from './harness.ts'

const ROOT = new URL('..', import.meta.url).pathname
const DEMO_MEMBERS = 20

interface Run {
  child: ChildProcess
  output(): string
  /** Resolves with 'listening' once the site answers, or with how the process ended. */
  outcome: Promise<string>
  exited: Promise<void>
}

/** `node --import tsx <entry>` with the parent's environment and `env` on top. */
function run(entry: string, env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const outcome = new Promise<string>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString()
      if (log.includes('start: listening on')) resolve('listening')
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString()
    })
    child.once('exit', (code, signal) => resolve(`exited with ${code ?? signal}`))
  })
  return { child, output: () => log, outcome, exited }
}

const suite = process.env.DATABASE_URL ? describe : describe.skip

suite(`several processes on one empty PostgreSQL database${process.env.DATABASE_URL ? '' : ' (set DATABASE_URL to run it)'}`, () => {
  const cleanups: (() => unknown)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  /** Ends a run (if it still runs) when the test is over. */
  const track = (r: Run) => {
    cleanups.push(async () => {
      if (r.child.exitCode === null && r.child.signalCode === null) {
        r.child.kill('SIGTERM')
        await r.exited
      }
    })
    return r
  }

  async function emptyDatabase() {
    const database = await emptyPostgresDatabase()
    cleanups.push(database.drop)
    return database
  }

  it('starts two sites at the same moment: both listen, the demo is seeded once', async () => {
    const database = await emptyDatabase()
    const sites = await Promise.all(
      [0, 1].map(async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'amora-e2e-several-'))
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
        return { dataDir, port: await freePort() }
      }),
    )
    // Spawned in the same tick: they reach the empty database together.
    const runs = sites.map(({ dataDir, port }) =>
      track(
        run('api/start.ts', {
          DATABASE_URL: database.url,
          PORT: String(port),
          DATA_DIR: dataDir,
          DEMO_SEED: 'on',
          DEMO_MEMBERS: String(DEMO_MEMBERS),
        }),
      ),
    )
    const outcomes = await Promise.all(runs.map((r) => r.outcome))
    expect(
      outcomes,
      runs.map((r, i) => `--- process ${i}:\n${r.output().slice(-3000)}`).join('\n'),
    ).toEqual(['listening', 'listening'])
    // Both answer, and neither went down after saying so.
    for (const { port } of sites) {
      const res = await fetch(`http://127.0.0.1:${port}/`)
      expect(res.status).toBe(200)
    }
    expect(runs.map((r) => r.child.exitCode)).toEqual([null, null])
    // One of them seeded, the other found it done.
    const said = runs.map((r) => r.output())
    expect(said.filter((o) => o.includes('seed: demo data already present'))).toHaveLength(1)

    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ demo: number; all: number; staff: number }>(
        `SELECT (SELECT count(*)::int FROM members WHERE email = 'demo@example.com') AS demo,
                  (SELECT count(*)::int FROM members) AS all,
                  (SELECT count(*)::int FROM staff) AS staff`,
      )
      // The demo, the second demo login and the generated members; the five demo staff.
      expect(rows[0]).toEqual({ demo: 1, all: DEMO_MEMBERS + 2, staff: 5 })
    } finally {
      await client.end()
    }
  })

  it('runs `npm run migrate` twice at once on an empty database: both succeed', async () => {
    const database = await emptyDatabase()
    const runs = [0, 1].map(() => track(run('api/migrate.ts', { DATABASE_URL: database.url })))
    await Promise.all(runs.map((r) => r.exited))
    expect(
      runs.map((r) => r.child.exitCode),
      runs.map((r) => r.output()).join('\n'),
    ).toEqual([0, 0])
    for (const r of runs) expect(r.output()).toMatch(/migrate: postgres database up to date/)
  })
})
