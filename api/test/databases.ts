// The engines an API suite runs on: PGlite always, PostgreSQL as well when
// DATABASE_URL names a server (CI sets it). Use with
//   describe.each(engines)('%s', (engine) => { ... freshDatabase(engine) ... })
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { describe } from 'vitest'
import { type Db, type Listen, openDatabase, pgliteTemplate } from '../../db/client.ts'

export type Engine = 'pglite' | 'postgres'

export const engines: Engine[] = [
  'pglite',
  ...(process.env.DATABASE_URL ? ['postgres' as const] : []),
]

/**
 * `describe` once per engine. Without DATABASE_URL the PostgreSQL half is
 * declared as skipped, so the report says so instead of leaving it out.
 */
export function describeEngines(name: string, suite: (engine: Engine) => void): void {
  for (const engine of ['pglite', 'postgres'] as const) {
    const title = name.replace('%s', engine)
    if (engine === 'postgres' && !process.env.DATABASE_URL) {
      describe.skip(`${title} (set DATABASE_URL to run it)`, () => suite(engine))
    } else {
      describe(title, () => suite(engine))
    }
  }
}

export interface TestDatabase {
  db: Db
  engine: Engine
  /** LISTEN/NOTIFY on this database (the live events). */
  listen: Listen
  /** On PostgreSQL, the suite database's URL: a second "process" opens it again. */
  url?: string
  /** Closes the connection and, on PostgreSQL, drops the suite's database. */
  close(): Promise<void>
}

/**
 * An empty, migrated database of its own for one suite. On PostgreSQL that is
 * a new database `t_<random>` on the DATABASE_URL server, dropped by close(),
 * so suites running in parallel never see each other's rows.
 */
export async function freshDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', template: await migratedTemplate() })
    return { db: database.db, engine, listen: database.listen, close: () => database.close() }
  }
  const serverUrl = process.env.DATABASE_URL
  if (!serverUrl) throw new Error('freshDatabase(postgres) needs DATABASE_URL')
  // Random hex only: the name is spliced into DDL, which takes no parameters.
  const name = `t_${randomBytes(8).toString('hex')}`
  await createFromTemplate(serverUrl, name, await postgresTemplate(serverUrl))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  try {
    const database = await openDatabase({ kind: 'postgres', url: url.href })
    return {
      db: database.db,
      engine,
      listen: database.listen,
      url: url.href,
      close: async () => {
        await database.close()
        await dropDatabase(serverUrl, name)
      },
    }
  } catch (e) {
    await dropDatabase(serverUrl, name)
    throw e
  }
}

/**
 * A new, empty PostgreSQL database (no migrations, not from the template) on
 * the DATABASE_URL server, as a fresh installation has: for the tests of
 * several processes starting at once on it. drop() removes it.
 */
export async function emptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL
  if (!serverUrl) throw new Error('emptyPostgresDatabase() needs DATABASE_URL')
  const name = `t_${randomBytes(8).toString('hex')}`
  await admin(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.href, drop: () => dropDatabase(serverUrl, name) }
}

/** Runs `work` with a client on the server's own database (CREATE/DROP DATABASE cannot run in a transaction). */
async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

const admin = (url: string, statement: string) =>
  withAdmin(url, async (client) => {
    await client.query(statement)
  })

/**
 * Drops a suite's database. pg's pool.end() resolves once it has asked its
 * connections to close, not once their server processes are gone; FORCE on a
 * connection that is still closing makes the server send it a FATAL error,
 * which then surfaces as an uncaught exception. So wait (briefly) for the
 * backends to go, and only then drop, with FORCE as the last resort.
 */
async function dropDatabase(url: string, name: string): Promise<void> {
  await withAdmin(url, async (client) => {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      )
      if (rows[0]?.n === 0) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
}

const MIGRATIONS = new URL('../../db/migrations/', import.meta.url)

/** A hash of the migrations: a template made from other migrations is never used. */
function migrationsHash(): string {
  const hash = createHash('sha256')
  for (const name of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    if (!/\.(sql|json)$/.test(name)) continue
    hash.update(name).update(readFileSync(new URL(name, MIGRATIONS)))
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * The migrated empty PostgreSQL database every suite is copied from
 * (CREATE DATABASE ... TEMPLATE): made once per set of migrations on the
 * server, by whichever worker comes first, under an advisory lock, so the
 * migrations run once per test run instead of once per suite (on a busy
 * machine they had taken a suite's whole set-up time). When a new one is
 * made, templates of other migrations are dropped except the newest
 * KEPT_TEMPLATES: another checkout's test run on the same server (a branch
 * with one more migration) may still be copying from its own.
 */
const KEPT_TEMPLATES = 4
let pgTemplate: Promise<string> | undefined
function postgresTemplate(serverUrl: string): Promise<string> {
  pgTemplate ??= withAdmin(serverUrl, async (client) => {
    const name = `tmpl_${migrationsHash()}`
    await client.query("SELECT pg_advisory_lock(hashtext('amora test template'))")
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
      if (rows.length > 0) return name
      const { rows: stale } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'tmpl\\_%'
          ORDER BY oid DESC OFFSET ${KEPT_TEMPLATES}`,
      )
      for (const { datname } of stale) await dropDatabase(serverUrl, datname)
      const building = `${name}_building`
      await client.query(`DROP DATABASE IF EXISTS ${building}`)
      await client.query(`CREATE DATABASE ${building}`)
      const url = new URL(serverUrl)
      url.pathname = `/${building}`
      const database = await openDatabase({ kind: 'postgres', url: url.href })
      await database.close()
      // Copies need a template nobody is connected to: wait for the pool's backends to go.
      for (let i = 0; i < 100; i++) {
        const { rows: open } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [building],
        )
        if (open[0]?.n === 0) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
      return name
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('amora test template'))")
    }
  })
  return pgTemplate
}

/**
 * A suite's database as a copy of the template. Two copies of one template may
 * not start at the same instant (PostgreSQL: "source database is being
 * accessed by other users"), so a busy template is asked again until it is free.
 */
async function createFromTemplate(serverUrl: string, name: string, templateName: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${templateName}`)
      return
    } catch (e) {
      const busy = (e as { code?: string }).code === '55006'
      if (!busy || attempt >= 200) throw e
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 100))
    }
  }
}

/**
 * The migrated empty database every PGlite suite starts from, made once per
 * set of migrations and kept in the temp directory (keyed by the migrations'
 * hash, written under a temporary name and renamed, so parallel workers never
 * read half a file). Migrations still run on the copy: a stale template
 * would only cost the time it was meant to save.
 */
let template: Promise<Blob> | undefined
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = join(tmpdir(), `pglite-template-${migrationsHash()}.tar`)
    if (existsSync(file)) return new Blob([readFileSync(file)])
    const dump = await pgliteTemplate()
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    renameSync(partial, file)
    return dump
  })()
  return template
}
