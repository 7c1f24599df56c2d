// The prepared statements' parameters: one per placeholder name, whatever
// the number of places that name it.
import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { sharedParameters } from './prepared.ts'

const dialect = new PgDialect()
const p = (name: string) => sql.placeholder(name)

describe('sharedParameters', () => {
  it('sends a placeholder named in several places once, numbered by its first place', () => {
    const q = sharedParameters(
      dialect.sqlToQuery(
        sql`SELECT ${p('a')}::int, ${p('b')}, ${p('a')}::int, ${p('b')} || ${p('c')}`,
      ),
    )
    expect(q.sql).toBe('SELECT $1::int, $2, $1::int, $2 || $3')
    expect(q.params.map((x) => (x as { name: string }).name)).toEqual(['a', 'b', 'c'])
  })

  it('keeps each inline value a parameter of its own', () => {
    const q = sharedParameters(dialect.sqlToQuery(sql`SELECT ${p('a')}, ${5}, ${p('a')}, ${5}`))
    expect(q.sql).toBe('SELECT $1, $2, $1, $3')
    expect(q.params.slice(1)).toEqual([5, 5])
  })

  it('leaves $n alone inside literals, quoted names and comments', () => {
    const q = sharedParameters(
      dialect.sqlToQuery(
        sql`SELECT ${p('b')}, ${p('a')}, 'cost $1 it''s $2', "col$1" -- was $2
        , /* $1 */ ${p('a')}`,
      ),
    )
    expect(q.sql).toBe(`SELECT $1, $2, 'cost $1 it''s $2', "col$1" -- was $2
        , /* $1 */ $2`)
  })
})
