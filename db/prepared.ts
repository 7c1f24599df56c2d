// Statements of the hot paths (the session lookup of every request, the send
// of a message), built once: the SQL text is made once per process, and on
// PostgreSQL each pooled connection parses it once (a named prepared
// statement) instead of on every request. PGlite runs the same text.
import { Placeholder, type Query, type SQL, sql } from 'drizzle-orm'
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
  const query = sharedParameters(dialect.sqlToQuery(build((param) => sql.placeholder(param))))
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

/**
 * `query` with one parameter per placeholder name: drizzle numbers every
 * occurrence anew, so a statement that names the client id four times and
 * the request's time ten sent each value that often, serialised by the
 * driver and parsed by the server every time (the common send had 53
 * parameters for 22 values). `$n` is rewritten outside string literals,
 * quoted names and comments; the server then infers one type per
 * parameter from all its uses, and a statement whose uses disagree fails
 * when it is prepared (every prepared statement runs in the tests).
 */
export function sharedParameters(query: Query): Query {
  const params: unknown[] = []
  const index = new Map<string, number>()
  const renumber = query.params.map((param) => {
    if (param instanceof Placeholder) {
      const known = index.get(param.name)
      if (known !== undefined) return known
      index.set(param.name, params.push(param))
      return params.length
    }
    return params.push(param)
  })
  return { ...query, sql: renumberParameters(query.sql, (n) => renumber[n - 1]), params }
}

/** `text` with each parameter `$n` outside literals, quoted names and comments as `$to(n)`. */
function renumberParameters(text: string, to: (n: number) => number | undefined): string {
  let out = ''
  let at = 0
  while (at < text.length) {
    const c = text[at]!
    const skipTo = (end: number) => {
      const stop = end < 0 ? text.length : end
      out += text.slice(at, stop)
      at = stop
    }
    if (c === "'" || c === '"') {
      // A literal or a quoted name; a doubled quote inside is an escaped one.
      let end = at + 1
      while (end < text.length && !(text[end] === c && text[end + 1] !== c)) {
        end += text[end] === c ? 2 : 1
      }
      skipTo(end + 1)
    } else if (c === '-' && text[at + 1] === '-') skipTo(text.indexOf('\n', at))
    else if (c === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2)
      skipTo(end < 0 ? -1 : end + 2)
    } else if (c === '$' && /[0-9]/.test(text[at + 1] ?? '')) {
      const digits = /^[0-9]+/.exec(text.slice(at + 1))![0]
      const n = to(Number(digits))
      if (n === undefined) throw new Error(`prepared statement: no parameter $${digits}`)
      out += `$${n}`
      at += 1 + digits.length
    } else {
      out += c
      at++
    }
  }
  return out
}
