// The payment provider behind the orders: Mollie (api/payments/mollie.ts) when
// MOLLIE_API_KEY is set; the built-in test provider (api/payments/local.ts),
// with which no money moves, only when asked for (PAYMENTS=test, or a demo
// start); else none, and buying is unavailable (api/config.ts
// loadPaymentsConfig). The orders code speaks only this interface; amounts
// are minor units here and converted to the provider's own form inside each
// adapter.

/** Mollie's payment states; the local provider uses the same words. */
export type ProviderStatus =
  | 'open'
  | 'pending'
  | 'authorized'
  | 'paid'
  | 'canceled'
  | 'expired'
  | 'failed'

export type SequenceType = 'oneoff' | 'first' | 'recurring'

export interface CreatePayment {
  /** Minor units of `currency`. */
  amount: number
  currency: string
  description: string
  method: string
  /** Where the member comes back to (the transaction page). */
  redirectUrl: string
  webhookUrl: string
  /** Our order's public id: metadata, and the idempotency key of the create call. */
  orderId: string
  sequenceType: SequenceType
  customerId?: string
  mandateId?: string
}

export interface CreatedPayment {
  id: string
  status: ProviderStatus
  /** Null for a recurring payment charged on a mandate (no checkout). */
  checkoutUrl: string | null
}

export interface ProviderPayment {
  id: string
  status: ProviderStatus
  amount: number
  currency: string
  /** Our order's public id, from the payment's metadata. */
  orderId: string | null
  /** Minor units refunded and charged back so far. */
  refunded: number
  chargedBack: number
}

export interface PaymentProvider {
  readonly name: 'mollie' | 'local' | 'none'
  createPayment(input: CreatePayment): Promise<CreatedPayment>
  getPayment(id: string): Promise<ProviderPayment>
  createCustomer(input: { name: string; email: string }): Promise<string>
  /** A valid mandate of the customer, or null. */
  validMandate(customerId: string): Promise<string | null>
  /**
   * Refunds `amountMinor` of a paid payment (the console's refunds); the
   * provider's refund id. The payment's `refunded` grows by it, and the
   * webhook follows as for any change; settle takes the credits back.
   */
  refund(paymentId: string, amountMinor: number, description: string): Promise<{ id: string }>
}

/** The provider knows no payment of this id (a forged or stale webhook): nothing to do. */
export class PaymentNotFound extends Error {}

/** The provider could not be reached or refused the call: the order answers 503, nothing granted. */
export class ProviderUnavailable extends Error {}

/** Minor units as Mollie's amount value ("19.95"); every site currency has 2 decimals. */
export const toValue = (minor: number) => (minor / 100).toFixed(2)
export const fromValue = (value: string | undefined) =>
  value === undefined ? 0 : Math.round(Number.parseFloat(value) * 100)

/**
 * No provider configured (a production start without MOLLIE_API_KEY): buying
 * is unavailable. Orders are refused before anything is stored
 * (api/payments/routes.ts); every call here fails like an unreachable
 * provider, so a webhook or a console refund answers 503 and changes nothing.
 */
export function unavailableProvider(): PaymentProvider {
  const fail = async (): Promise<never> => {
    throw new ProviderUnavailable('no payment provider is configured')
  }
  return {
    name: 'none',
    createPayment: fail,
    getPayment: fail,
    createCustomer: fail,
    validMandate: fail,
    refund: fail,
  }
}
