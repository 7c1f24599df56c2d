// Blocks as push sees them (the block semantics are api/blocks/blocks.ts's: a
// block works both ways). Nothing is pushed between two members when either
// blocked the other, and a blocked member's unread messages and likes do not
// count in the badge.
import type { Db } from '../../db/client.ts'
import { blockedBetween } from '../blocks/index.ts'

export type IsBlocked = (db: Db, a: number, b: number) => Promise<boolean>

/** Whether either member blocked the other: the messages' own rule. */
export const isBlocked: IsBlocked = blockedBetween
