// The engines an API suite runs on: PGlite always, PostgreSQL as well when
// DATABASE_URL names a server (CI sets it). Use with
//   describe.each(engines)('%s', (engine) => { ... freshDatabase(engine) ... })
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Db, openDatabase } from '../../db/client.ts'

export type Engine = 'pglite' | 'postgres'

export const engines: Engine[] = [
  'pglite',
  ...(process.env.DATABASE_URL ? ['postgres' as const] : []),
]

export interface TestDatabase {
  db: Db
  engine: Engine
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
    const database = await openDatabase({ kind: 'pglite' })
    return { db: database.db, engine, close: () => database.close() }
  }
  const serverUrl = process.env.DATABASE_URL
  if (!serverUrl) throw new Error('freshDatabase(postgres) needs DATABASE_URL')
  // Random hex only: the name is spliced into DDL, which takes no parameters.
  const name = `t_${randomBytes(8).toString('hex')}`
  await admin(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  try {
    const database = await openDatabase({ kind: 'postgres', url: url.href })
    return {
      db: database.db,
      engine,
      close: async () => {
        await database.close()
        await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      },
    }
  } catch (e) {
    await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    throw e
  }
}

/** One statement on the server's own database (CREATE/DROP DATABASE cannot run in a pool's transaction). */
async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}
