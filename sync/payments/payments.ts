// Buying credits in the worker: packages, the active discount, orders (one
// client id per order, kept across retries so a lost answer never makes two
// orders), the transaction page's state, and the credits history. What a
// page shows is stored in kv first (offline it still shows the last copy).
import type { OrderResponse, Transaction } from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { ok, type Result } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { request } from '../core/http.ts'
import { kvPut } from '../store/kv.ts'

export interface PaymentsDeps {
  ctx: SyncContext
  /** The balance the composer shows (kv `credits`). */
  syncCredits(): Promise<unknown>
  /** The user (spec §3 paid_user turns true with the first paid order: no webcam tiles, §6). */
  refreshUser(): Promise<unknown>
}

/** Attempts of one order with the same client id (an answer lost on the way). */
const ORDER_TRIES = 3
const RETRYABLE = new Set([
  'offline',
  'server_error',
  'action_in_progress',
  'payment_provider_unavailable',
])

async function withRetries(
  send: (clientId: string) => Promise<Result<OrderResponse>>,
): Promise<Result<OrderResponse>> {
  const clientId = crypto.randomUUID()
  let res = await send(clientId)
  for (let i = 1; i < ORDER_TRIES && !res.ok && RETRYABLE.has(res.error.code); i++) {
    await new Promise((r) => setTimeout(r, 500 * i))
    res = await send(clientId)
  }
  return res
}

export function paymentsHandlers({ ctx, syncCredits, refreshUser }: PaymentsDeps) {
  const { db } = ctx
  return {
    /** Packages for the member's country, or a guest's (`country`, else geo-IP). */
    async loadPackages(country?: string) {
      const res = await fenced(db, () => request('packages', { query: country ? { country } : {} }))
      if (res.ok) await kvPut(db, 'packages', res.value)
      return res
    },
    /** The active discount (time bonus, else the welcome code) into kv `discount`. */
    async loadDiscount() {
      const res = await fenced(db, () => request('discountCode'))
      if (res.ok) await kvPut(db, 'discount', { discount: res.value.discount, at: ctx.now() })
      return res
    },
    /** A code the member holds (a link's ?code=): its effect, or the 4xx saying why not. */
    discountFor: (code: string) => request('discountCode', { query: { code } }),
    /** The account-deletion offer (settings.delete_discount), or null. */
    deleteOffer: () => request('discountCode', { query: { reason: 'delete' } }),
    placeOrder: (pkg: string, method: string, discountCode?: string) =>
      withRetries((client_id) =>
        request('order', {
          body: {
            package: pkg,
            method: method as 'ideal',
            client_id,
            ...(discountCode ? { discount_code: discountCode } : {}),
          },
        }),
      ),
    repeatOrder: () => withRetries((client_id) => request('repeatOrder', { body: { client_id } })),
    /** The transaction page's state; once paid, the balance is pulled at once. */
    async loadTransaction(id: string): Promise<Result<Transaction>> {
      const res = await request('transaction', { query: { id } })
      if (!res.ok) return res
      await kvPut(db, 'transaction', res.value)
      if (res.value.status === 'paid') await Promise.all([syncCredits(), refreshUser()])
      return ok(res.value)
    },
    async loadCreditHistory() {
      const res = await fenced(db, () => request('creditHistory'))
      if (res.ok) await kvPut(db, 'creditHistory', res.value)
      return res
    },
  }
}

export type PaymentsHandlers = ReturnType<typeof paymentsHandlers>
