// The member's ledger in their data export (api/accounts/export.ts).
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { creditLedger } from '../../db/schema/index.ts'

/** The credit_ledger section of the member's data export, oldest first. */
export async function ledgerExport(db: Db, memberId: number) {
  const ledger = await db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.memberId, memberId))
    .orderBy(asc(creditLedger.id))
  return ledger.map((l) => ({
    delta: l.delta,
    reason: l.reason,
    reference: l.reference,
    balance_after: l.balanceAfter,
    at: l.createdAt.toISOString(),
  }))
}
