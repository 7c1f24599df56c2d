// The packages on sale in a currency, with the price of one message at each
// (spec §2 /credits, /pricing, /premium): read from the operator's tables.
import { and, asc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { creditPackagePrices, creditPackages, orders } from '../../db/schema/index.ts'
import type { Package, PackagesResponse } from '../contract/index.ts'
import { type CreditValue, creditValue, messageMoney } from '../contract/rules/credit-value.ts'
import { currencyOf, methodsFor } from '../contract/rules/payments.ts'
import { messageCost } from '../credits/index.ts'
import { memberFields } from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'

export interface PackageRow {
  id: string
  credits: number
  bonus: number
  featured: boolean
  price: number
}

/** Active packages priced in `currency`, cheapest first (the operator's order). */
export async function packagesIn(db: Db, currency: string): Promise<PackageRow[]> {
  return db
    .select({
      id: creditPackages.id,
      credits: creditPackages.credits,
      bonus: creditPackages.bonus,
      featured: creditPackages.featured,
      price: creditPackagePrices.amount,
    })
    .from(creditPackages)
    .innerJoin(
      creditPackagePrices,
      and(
        eq(creditPackagePrices.packageId, creditPackages.id),
        eq(creditPackagePrices.currency, currency),
      ),
    )
    .where(eq(creditPackages.active, true))
    .orderBy(asc(creditPackages.position), asc(creditPackages.id))
}

export async function packageIn(db: Db, id: string, currency: string) {
  return (await packagesIn(db, currency)).find((p) => p.id === id)
}

/** GET /api/packages.php for a country. */
export async function packagesFor(db: Db, country: string): Promise<PackagesResponse> {
  const currency = currencyOf(country)
  const [rows, cost] = await Promise.all([packagesIn(db, currency), messageCost(db)])
  const packages: Package[] = rows.map((p) => ({
    id: p.id,
    credits: p.credits,
    bonus: p.bonus,
    price: p.price,
    message_price: messageMoney({ amount: p.price, credits: p.credits + p.bonus }, cost),
    featured: p.featured,
  }))
  return { country, currency, message_cost: cost, packages, methods: methodsFor(country) }
}

/** A member's country (their prices and methods), or undefined. */
export async function memberCountry(db: Db, memberId: number) {
  const me = await memberFields(db, memberId, ['country'])
  return me?.country
}

const ValueRow = z.object({
  kind: z.enum(['order', 'package']),
  amount: z.coerce.number(),
  credits: z.coerce.number(),
  bonus: z.coerce.number(),
  currency: z.string(),
})

/**
 * A member's value of a credit (api/contract/rules/credit-value.ts): their
 * last paid order's price and credits (bonus included), else the best
 * package on offer in `currency`. One statement: the last paid order and the
 * packages in the currency together, the rule choosing between them.
 */
export async function creditValueOf(
  db: Db,
  memberId: number,
  currency: string,
): Promise<CreditValue | null> {
  const rows = await rowsOf(
    db,
    sql`(SELECT 'order' AS kind, ${orders.amount} AS amount, ${orders.credits} AS credits,
          0 AS bonus, ${orders.currency} AS currency
        FROM ${orders}
        WHERE ${orders.memberId} = ${memberId} AND ${orders.status} = 'paid'
        ORDER BY ${orders.id} DESC LIMIT 1)
      UNION ALL
      (SELECT 'package', ${creditPackagePrices.amount}, ${creditPackages.credits},
          ${creditPackages.bonus}, ${creditPackagePrices.currency}
        FROM ${creditPackages}
        JOIN ${creditPackagePrices} ON ${creditPackagePrices.packageId} = ${creditPackages.id}
          AND ${creditPackagePrices.currency} = ${currency}
        WHERE ${creditPackages.active})`,
    ValueRow,
  )
  const last = rows.find((r) => r.kind === 'order')
  return creditValue(
    last ? { amount: last.amount, credits: last.credits, currency: last.currency } : null,
    rows
      .filter((r) => r.kind === 'package')
      .map((r) => ({ price: r.amount, credits: r.credits, bonus: r.bonus })),
    currency,
  )
}
