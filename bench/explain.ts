// EXPLAIN (ANALYZE, BUFFERS) of the SQL a real search() sends: the SQL is
// captured with a drizzle logger on a separate connection pool, then each
// statement is explained with its own parameters.
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import type { SearchParams } from '../api/contract/index.ts'
import { search } from '../api/search/search.ts'
import type { Db } from '../db/client.ts'
import type { members } from '../db/schema/index.ts'
import * as schema from '../db/schema/index.ts'

type Member = typeof members.$inferSelect

export async function explainSearch(url: string, me: Member, q: SearchParams): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: 2 })
  const captured: { sql: string; params: unknown[] }[] = []
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) }
  // The same drizzle setup as db/client.ts, plus the logger.
  const db = drizzle(pool, { schema, logger }) as unknown as Db
  try {
    await search(db, me, q)
    const out: string[] = []
    for (const { sql, params } of captured) {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
        params,
      )
      out.push(`${sql}\n-- params: ${JSON.stringify(params)}`)
      out.push(rows.map((r) => r['QUERY PLAN']).join('\n'))
    }
    return out.join('\n\n')
  } finally {
    await pool.end()
  }
}
