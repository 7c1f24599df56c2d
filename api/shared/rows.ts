// Rows of a raw SQL statement (db.execute), typed by a zod schema: the
// result's shape is untyped across the two drivers (node-postgres and PGlite
// both answer { rows }), and a statement built by hand is checked where it is
// read instead of being cast.
import type { SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'

/** A driver's answer: its rows, each checked by the caller's schema. */
const Result = z.object({ rows: z.array(z.unknown()) })

/**
 * The rows of an executed statement's result, each parsed by `row`. The
 * envelope's schema is built once: zod compiles an object schema's parser
 * on its first use, so a schema made per call (z.object({ rows: ... }) here,
 * as it was) paid that compilation on every statement of every request
 * (half a millisecond of a send's, bench/RESULTS.md). Row schemas belong at
 * module level for the same reason.
 */
export function parseRows<T extends z.ZodType>(result: unknown, row: T): z.infer<T>[] {
  return Result.parse(result).rows.map((r) => row.parse(r))
}

/** Runs `query` and parses its rows with `row`. */
export async function rowsOf<T extends z.ZodType>(
  db: Db,
  query: SQL,
  row: T,
): Promise<z.infer<T>[]> {
  return parseRows(await db.execute(query), row)
}
