// One connection factory for both engines. With a DATABASE_URL the API talks
// to PostgreSQL through `pg`; without one it runs on PGlite (embedded
// PostgreSQL in WebAssembly) with its data in a directory, or in memory for
// tests. Both get the same drizzle schema and the same SQL migrations.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

/** LISTEN on a channel; resolves to the way to stop (UNLISTEN and close). */
export type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
) => Promise<() => Promise<void>>

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** PostgreSQL LISTEN/NOTIFY: a dedicated connection on pg, PGlite's own on the embedded db. */
  listen: Listen
  close(): Promise<void>
}

const CHANNEL = /^[a-z_]{1,63}$/

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

export type DatabaseOptions =
  | { kind: 'postgres'; url: string }
  /** dataDir undefined = in memory (tests). */
  | { kind: 'pglite'; dataDir?: string }

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 })
    const db = drizzlePg(pool, { schema })
    await migratePg(db, { migrationsFolder })
    const listen: Listen = async (channel, onPayload) => {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`)
      // A connection of its own: a pooled one could be handed to a query.
      const client = new pg.Client({ connectionString: options.url })
      client.on('error', (e) => console.error('listen: connection error', channel, e.message))
      client.on('notification', (n) => {
        if (n.channel === channel) onPayload(n.payload ?? '')
      })
      await client.connect()
      await client.query(`LISTEN ${channel}`)
      return () => client.end()
    }
    return { db: db as unknown as Db, kind: 'postgres', listen, close: () => pool.end() }
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
  const client = options.dataDir ? new PGlite(options.dataDir) : new PGlite()
  const db = drizzlePglite(client, { schema })
  await migratePglite(db, { migrationsFolder })
  const listen: Listen = async (channel, onPayload) => {
    if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`)
    return client.listen(channel, onPayload)
  }
  return { db: db as unknown as Db, kind: 'pglite', listen, close: () => client.close() }
}
