// What the console's traffic report needs of the credit ledger: every
// member's first purchase and the credits spent on each paid action (a
// member's newest rows are ledgerRows of history.ts).
import { type SQL, sql } from 'drizzle-orm'
import { SPEND_REASONS } from './ledger.ts'

/** Each member's first purchase (member_id, at), as a statement to select from. */
export const firstPurchasesSql = (): SQL => sql`
  SELECT member_id, min(created_at) AS at
  FROM credit_ledger
  WHERE reason = 'purchase'
  GROUP BY member_id`

/**
 * Every spend of credits on a paid action in [start, end): (member_id, at,
 * action, credits), as a statement to select from. The actions are the
 * ledger's spend kinds (message, photo, voice, unlock, gift).
 */
export const spendsSql = (start: string, end: string): SQL => sql`
  SELECT member_id, created_at AS at, reason AS action, -delta AS credits
  FROM credit_ledger
  WHERE reason IN (${sql.join(
    SPEND_REASONS.map((r) => sql`${r}`),
    sql`, `,
  )})
    AND created_at >= ${start}::timestamptz AND created_at < ${end}::timestamptz`
