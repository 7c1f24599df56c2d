// After a benchmark's sends: whether every send it counted as done was
// stored once, debited once and claimed once, and every balance is what the
// ledger says (so a rate counts only sends that really happened).
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'

/**
 * The messages, their ledger debits and the claimed client ids against
 * `sent` (the sends the benchmark saw succeed), and the credits the members
 * hold against the ledger's sum; one line to print, ending in (MISMATCH)
 * when any differs.
 */
export async function moneyCheck(db: Db, sent: number): Promise<string> {
  const { rows } = (await db.execute(sql`SELECT
      (SELECT count(*) FROM messages)::int AS messages,
      (SELECT count(*) FROM credit_ledger WHERE reason = 'message')::int AS debits,
      (SELECT count(*) FROM member_actions)::int AS claims,
      (SELECT coalesce(-sum(delta), 0) FROM credit_ledger WHERE reason = 'message')::bigint AS debited,
      (SELECT coalesce(sum(delta), 0) FROM credit_ledger)::bigint - (SELECT sum(credits) FROM members)::bigint AS unaccounted`)) as unknown as {
    rows: {
      messages: number
      debits: number
      claims: number
      debited: string
      unaccounted: string
    }[]
  }
  const r = rows[0]!
  const balanced = Number(r.unaccounted) === 0
  const ok = r.messages === sent && r.debits === sent && r.claims === sent && balanced
  return `check: ${sent} sent, ${r.messages} messages, ${r.debits} ledger debits (${r.debited} credits), ${r.claims} client ids, balances ${balanced ? 'equal to the ledger' : `off the ledger by ${r.unaccounted}`}${ok ? '' : ' (MISMATCH)'}`
}
