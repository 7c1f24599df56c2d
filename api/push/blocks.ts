// Blocks as push sees them (the block semantics are api/blocks/blocks.ts's: a
// block works both ways). Nothing is pushed between two members when either
// blocked the other, and a blocked member's unread messages and likes do not
// count in the badge.
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { blockedBetween, blockedBetweenSql } from '../blocks/index.ts'

export type IsBlocked = (db: Db, a: number, b: number) => Promise<boolean>

/** Whether either member blocked the other: the messages' own rule. */
export const isBlocked: IsBlocked = blockedBetween

/** An SQL condition: no block either way between `member` and `other` (a column of the caller's query). */
export function notBlockedSql(member: number, other: SQL): SQL {
  return sql`NOT ${blockedBetweenSql(sql`${member}`, other)}`
}
