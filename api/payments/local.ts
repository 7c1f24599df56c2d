// The built-in local provider: used when no MOLLIE_API_KEY is set, so
// `npm start` runs the whole payment flow offline. It keeps its payments in
// its own table, serves its own checkout page (api/payments/checkout.ts) and,
// when a button there settles a payment, posts `id=tr_…` to the webhook the
// way Mollie does; the orders code then fetches the payment from here like
// from Mollie. Mandates: a paid "first" payment of a customer is its mandate.
import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { localPayments } from '../../db/schema/index.ts'
import {
  type CreatedPayment,
  type CreatePayment,
  PaymentNotFound,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderStatus,
} from './provider.ts'

/** Posts the webhook form (`id=…`) to a URL; by default through the app's own request handling. */
export type Deliver = (webhookUrl: string, paymentId: string) => Promise<void>

const token = (n: number) =>
  randomBytes(n).toString('base64url').replace(/[-_]/g, '').slice(0, n) || 'x'

export const CHECKOUT_PATH = '/api/payments/checkout.php'

export interface LocalProvider extends PaymentProvider {
  /** The checkout's buttons: settle an open payment and tell the webhook. False when it was not open. */
  settle(id: string, status: 'paid' | 'failed' | 'canceled'): Promise<boolean>
  /** A refund or chargeback (tests, developer use): then the webhook, as Mollie does. */
  reverse(id: string, kind: 'refund' | 'chargeback', minor: number): Promise<void>
  find(id: string): Promise<typeof localPayments.$inferSelect | undefined>
  /** Where the webhook goes; set once the app exists (createApi). */
  deliverWith(deliver: Deliver): void
}

/** The local table's row of a payment, as the provider answers it. */
const paymentOf = (row: typeof localPayments.$inferSelect): ProviderPayment => ({
  id: row.id,
  status: row.status as ProviderStatus,
  amount: row.amount,
  currency: row.currency,
  orderId: row.orderId,
  refunded: row.refunded,
  chargedBack: row.chargedBack,
})

/** Stores a new payment and returns its row with the checkout's address (none for a recurring one). */
async function insertPayment(db: Db, input: CreatePayment) {
  const id = `tr_${token(16)}`
  // Recurring on a mandate: charged at once, no checkout; the webhook follows.
  const recurring = input.sequenceType === 'recurring'
  const status: ProviderStatus = recurring ? 'paid' : 'open'
  const row = {
    id,
    status,
    currency: input.currency,
    amount: input.amount,
    description: input.description,
    method: input.method,
    redirectUrl: input.redirectUrl,
    webhookUrl: input.webhookUrl,
    customerId: input.customerId ?? null,
    sequenceType: input.sequenceType,
    orderId: input.orderId,
  }
  await db.insert(localPayments).values(row)
  const checkoutUrl = recurring
    ? null
    : `${new URL(input.webhookUrl).origin}${CHECKOUT_PATH}?id=${id}`
  return { row, recurring, checkoutUrl }
}

/** The mandate of a customer: their paid "first" payment, or null. */
async function mandateOf(db: Db, customerId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: localPayments.id })
    .from(localPayments)
    .where(
      and(
        eq(localPayments.customerId, customerId),
        eq(localPayments.sequenceType, 'first'),
        eq(localPayments.status, 'paid'),
      ),
    )
    .limit(1)
  return row ? `mdt_${row.id.slice(3)}` : null
}

/** Sets an open payment's final status; returns its row, or undefined when it was not open. */
async function settleOpen(db: Db, id: string, status: 'paid' | 'failed' | 'canceled') {
  const [row] = await db
    .update(localPayments)
    .set({ status })
    .where(and(eq(localPayments.id, id), eq(localPayments.status, 'open')))
    .returning()
  return row
}

/** Adds a refund or chargeback to a paid payment (at most its amount); returns its row, if paid. */
async function addReversal(db: Db, id: string, kind: 'refund' | 'chargeback', minor: number) {
  const column = kind === 'refund' ? localPayments.refunded : localPayments.chargedBack
  const [row] = await db
    .update(localPayments)
    .set(
      kind === 'refund'
        ? { refunded: sql`least(${column} + ${minor}, ${localPayments.amount})` }
        : { chargedBack: sql`least(${column} + ${minor}, ${localPayments.amount})` },
    )
    .where(and(eq(localPayments.id, id), eq(localPayments.status, 'paid')))
    .returning()
  return row
}

export function localProvider(db: Db): LocalProvider {
  let deliver: Deliver = async () => undefined
  const tell = (row: { webhookUrl: string | null; id: string }) =>
    row.webhookUrl
      ? deliver(row.webhookUrl, row.id).catch((e: unknown) =>
          // The reconcile job asks again later: a lost webhook costs a delay only.
          console.error('local provider: webhook delivery failed', e),
        )
      : Promise.resolve()

  const provider: LocalProvider = {
    name: 'local',
    deliverWith(d) {
      deliver = d
    },
    async createPayment(input: CreatePayment): Promise<CreatedPayment> {
      const { row, recurring, checkoutUrl } = await insertPayment(db, input)
      if (recurring) setTimeout(() => void tell(row), 0)
      return { id: row.id, status: row.status, checkoutUrl }
    },
    async getPayment(id: string): Promise<ProviderPayment> {
      const row = await provider.find(id)
      if (!row) throw new PaymentNotFound(id)
      return paymentOf(row)
    },
    async createCustomer() {
      return `cst_${token(10)}`
    },
    async validMandate(customerId: string) {
      return mandateOf(db, customerId)
    },
    async refund(paymentId, amountMinor) {
      const row = await provider.find(paymentId)
      if (!row) throw new PaymentNotFound(paymentId)
      if (row.status !== 'paid' || row.refunded + row.chargedBack + amountMinor > row.amount)
        throw new Error(`local provider: cannot refund ${amountMinor} of ${paymentId}`)
      await provider.reverse(paymentId, 'refund', amountMinor)
      return { id: `re_${token(10)}` }
    },
    async find(id: string) {
      const [row] = await db.select().from(localPayments).where(eq(localPayments.id, id))
      return row
    },
    async settle(id, status) {
      const row = await settleOpen(db, id, status)
      if (!row) return false
      await tell(row)
      return true
    },
    async reverse(id, kind, minor) {
      const row = await addReversal(db, id, kind, minor)
      if (row) await tell(row)
    },
  }
  return provider
}
