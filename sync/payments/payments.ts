// Buying credits in the worker: packages, the active discount, orders (one
// client id per order, kept across retries so a lost answer never makes two
// orders), the transaction page's state, and the credits history. What a
// page shows is stored in kv first (offline it still shows the last copy).
import type { OrderResponse, Transaction } from '../../api/contract/index.ts'
import { isDiscountGone } from '../../api/contract/rules/index.ts'
import type { SyncContext } from '../core/context.ts'
import { ok, type Result } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { request } from '../core/http.ts'
import { kvPut, kvStore } from '../store/kv.ts'

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
  const loadDiscount = () =>
    fenced(
      db,
      () => request('discountCode'),
      async (answer) => {
        await kvPut(db, 'discount', { discount: answer.discount, at: ctx.now() })
        return answer
      },
    )
  return {
    /** Packages for the member's country, or a guest's (`country`, else geo-IP). */
    async loadPackages(country?: string) {
      const query = country ? { country } : {}
      return fenced(db, () => request('packages', { query }), kvStore(db, 'packages'))
    },
    /** The active discount (time bonus, else the welcome code) into kv `discount`. */
    loadDiscount,
    /** A code the member holds (a link's ?code=): its effect, or the 4xx saying why not. */
    discountFor: (code: string) => request('discountCode', { query: { code } }),
    /** The account-deletion offer (settings.delete_discount), or null. */
    deleteOffer: () => request('discountCode', { query: { reason: 'delete' } }),
    /**
     * A new order. When its discount no longer applies, nothing is ordered
     * (the member never pays another price than the one shown): the stored
     * discount is asked again, so the page shows the price as it is now,
     * and the error goes back for the page to say so. Called only from the
     * checkout forms, which submit only with the consent box ticked (a
     * required checkbox: CRD Art. 16(m)), hence `withdrawal_consent`.
     */
    async placeOrder(pkg: string, method: string, discountCode?: string) {
      const res = await withRetries((client_id) =>
        request('order', {
          body: {
            package: pkg,
            method: method as 'ideal',
            client_id,
            withdrawal_consent: true,
            ...(discountCode ? { discount_code: discountCode } : {}),
          },
        }),
      )
      if (!res.ok && isDiscountGone(res.error.code)) await loadDiscount()
      return res
    },
    repeatOrder: () =>
      withRetries((client_id) =>
        request('repeatOrder', { body: { client_id, withdrawal_consent: true } }),
      ),
    /** The transaction page's state; once paid, the balance is pulled at once. */
    async loadTransaction(id: string): Promise<Result<Transaction>> {
      const res = await request('transaction', { query: { id } })
      if (!res.ok) return res
      // Paid: the balance, the member's paid flag, and the discount (the
      // welcome code is spent with the first purchase) change with it. They
      // are pulled before the page is told it is paid: a member who buys
      // again at once is never shown the spent welcome price.
      if (res.value.status === 'paid')
        await Promise.all([syncCredits(), refreshUser(), loadDiscount()])
      await kvPut(db, 'transaction', res.value)
      return ok(res.value)
    },
    async loadCreditHistory() {
      return fenced(db, () => request('creditHistory'), kvStore(db, 'creditHistory'))
    },
  }
}

export type PaymentsHandlers = ReturnType<typeof paymentsHandlers>
