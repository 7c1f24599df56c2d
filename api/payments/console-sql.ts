// What the console needs of the payments tables: a member's orders, one
// order, the orders a staff refund may name, and the revenue of the traffic
// report; the credit packages with their prices and the operator's discount
// codes, as the console edits them.
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  creditPackagePrices,
  creditPackages,
  discountCodes,
  orders,
} from '../../db/schema/index.ts'

export type OrderRow = typeof orders.$inferSelect
export type DiscountCodeRow = typeof discountCodes.$inferSelect

/** The member's newest `limit` orders, newest first. */
export const memberOrders = (db: Db, memberId: number, limit: number) =>
  db
    .select()
    .from(orders)
    .where(eq(orders.memberId, memberId))
    .orderBy(desc(orders.id))
    .limit(limit)

/** One order, or undefined. */
export async function orderById(db: Db, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id))
  return row
}

/**
 * Paid orders granted in [start, end) (ISO instants), as a statement to
 * select from: member_id, granted_at, currency, amount. Refunded and
 * charged-back orders are not paid.
 */
export const paidOrdersSql = (start: string, end: string): SQL => sql`
  SELECT o.member_id, o.granted_at, o.currency, o.amount
  FROM orders o
  WHERE o.status = 'paid'
    AND o.granted_at >= ${start}::timestamptz AND o.granted_at < ${end}::timestamptz`

/** Every package, active or not, in the console's order, and every price. */
export const packagesWithPrices = (db: Db) =>
  Promise.all([
    db.select().from(creditPackages).orderBy(asc(creditPackages.position), asc(creditPackages.id)),
    db.select().from(creditPackagePrices),
  ])

/** Creates or replaces package `id` and its prices (currency → amount in minor units). */
export async function putPackage(
  tx: Db,
  id: string,
  row: { credits: number; bonus: number; position: number; featured: boolean; active: boolean },
  prices: Record<string, number>,
): Promise<void> {
  await tx
    .insert(creditPackages)
    .values({ id, ...row })
    .onConflictDoUpdate({ target: creditPackages.id, set: row })
  await tx.delete(creditPackagePrices).where(eq(creditPackagePrices.packageId, id))
  const entries = Object.entries(prices)
  if (entries.length > 0)
    await tx
      .insert(creditPackagePrices)
      .values(entries.map(([currency, amount]) => ({ packageId: id, currency, amount })))
}

/** The operator's codes (not the personal ones the server makes per member), newest first. */
export const operatorCodes = (db: Db) =>
  db
    .select()
    .from(discountCodes)
    .where(isNull(discountCodes.memberId))
    .orderBy(desc(discountCodes.createdAt), asc(discountCodes.code))

/** One code, the operator's or a member's, or undefined. */
export async function discountCode(db: Db, code: string): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code))
  return row
}

/** Creates or changes code `code`. */
export async function putDiscountCode(
  tx: Db,
  code: string,
  row: {
    kind: string
    bonusPercent: number | null
    percentOff: number | null
    endsAt: Date | null
    maxUses: number | null
  },
): Promise<void> {
  await tx
    .insert(discountCodes)
    .values({ code, ...row })
    .onConflictDoUpdate({ target: discountCodes.code, set: row })
}

/** Deletes an operator's code; the code before, or undefined when there is none. */
export async function deleteOperatorCode(
  tx: Db,
  code: string,
): Promise<DiscountCodeRow | undefined> {
  const [old] = await tx
    .delete(discountCodes)
    .where(and(eq(discountCodes.code, code), isNull(discountCodes.memberId)))
    .returning()
  return old
}
