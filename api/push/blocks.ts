// Blocks as push sees them: nothing is pushed between two members when either
// blocked the other, and a blocked member's unread messages and likes do not
// count in the badge (the lists hide them too).
//
// The `blocks` table (blocker_id, blocked_id) arrives with the messages work;
// until that migration has run this module finds no table and blocks nothing,
// so push works on either side of that merge. Migrations run when a database
// is opened, before any push, so the answer is looked up once per handle.
import { type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'

/** The rows of a raw query (db.execute's result is untyped across the two drivers). */
export async function rowsOf<T extends z.ZodType>(
  db: Db,
  query: SQL,
  row: T,
): Promise<z.infer<T>[]> {
  return z.object({ rows: z.array(row) }).parse(await db.execute(query)).rows
}

const hasTable = new WeakMap<Db, Promise<boolean>>()

/** Whether the database has a `blocks` table (once per database handle). */
export function hasBlocksTable(db: Db): Promise<boolean> {
  let known = hasTable.get(db)
  if (!known) {
    known = rowsOf(
      db,
      sql`SELECT to_regclass('blocks') IS NOT NULL AS found`,
      z.object({ found: z.boolean() }),
    ).then((rows) => rows[0]?.found === true)
    hasTable.set(db, known)
    known.catch(() => hasTable.delete(db)) // a failed look-up is tried again next time
  }
  return known
}

export type IsBlocked = (db: Db, a: number, b: number) => Promise<boolean>

/** Whether either member blocked the other. */
export const isBlocked: IsBlocked = async (db, a, b) => {
  if (!(await hasBlocksTable(db))) return false
  const rows = await rowsOf(
    db,
    sql`SELECT EXISTS (
      SELECT 1 FROM blocks
      WHERE (blocker_id = ${a} AND blocked_id = ${b}) OR (blocker_id = ${b} AND blocked_id = ${a})
    ) AS blocked`,
    z.object({ blocked: z.boolean() }),
  )
  return rows[0]?.blocked === true
}

/**
 * An SQL condition true when `other` (a column of the caller's query) and
 * `member` have no block between them; plain TRUE without a blocks table.
 */
export async function notBlockedSql(db: Db, member: number, other: SQL): Promise<SQL> {
  if (!(await hasBlocksTable(db))) return sql`TRUE`
  return sql`NOT EXISTS (
    SELECT 1 FROM blocks b
    WHERE (b.blocker_id = ${member} AND b.blocked_id = ${other})
       OR (b.blocker_id = ${other} AND b.blocked_id = ${member}))`
}
