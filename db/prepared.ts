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
  const prepared = perDatabase(
    (db): PgPreparedQuery<PreparedQueryConfig> =>
      db._.session.prepareQuery(query, undefined, name, false),
  )
  return (db: Db, params: Record<P, unknown>): Promise<unknown> => prepared(db).execute(params)
}

/**
 * What `build` makes of a database, made once per database and kept as long
 * as it is: a drizzle query `.prepare(name)`d with placeholders, so its SQL
 * is built once per process and, on PostgreSQL, parsed once per connection.
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>()
  return (db) => {
    let value = made.get(db)
    if (value === undefined) {
      value = build(db)
      made.set(db, value)
    }
    return value
  }
}
