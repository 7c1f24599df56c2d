// Buying credits: the rules both ends apply (zod-free so pages may use them).

export const CURRENCIES = ['EUR', 'GBP', 'PLN', 'USD', 'CAD', 'AUD', 'NZD'] as const
export type Currency = (typeof CURRENCIES)[number]

/** The currency a member of a site country pays in; EUR for any other country. */
export function currencyOf(country: string): Currency {
  switch (country) {
    case 'GB':
      return 'GBP'
    case 'PL':
      return 'PLN'
    case 'US':
      return 'USD'
    case 'CA':
      return 'CAD'
    case 'AU':
      return 'AUD'
    case 'NZ':
      return 'NZD'
    default:
      return 'EUR'
  }
}

/** Mollie's method ids: the ones a Dutch company offers across the site countries. */
export const PAYMENT_METHODS = [
  'ideal',
  'bancontact',
  'blik',
  'przelewy24',
  'creditcard',
  'paypal',
  'banktransfer',
] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/**
 * The methods that fit a country, the local favourite first: iDEAL in the
 * Netherlands, Bancontact in Belgium, BLIK and Przelewy24 in Poland, cards
 * and PayPal everywhere, SEPA bank transfer where the currency is the euro.
 */
export function methodsFor(country: string): PaymentMethod[] {
  const local: PaymentMethod[] =
    country === 'NL'
      ? ['ideal']
      : country === 'BE'
        ? ['bancontact']
        : country === 'PL'
          ? ['blik', 'przelewy24']
          : []
  const sepa: PaymentMethod[] = currencyOf(country) === 'EUR' ? ['banktransfer'] : []
  return [...local, 'creditcard', 'paypal', ...sepa]
}

/** Methods that can start a mandate (Mollie sequenceType "first") for repeat orders. */
export const MANDATE_METHODS: readonly PaymentMethod[] = [
  'ideal',
  'bancontact',
  'creditcard',
  'paypal',
]

/** Transaction states a member sees; the last five are final. */
export const TRANSACTION_STATUSES = [
  'pending',
  'paid',
  'failed',
  'canceled',
  'expired',
  'refunded',
  'charged_back',
] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]
export const isFinalStatus = (s: TransactionStatus) => s !== 'pending'

/** Credits a bonus percentage adds (rounded down: never more than promised). */
export const bonusCredits = (credits: number, percent: number) =>
  Math.floor((credits * percent) / 100)

/** A price after percent off, in minor units (rounded to the cent, at least 1). */
export const discounted = (amount: number, percentOff: number) =>
  Math.max(1, Math.round((amount * (100 - percentOff)) / 100))

/** A welcome code lasts this long after sign-up (spec §3: the welcome discount). */
export const WELCOME_DAYS = 7
/** How often an open transaction page asks again until the state is final. */
export const TRANSACTION_POLL_MS = 2_000

/**
 * The error codes of an order whose discount code no longer applies (the
 * server's `checkCode`: unknown, not the member's — the welcome code after a
 * first purchase —, ended, used up). Nothing was ordered: the member never
 * pays another price than the one the page showed.
 */
export const DISCOUNT_GONE_ERRORS = [
  'discount_not_found',
  'discount_not_for_you',
  'discount_expired',
  'discount_used_up',
] as const

export const isDiscountGone = (code: string): boolean =>
  (DISCOUNT_GONE_ERRORS as readonly string[]).includes(code)

/** The withdrawal period of a purchase (CRD Art. 9): 14 days from payment. */
export const WITHDRAWAL_DAYS = 14
export const WITHDRAWAL_PERIOD_MS = WITHDRAWAL_DAYS * 24 * 60 * 60_000

/**
 * What a withdrawal refunds of a purchase, minor units: with the checkout's
 * consent (CRD Art. 16(m)) only the share of the unused credits, rounded
 * down; without it (orders from before the box) the whole price.
 */
export const withdrawalRefund = (
  amount: number,
  credits: number,
  unused: number,
  consented: boolean,
): number => (!consented ? amount : credits > 0 ? Math.floor((amount * unused) / credits) : 0)
