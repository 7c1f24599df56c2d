// What the console's traffic report needs of the credit ledger: every
// member's first purchase (a member's newest rows are ledgerRows of history.ts).
import { type SQL, sql } from 'drizzle-orm'

/** Each member's first purchase (member_id, at), as a statement to select from. */
export const firstPurchasesSql = (): SQL => sql`
  SELECT member_id, min(created_at) AS at
  FROM credit_ledger
  WHERE reason = 'purchase'
  GROUP BY member_id`
