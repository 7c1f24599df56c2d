// Statements of the hot paths (the session lookup of every request, the send
// of a message), built once: the SQL text is made once per process, and on
// PostgreSQL each pooled connection parses it once (a named prepared
// statement) instead of on every request. PGlite runs the same text.
import { type Placeholder, type SQL, sql } from 'drizzle-orm'
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from 'drizzle-orm/pg-core'
import type { Db } from './client.ts'

const dialect = new PgDialect()

/**
 * A raw statement with named parameters (`p('member')`), prepared on first use
 * per database and run like `db.execute` (same result shape). `name` must be
 * unique in the process: PostgreSQL keeps the statement per connection.
 */
export function preparedStatement<P extends string>(
  name: string,
  build: (p: (param: P) => Placeholder<P>) => SQL,
) {
  const query = dialect.sqlToQuery(build((param) => sql.placeholder(param)))
  const prepared = new WeakMap<Db, PgPreparedQuery<PreparedQueryConfig>>()
  return (db: Db, params: Record<P, unknown>): Promise<unknown> => {
    let statement = prepared.get(db)
    if (!statement) {
      statement = db._.session.prepareQuery(query, undefined, name, false)
      prepared.set(db, statement)
    }
    return statement.execute(params)
  }
}
