// The member's orders in their data export (api/accounts/export.ts).
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { orders } from '../../db/schema/index.ts'

/** The orders section of the member's data export, oldest first. */
export async function ordersExport(db: Db, memberId: number) {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.memberId, memberId))
    .orderBy(asc(orders.id))
  return rows.map((o) => ({
    id: o.publicId,
    status: o.status,
    package: o.packageId,
    method: o.method,
    currency: o.currency,
    amount_minor: o.amount,
    credits: o.credits,
    credits_taken_back: o.reversedCredits,
    discount_code: o.discountCode,
    created_at: o.createdAt.toISOString(),
  }))
}
