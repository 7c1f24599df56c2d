import {
  type CreditValue,
  creditsMoney,
  creditValue,
  messageMoney,
  type PricedPackage,
} from '../../../api/contract/rules/credit-value.ts'
import { getLocale } from '../../../messages/paraglide/runtime.js'
import { formatMoney } from '../../ui/format.ts'

/** Minor units as the member reads money in their language ("€19.95", "89,99 zł"). */
export const money = (minor: number, currency: string) => formatMoney(minor / 100, currency)

/** A countdown: "23:59:59", with the days before it in the member's language ("6 d"). */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const days = Math.floor(s / 86_400)
  const hms = [Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60), s % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':')
  if (days === 0) return hms
  const d = new Intl.NumberFormat(getLocale(), { style: 'unit', unit: 'day', unitDisplay: 'short' })
  return `${d.format(days)} ${hms}`
}

/**
 * The money of one message at a value of a credit, as the member reads it:
 * the one rule (api/contract/rules/credit-value.ts), rounded down to the
 * cent. Every page that shows a message's money shows this.
 */
export const messageMoneyText = (value: CreditValue, messageCost: number) =>
  money(messageMoney(value, messageCost), value.currency)

/** The best value on offer in a packages answer (a guest's, a "from" price), or null. */
export const bestValue = (packages: {
  currency: string
  packages: readonly PricedPackage[]
}): CreditValue | null => creditValue(null, packages.packages, packages.currency)

/** The money of `credits` credits at a value of a credit (the one rule), as the member reads it. */
export const creditsMoneyText = (value: CreditValue, credits: number) =>
  money(creditsMoney(value, credits), value.currency)

/**
 * The price of one credit, to a tenth of a cent (four places of a euro:
 * "€0.0995"), never rounded up: packages are compared by it on /credits.
 */
export function perCreditText(value: CreditValue): string {
  // Minor units × 100 ÷ credits, in integers: ten-thousandths of the currency.
  const tenths = value.credits > 0 ? Math.floor((value.amount * 100) / value.credits) / 10_000 : 0
  return new Intl.NumberFormat(getLocale(), {
    style: 'currency',
    currency: value.currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(tenths)
}

/**
 * Where a member who lacks credits buys them: /credits with what is missing,
 * so the cheapest package that covers it is offered first.
 */
export function buyCreditsHref(price: number | undefined, balance: number | undefined): string {
  if (price === undefined || balance === undefined || price <= balance) return '/credits'
  return `/credits?need=${price - balance}`
}
