// The Mollie adapter, through Mollie's official SDK. Amounts go as Mollie's
// strings ("19.95"); the order's public id is the payment's metadata and the
// idempotency key of the create call (the SDK retries 5xx answers with it).
// `apiEndpoint` points the SDK elsewhere (the tests' local fake of Mollie).
// The named export: under Node's own module loader (npm start) the package's
// default import is its module namespace object, not the function, and the
// start crashed with "createMollieClient is not a function"; Vite's loader in
// the tests hid that. e2e/production-start.e2e.ts runs the real entry.
import {
  createMollieClient,
  MollieApiError,
  type MollieClient,
  type PaymentCreateParams,
} from '@mollie/api-client'
import {
  type CreatedPayment,
  type CreatePayment,
  fromValue,
  PaymentNotFound,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderStatus,
  toValue,
} from './provider.ts'

export interface MollieOptions {
  apiKey: string
  apiEndpoint?: string
}

export function mollieProvider(options: MollieOptions): PaymentProvider {
  const client: MollieClient = createMollieClient({
    apiKey: options.apiKey,
    ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
  })
  return {
    name: 'mollie',
    async createPayment(input: CreatePayment): Promise<CreatedPayment> {
      const params = {
        amount: { currency: input.currency, value: toValue(input.amount) },
        description: input.description,
        redirectUrl: input.redirectUrl,
        webhookUrl: input.webhookUrl,
        method: input.method,
        metadata: { order: input.orderId },
        sequenceType: input.sequenceType,
        ...(input.customerId ? { customerId: input.customerId } : {}),
        ...(input.mandateId ? { mandateId: input.mandateId } : {}),
        idempotencyKey: input.orderId,
      } as PaymentCreateParams
      const payment = await client.payments.create(params)
      return {
        id: payment.id,
        status: payment.status as ProviderStatus,
        checkoutUrl: payment.getCheckoutUrl(),
      }
    },
    async getPayment(id: string): Promise<ProviderPayment> {
      try {
        const p = await client.payments.get(id)
        const metadata = p.metadata as { order?: unknown } | null
        return {
          id: p.id,
          status: p.status as ProviderStatus,
          amount: fromValue(p.amount.value),
          currency: p.amount.currency,
          orderId: typeof metadata?.order === 'string' ? metadata.order : null,
          refunded: fromValue(p.amountRefunded?.value),
          chargedBack: fromValue(p.amountChargedBack?.value),
        }
      } catch (e) {
        if (e instanceof MollieApiError && e.statusCode === 404) throw new PaymentNotFound(id)
        throw e
      }
    },
    async createCustomer(input) {
      const customer = await client.customers.create({ name: input.name, email: input.email })
      return customer.id
    },
    async validMandate(customerId: string) {
      const page = await client.customerMandates.page({ customerId })
      const valid = page.find((m) => String(m.status) === 'valid')
      return valid?.id ?? null
    },
    async refund(paymentId, amountMinor, description) {
      // Mollie wants the refund in the payment's own currency.
      const payment = await client.payments.get(paymentId)
      const refund = await client.paymentRefunds.create({
        paymentId,
        amount: { currency: payment.amount.currency, value: toValue(amountMinor) },
        description,
      })
      return { id: refund.id }
    },
  }
}
