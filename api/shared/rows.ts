// Rows of a raw SQL statement (db.execute), typed by a zod schema: the
// result's shape is untyped across the two drivers (node-postgres and PGlite
// both answer { rows }), and a statement built by hand is checked where it is
// read instead of being cast.
import type { SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'

/** The rows of an executed statement's result, each parsed by `row`. */
export function parseRows<T extends z.ZodType>(result: unknown, row: T): z.infer<T>[] {
  return z.object({ rows: z.array(row) }).parse(result).rows
}

/** Runs `query` and parses its rows with `row`. */
export async function rowsOf<T extends z.ZodType>(
  db: Db,
  query: SQL,
  row: T,
): Promise<z.infer<T>[]> {
  return parseRows(await db.execute(query), row)
}
