// Spec §5 validation rules of the account forms, as pure functions. They
// answer a ValidationError (a stable code plus its parameters), never text:
// `errorText` (error-text.ts) turns it into the visitor's language, so the
// rules stay testable without a locale and the messages stay in Paraglide.

// The limits are the contract's own (its zod-free module), so page and
// server cannot drift apart; so is the email check's status (a type only).
import type { EmailStatus } from '../../../api/contract/index.ts'
import {
  CITY_MAX,
  EMAIL_MAX,
  IMAGE_MAX_FILES,
  MAX_AGE,
  MIN_AGE,
  NAME_MAX,
  NOTE_MAX,
  PASSWORD_MIN,
} from '../../../api/contract/rules/limits.ts'

export { CITY_MAX, EMAIL_MAX, IMAGE_MAX_FILES, MIN_AGE, NAME_MAX, NOTE_MAX, PASSWORD_MIN }
/** Spec §9: the date-of-birth picker goes back as far as the maximum age. */
export const MAX_AGE_PICKER = MAX_AGE

export type ValidationError =
  | { code: 'required' }
  | { code: 'min_length'; min: number }
  | { code: 'max_length'; max: number }
  | { code: 'email_invalid' }
  | { code: 'name_starts_with_at' }
  | { code: 'name_equals_email' }
  | { code: 'date_invalid' }
  | { code: 'profile.date_of_birth_error'; min_age: number }

/** null = valid. */
export type Check = ValidationError | null

export const required = (value: string): Check =>
  value.trim() === '' ? { code: 'required' } : null

/** Spec §5 generic rule "This field should be at least N characters long". */
export const minLength = (value: string, min: number): Check =>
  [...value].length < min ? { code: 'min_length', min } : null

/** Counted in UTF-16 units, as the server's zod `.max()` counts (one rule both sides). */
export const maxLength = (value: string, max: number): Check =>
  value.length > max ? { code: 'max_length', max } : null

// The WHATWG "valid e-mail address" production (what <input type=email>
// accepts), tightened to require a dot in the domain: a mail to a bare host
// name never reaches a member.
const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** Spec §5: a valid address ("Value is not a valid email address"). */
export function validateEmail(value: string): Check {
  const v = value.trim()
  if (v === '') return { code: 'required' }
  if (v.length > EMAIL_MAX || !EMAIL_RE.test(v)) return { code: 'email_invalid' }
  return null
}

/** Spec §5: the server check runs only once the value contains @ and a dot. */
export const shouldCheckEmail = (value: string): boolean =>
  value.includes('@') && value.includes('.')

/**
 * Spec §5 messages by email status: active or not_confirmed get the
 * existing-account note (with a login link), deleted the deleted-account note
 * (with a service link), invalid the invalid-email error; only new may sign up.
 */
export type EmailStatusNote = 'existing_account' | 'deleted_account' | 'invalid_email' | null

export function emailStatusNote(status: EmailStatus): EmailStatusNote {
  switch (status) {
    case 'new':
      return null
    case 'active':
    case 'not_confirmed':
      return 'existing_account'
    case 'deleted':
      return 'deleted_account'
    case 'invalid':
      return 'invalid_email'
  }
}

/** Spec §5: an empty name defaults to the part of the email before @. */
export function effectiveName(name: string, email: string): string {
  const trimmed = name.trim()
  if (trimmed !== '') return trimmed
  const at = email.indexOf('@')
  return (at > 0 ? email.slice(0, at) : '').trim()
}

/** Spec §5 name: required, 1 to 150 characters, not starting with @, not the email. */
export function validateName(name: string, email: string): Check {
  const v = effectiveName(name, email)
  return (
    required(v) ??
    minLength(v, 1) ??
    maxLength(v, NAME_MAX) ??
    (v.startsWith('@') ? { code: 'name_starts_with_at' } : null) ??
    (email.trim() !== '' && v.toLowerCase() === email.trim().toLowerCase()
      ? { code: 'name_equals_email' }
      : null)
  )
}

/** Spec §5 password: non-empty (the server decides any further strength rule). */
export const validatePassword = (password: string): Check =>
  password === '' ? { code: 'required' } : null

/**
 * A new password (sign-up, reset): non-empty and at least PASSWORD_MIN
 * characters. The common-password list is the server's (400 weak_password).
 */
export const validateNewPassword = (password: string): Check =>
  validatePassword(password) ?? minLength(password, PASSWORD_MIN)

export interface DateParts {
  year: string
  month: string
  day: string
}

/** 'YYYY-MM-DD' into its parts; anything else gives empty parts. */
export function splitDate(iso: string): DateParts {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  return m
    ? { year: m[1] ?? '', month: m[2] ?? '', day: m[3] ?? '' }
    : { year: '', month: '', day: '' }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** Whole years between the date of birth and `today` (local calendar dates). */
export function ageOn(birth: { y: number; m: number; d: number }, today: Date): number {
  const ty = today.getFullYear()
  const tm = today.getMonth() + 1
  const td = today.getDate()
  const hadBirthday = tm > birth.m || (tm === birth.m && td >= birth.d)
  return ty - birth.y - (hadBirthday ? 0 : 1)
}

/**
 * Spec §5 date of birth: a real calendar date (31 February is not), no 00
 * part, at least 18 years old on `today` (error profile.date_of_birth_error
 * with min_age). Answers the ISO date when valid.
 */
export function validateDateOfBirth(
  parts: DateParts,
  today: Date = new Date(),
): { ok: true; iso: string } | { ok: false; error: ValidationError } {
  const { year, month, day } = parts
  if (year.trim() === '' || month.trim() === '' || day.trim() === '') {
    return { ok: false, error: { code: 'required' } }
  }
  if (![year, month, day].every((p) => /^\d+$/.test(p))) {
    return { ok: false, error: { code: 'date_invalid' } }
  }
  const y = Number(year)
  const m = Number(month)
  const d = Number(day)
  // "00" parts (and year 0000) are what a half-filled legacy form sends.
  if (y === 0 || m === 0 || d === 0 || y < 1000 || y > 9999 || m > 12) {
    return { ok: false, error: { code: 'date_invalid' } }
  }
  const probe = new Date(Date.UTC(y, m - 1, d))
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    return { ok: false, error: { code: 'date_invalid' } }
  }
  if (ageOn({ y, m, d }, today) < MIN_AGE) {
    return { ok: false, error: { code: 'profile.date_of_birth_error', min_age: MIN_AGE } }
  }
  return { ok: true, iso: `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}` }
}

/** The years the picker offers: from 18 years ago back to 100 years ago. */
export function birthYears(today: Date = new Date()): number[] {
  const newest = today.getFullYear() - MIN_AGE
  const oldest = today.getFullYear() - MAX_AGE_PICKER
  const years: number[] = []
  for (let y = newest; y >= oldest; y--) years.push(y)
  return years
}

/** Spec §5: city max 255 (it is optional). */
export const validateCity = (city: string): Check => maxLength(city.trim(), CITY_MAX)

/** Spec §5: the location step cannot continue without a country. */
export const canContinueLocation = (country: string | null | undefined): boolean =>
  typeof country === 'string' && country.trim() !== ''

/** Spec §5 photo: png or jpeg (the server decides again from the bytes). */
export const ACCEPTED_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const
export const isAcceptedImage = (file: { type: string }): boolean =>
  (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)
