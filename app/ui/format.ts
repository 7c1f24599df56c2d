import { getLocale } from '../../messages/paraglide/runtime.js'

// Dates, times, numbers and money in the member's language (spec §4 locale:
// cookie, then browser language, then en). Every screen formats through
// here, so nothing is written by hand or in a fixed locale. Texts that hold a
// count format it themselves (`local n = count: number` in messages/*.json).

type When = Date | string | number

/**
 * The locale dates and times are written in: the app's language, with the
 * browser's region when the browser speaks that language (en + an en-GB
 * browser → en-GB: a 24-hour clock, the day first; pl stays pl). The server
 * render has no browser: the language alone.
 */
export function clockLocale(
  language: string = getLocale(),
  preferred: readonly string[] = typeof window === 'undefined' ? [] : navigator.languages,
): string {
  const match = preferred.find((l) => l.toLowerCase().split('-')[0] === language.toLowerCase())
  try {
    return match ? (Intl.getCanonicalLocales(match)[0] ?? language) : language
  } catch {
    return language
  }
}

const at = (when: When) => (when instanceof Date ? when : new Date(when))

// Building an Intl formatter costs far more than using one; a chat list or a
// long conversation asks for the same few hundreds of times.
type Format = Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames
const formats = new Map<string, Format>()

function cached<F extends Format>(key: string, make: () => F): F {
  const known = formats.get(key) as F | undefined
  if (known) return known
  const made = make()
  formats.set(key, made)
  return made
}

const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  cached(
    `date ${locale} ${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(locale, options),
  )

const numberFormat = (locale: string, options: Intl.NumberFormatOptions) =>
  cached(
    `number ${locale} ${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
  )

/** 1234.5 → "1,234.5" (en), "1.234,5" (de), "1 234,5" (fr). */
export const formatNumber = (n: number, locale: string = getLocale()) =>
  numberFormat(locale, {}).format(n)

/** An amount in a currency (ISO 4217), e.g. 2.5 EUR → "€2.50" (en), "2,50 €" (de). */
export const formatMoney = (amount: number, currency: string, locale: string = getLocale()) =>
  numberFormat(locale, { style: 'currency', currency }).format(amount)

/** A calendar date: "Mar 5, 2026" (medium) or "March 5, 2026" (long) in en. */
export const formatDate = (
  when: When,
  style: 'medium' | 'long' = 'medium',
  locale: string = clockLocale(),
) => dateFormat(locale, { dateStyle: style }).format(at(when))

/** A clock time: "2:30 PM" (en), "14:30" (de). */
export const formatTime = (when: When, locale: string = clockLocale()) =>
  dateFormat(locale, { timeStyle: 'short' }).format(at(when))

/** Date and time together, for lists where both matter. */
export const formatDateTime = (when: When, locale: string = clockLocale()) =>
  dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at(when))

/** The name of a month on its own, 1 = January ("Januar" in de, "styczeń" in pl). */
export const formatMonthName = (month: number, locale: string = getLocale()) =>
  dateFormat(locale, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, month - 1, 1))

/**
 * A country's name from its ISO 3166 code, NL → "Niederlande" (de),
 * "Pays-Bas" (fr); the fallback (or the code) for a code Intl does not know.
 */
export function formatCountry(code: string, fallback = code, locale: string = getLocale()) {
  try {
    const name = cached(
      `region ${locale}`,
      () => new Intl.DisplayNames(locale, { type: 'region' }),
    ).of(code)
    return name && name !== code ? name : fallback
  } catch {
    return fallback
  }
}

/** The member's calendar day of a moment (device time zone), as YYYY-MM-DD. */
export function localDay(when: When): string {
  const d = at(when)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** Whole calendar days from `when` to `now` on the member's calendar: 0 today, 1 yesterday. */
export function daysAgo(when: When, now: When = new Date()): number {
  const day = (x: When) => {
    const [y, m, d] = localDay(x).split('-').map(Number)
    return Date.UTC(y!, m! - 1, d!) / 86_400_000
  }
  return day(now) - day(when)
}

/** A chat list's "when": the time for today, the date before that. */
export const formatWhen = (when: When, now: When = new Date(), locale: string = clockLocale()) =>
  daysAgo(when, now) === 0 ? formatTime(when, locale) : formatDate(when, 'medium', locale)
