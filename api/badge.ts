// Spec §4 install badge from the database: unread messages of the member's
// chats, new likes and new visits, each counted by the domain that owns it
// (chats, likes, presence), summed in one statement by the rule the app
// applies to its synced lists (api/contract/rules/badge.ts). It lives with
// the wiring because it is the one place that may know all three; push,
// which those domains import, gets it handed in (api/app.ts, api/start.ts).
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { unreadChatsCountSql } from './chats/index.ts'
import { badgeCount } from './contract/rules/badge.ts'
import { newLikesCountSql } from './likes/index.ts'
import { newVisitsCountSql } from './presence/index.ts'
import type { BadgeOf } from './push/index.ts'
import { rowsOf } from './shared/rows.ts'

const BadgeCounts = z.object({ unread: z.number(), new_likes: z.number(), visits: z.number() })

/** The member's badge: one round trip. */
export const badgeOf: BadgeOf = async (db, memberId) => {
  const [row] = await rowsOf(
    db,
    sql`SELECT ${unreadChatsCountSql(memberId)} AS unread,
      ${newLikesCountSql(memberId)} AS new_likes,
      ${newVisitsCountSql(memberId)} AS visits`,
    BadgeCounts,
  )
  return badgeCount(row?.unread ?? 0, row?.new_likes ?? 0, row?.visits ?? 0)
}
