import { afterEach, describe, expect, it } from 'vitest'
import { overwriteGetLocale } from '../../messages/paraglide/runtime.js'
import {
  clockLocale,
  daysAgo,
  formatCountry,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMonthName,
  formatNumber,
  formatTime,
  formatWhen,
  localDay,
} from './format.ts'

// Intl separates some parts with no-break or narrow no-break spaces; compare
// with plain spaces so the tests read as the member sees them.
const plain = (s: string) => s.replace(/\s/g, ' ')

// Local times (the test machine's time zone), as a member's device has them.
const afternoon = new Date(2026, 2, 5, 14, 30)
const lateEvening = new Date(2026, 2, 5, 23, 50)
const nextMorning = new Date(2026, 2, 6, 0, 10)

describe('format in the given locale', () => {
  it('writes numbers with the locale’s separators', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5')
    expect(formatNumber(1234.5, 'de')).toBe('1.234,5')
    expect(formatNumber(1234.5, 'nl')).toBe('1.234,5')
    expect(plain(formatNumber(1234.5, 'fr'))).toBe('1 234,5')
    expect(plain(formatNumber(12345, 'pl'))).toBe('12 345')
  })

  it('writes money with the currency where the locale puts it', () => {
    expect(formatMoney(2.5, 'EUR', 'en')).toBe('€2.50')
    expect(plain(formatMoney(2.5, 'EUR', 'de'))).toBe('2,50 €')
    expect(plain(formatMoney(2.5, 'EUR', 'nl'))).toBe('€ 2,50')
    expect(plain(formatMoney(2.5, 'PLN', 'pl'))).toBe('2,50 zł')
  })

  it('writes dates and times the locale’s way', () => {
    expect(formatDate(afternoon, 'long', 'en')).toBe('March 5, 2026')
    expect(formatDate(afternoon, 'long', 'de')).toBe('5. März 2026')
    expect(formatDate(afternoon, 'long', 'es')).toBe('5 de marzo de 2026')
    expect(plain(formatTime(afternoon, 'en'))).toBe('2:30 PM')
    expect(formatTime(afternoon, 'de')).toBe('14:30')
    expect(formatTime(afternoon, 'fr')).toBe('14:30')
    expect(plain(formatDateTime(afternoon, 'nl'))).toBe('5 mrt 2026, 14:30')
  })

  it('names months on their own (nominative in Polish)', () => {
    expect(formatMonthName(1, 'de')).toBe('Januar')
    expect(formatMonthName(1, 'pl')).toBe('styczeń')
    expect(formatMonthName(12, 'it')).toBe('dicembre')
  })

  it('names countries from their ISO code, keeping the given name for an unknown code', () => {
    expect(formatCountry('NL', 'Netherlands', 'de')).toBe('Niederlande')
    expect(formatCountry('DE', 'Germany', 'fr')).toBe('Allemagne')
    expect(formatCountry('BE', 'Belgium', 'pl')).toBe('Belgia')
    expect(formatCountry('ZZZ', 'Nowhere', 'de')).toBe('Nowhere')
    expect(formatCountry('', 'Nowhere', 'de')).toBe('Nowhere')
  })

  it('takes ISO strings and epoch milliseconds as well as dates', () => {
    const iso = afternoon.toISOString()
    expect(formatTime(iso, 'de')).toBe('14:30')
    expect(formatTime(afternoon.getTime(), 'de')).toBe('14:30')
  })
})

describe('calendar days on the member’s device', () => {
  it('counts days by the local calendar, not by 24-hour spans or UTC dates', () => {
    expect(localDay(lateEvening)).toBe('2026-03-05')
    expect(localDay(nextMorning)).toBe('2026-03-06')
    // Twenty minutes apart, yet yesterday.
    expect(daysAgo(lateEvening, nextMorning)).toBe(1)
    expect(daysAgo(afternoon, lateEvening)).toBe(0)
    expect(daysAgo(new Date(2026, 1, 27, 12), nextMorning)).toBe(7)
  })

  it('shows a time for today and a date before today', () => {
    expect(formatWhen(afternoon, lateEvening, 'de')).toBe('14:30')
    expect(formatWhen(lateEvening, nextMorning, 'de')).toBe('05.03.2026')
  })
})

describe('the member’s current locale', () => {
  afterEach(() => overwriteGetLocale(() => 'en'))

  it('is the default for every formatter', () => {
    overwriteGetLocale(() => 'de')
    expect(formatNumber(1234.5)).toBe('1.234,5')
    expect(formatTime(afternoon)).toBe('14:30')
    overwriteGetLocale(() => 'pl')
    expect(formatMonthName(3)).toBe('marzec')
  })
})

describe('times follow the browser region within the app language', () => {
  it('an en-GB browser reading the site in English gets a 24-hour clock', () => {
    expect(clockLocale('en', ['en-GB', 'en'])).toBe('en-GB')
    expect(formatTime(afternoon, clockLocale('en', ['en-GB']))).toBe('14:30')
    expect(plain(formatTime(afternoon, clockLocale('en', ['en-US'])))).toBe('2:30 PM')
  })

  it('keeps the app language when the browser speaks another one', () => {
    expect(clockLocale('pl', ['en-GB', 'nl-NL'])).toBe('pl')
    expect(clockLocale('nl', ['en-GB', 'nl-BE'])).toBe('nl-BE')
  })
})
