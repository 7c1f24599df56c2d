// A member's ledger rows as they read them (the credit history of /credits):
// newest first. The ledger is this domain's (docs/architecture.md "Domains
// are boundaries"); payments adds the orders behind the purchases.
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { creditLedger } from '../../db/schema/index.ts'

export type LedgerRow = typeof creditLedger.$inferSelect

/** The member's newest `limit` ledger rows, newest first. */
export function ledgerRows(db: Db, memberId: number, limit: number): Promise<LedgerRow[]> {
  return db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.memberId, memberId))
    .orderBy(desc(creditLedger.id))
    .limit(limit)
}
