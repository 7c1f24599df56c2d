// The packages on sale in a currency, with the price of one message at each
// (spec §2 /credits, /pricing, /premium): read from the operator's tables.
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { creditPackagePrices, creditPackages } from '../../db/schema/index.ts'
import type { Package, PackagesResponse } from '../contract/index.ts'
import { currencyOf, methodsFor, pricePerMessage } from '../contract/rules/payments.ts'
import { messageCost } from '../credits/index.ts'
import { memberFields } from '../shared/members.ts'

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
    message_price: pricePerMessage(p.price, p.credits + p.bonus, cost),
    featured: p.featured,
  }))
  return { country, currency, message_cost: cost, packages, methods: methodsFor(country) }
}

/** A member's country (their prices and methods), or undefined. */
export async function memberCountry(db: Db, memberId: number) {
  const me = await memberFields(db, memberId, ['country'])
  return me?.country
}
