import { describe, expect, it } from 'vitest'
import {
  dateOfBirthProblem,
  Email,
  nameProblem,
  CITY_MAX as SERVER_CITY_MAX,
  EMAIL_MAX as SERVER_EMAIL_MAX,
  IMAGE_MAX_FILES as SERVER_IMAGE_MAX_FILES,
  NAME_MAX as SERVER_NAME_MAX,
  NOTE_MAX as SERVER_NOTE_MAX,
} from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { errorText } from './error-text.ts'
import {
  birthYears,
  CITY_MAX,
  canContinueLocation,
  EMAIL_MAX,
  effectiveName,
  emailStatusNote,
  IMAGE_MAX_FILES,
  isAcceptedImage,
  maxLength,
  minLength,
  NAME_MAX,
  NOTE_MAX,
  required,
  shouldCheckEmail,
  splitDate,
  type ValidationError,
  validateCity,
  validateDateOfBirth,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePassword,
} from './validation.ts'

const en = { locale: 'en' } as const
/** Fixed "today" so age rules do not depend on the day the suite runs. */
const TODAY = new Date(2025, 5, 15) // 15 June 2025, local time

describe('spec §5 messages, in English exactly', () => {
  it.each<[ValidationError, string]>([
    [{ code: 'required' }, 'Value is required'],
    [{ code: 'email_invalid' }, 'Value is not a valid email address'],
    [{ code: 'min_length', min: 8 }, 'This field should be at least 8 characters long'],
    [{ code: 'max_length', max: 150 }, 'This field should be at most 150 characters long'],
    [{ code: 'profile.date_of_birth_error', min_age: 18 }, 'You must be at least 18 years old'],
  ])('%o → %s', (error, text) => {
    expect(errorText(error, en)).toBe(text)
  })

  it('has a text for every code', () => {
    const codes: ValidationError[] = [
      { code: 'name_starts_with_at' },
      { code: 'name_equals_email' },
      { code: 'date_invalid' },
    ]
    for (const c of codes) expect(errorText(c, en).length).toBeGreaterThan(5)
  })

  it('the date-of-birth error takes min_age as its parameter', () => {
    expect(m.profile_date_of_birth_error({ min_age: 21 }, en)).toContain('21')
  })
})

describe('generic rules', () => {
  it.each([
    ['', { code: 'required' }],
    ['   ', { code: 'required' }],
    ['x', null],
  ])('required(%j)', (v, want) => expect(required(v)).toEqual(want))

  it.each([
    ['abc', 4, { code: 'min_length', min: 4 }],
    ['abcd', 4, null],
    // Characters, not UTF-16 units: an emoji is one character.
    ['😀😀😀', 4, { code: 'min_length', min: 4 }],
    ['😀😀😀😀', 4, null],
  ])('minLength(%j, %i)', (v, n, want) => expect(minLength(v, n)).toEqual(want))

  it.each([
    ['a'.repeat(150), 150, null],
    ['a'.repeat(151), 150, { code: 'max_length', max: 150 }],
  ])('maxLength', (v, n, want) => expect(maxLength(v, n)).toEqual(want))
})

describe('email', () => {
  it.each([
    ['', { code: 'required' }],
    ['jan', { code: 'email_invalid' }],
    ['jan@', { code: 'email_invalid' }],
    ['jan@example', { code: 'email_invalid' }],
    ['@example.com', { code: 'email_invalid' }],
    ['jan@exa mple.com', { code: 'email_invalid' }],
    ['jan@@example.com', { code: 'email_invalid' }],
    ['jan@-example.com', { code: 'email_invalid' }],
    [`${'a'.repeat(250)}@x.nl`, { code: 'email_invalid' }],
    ['jan@example.com', null],
    ['  jan.de.vries+site@ziggo.nl ', null],
    ["o'brien@example.co.uk", null],
  ])('validateEmail(%j)', (v, want) => expect(validateEmail(v)).toEqual(want))

  it.each([
    ['jan', false],
    ['jan@ziggo', false],
    ['jan.vries', false],
    ['jan@ziggo.', true],
    ['jan@ziggo.nl', true],
  ])('the server check runs only with @ and a dot: %j → %s', (v, want) =>
    expect(shouldCheckEmail(v)).toBe(want),
  )

  it.each([
    ['new', null],
    ['active', 'existing_account'],
    ['not_confirmed', 'existing_account'],
    ['deleted', 'deleted_account'],
    ['invalid', 'invalid_email'],
  ] as const)('status %s → note %s', (status, note) => expect(emailStatusNote(status)).toBe(note))
})

describe('name', () => {
  it.each([
    ['', 'jan@ziggo.nl', 'jan'],
    ['  ', 'jan@ziggo.nl', 'jan'],
    [' Jan ', 'jan@ziggo.nl', 'Jan'],
    ['', 'no-at-sign', ''],
  ])('effectiveName(%j, %j) = %j', (name, email, want) =>
    expect(effectiveName(name, email)).toBe(want),
  )

  it.each<[string, string, ValidationError | null]>([
    ['Jan', 'jan@ziggo.nl', null],
    ['', 'jan@ziggo.nl', null], // defaults to "jan"
    ['', '', { code: 'required' }],
    ['x', 'jan@ziggo.nl', null],
    ['a'.repeat(NAME_MAX), 'jan@ziggo.nl', null],
    ['a'.repeat(NAME_MAX + 1), 'jan@ziggo.nl', { code: 'max_length', max: NAME_MAX }],
    ['@jan', 'jan@ziggo.nl', { code: 'name_starts_with_at' }],
    ['jan@ziggo.nl', 'jan@ziggo.nl', { code: 'name_equals_email' }],
    ['JAN@Ziggo.nl', 'jan@ziggo.nl', { code: 'name_equals_email' }],
  ])('validateName(%j, %j)', (name, email, want) => expect(validateName(name, email)).toEqual(want))
})

describe('password', () => {
  it.each([
    ['', { code: 'required' }],
    [' ', null],
    ['secret', null],
  ])('validatePassword(%j)', (v, want) => expect(validatePassword(v)).toEqual(want))

  // A new password (sign-up, reset): at least 8 characters, as the server's rule.
  it.each([
    ['', { code: 'required' }],
    ['secret', { code: 'min_length', min: 8 }],
    ['1234567', { code: 'min_length', min: 8 }],
    ['12345678', null],
  ])('validateNewPassword(%j)', (v, want) => expect(validateNewPassword(v)).toEqual(want))
})

describe('date of birth (today = 2025-06-15)', () => {
  const dob = (year: string, month: string, day: string) =>
    validateDateOfBirth({ year, month, day }, TODAY)
  const underage = { ok: false, error: { code: 'profile.date_of_birth_error', min_age: 18 } }
  const invalid = { ok: false, error: { code: 'date_invalid' } }

  it.each([
    ['1990', '01', '31', { ok: true, iso: '1990-01-31' }],
    ['1990', '1', '5', { ok: true, iso: '1990-01-05' }],
    ['1992', '02', '29', { ok: true, iso: '1992-02-29' }], // leap year
    ['1991', '02', '29', invalid], // not a leap year
    ['1990', '02', '30', invalid],
    ['1990', '04', '31', invalid],
    ['1990', '13', '01', invalid],
    ['1990', '00', '10', invalid],
    ['1990', '10', '00', invalid],
    ['0000', '10', '10', invalid],
    ['19x0', '10', '10', invalid],
    ['', '10', '10', { ok: false, error: { code: 'required' } }],
    ['2007', '06', '15', { ok: true, iso: '2007-06-15' }], // 18 today
    ['2007', '06', '16', underage], // 18 tomorrow
    ['2010', '01', '01', underage],
    ['2030', '01', '01', underage],
  ])('%s-%s-%s', (y, mo, d, want) => expect(dob(y, mo, d)).toEqual(want))

  it('splits an ISO date and refuses anything else', () => {
    expect(splitDate('1990-04-09')).toEqual({ year: '1990', month: '04', day: '09' })
    expect(splitDate('9 April 1990')).toEqual({ year: '', month: '', day: '' })
  })

  it('the picker offers 18 to 100 years ago, newest first', () => {
    const years = birthYears(TODAY)
    expect(years[0]).toBe(2007)
    expect(years.at(-1)).toBe(1925)
    expect(years).toHaveLength(83)
  })
})

describe('location', () => {
  it.each([
    ['', null],
    ['Amsterdam', null],
    ['a'.repeat(CITY_MAX), null],
    ['a'.repeat(CITY_MAX + 1), { code: 'max_length', max: CITY_MAX }],
  ])('validateCity', (v, want) => expect(validateCity(v)).toEqual(want))

  it.each([
    [null, false],
    [undefined, false],
    ['', false],
    ['NL', true],
  ])('continue with country %j: %s', (c, want) => expect(canContinueLocation(c)).toBe(want))
})

describe('photo', () => {
  it.each([
    ['image/png', true],
    ['image/jpeg', true],
    ['image/gif', false],
    ['image/svg+xml', false],
    ['text/html', false],
    ['', false],
  ])('%s accepted: %s', (type, want) => expect(isAcceptedImage({ type })).toBe(want))
})

// The form must not let through what the server refuses, nor refuse what it
// accepts: the same samples through both rule sets.
describe('agrees with the server contract', () => {
  it('limits', () => {
    expect([NAME_MAX, CITY_MAX, EMAIL_MAX, NOTE_MAX, IMAGE_MAX_FILES]).toEqual([
      SERVER_NAME_MAX,
      SERVER_CITY_MAX,
      SERVER_EMAIL_MAX,
      SERVER_NOTE_MAX,
      SERVER_IMAGE_MAX_FILES,
    ])
  })

  it('name', () => {
    expect(NAME_MAX).toBe(SERVER_NAME_MAX)
    const email = 'jan@ziggo.nl'
    for (const name of [
      'Jan',
      '@jan',
      'jan@ziggo.nl',
      'JAN@ZIGGO.NL',
      'a'.repeat(150),
      'a'.repeat(151),
      '😀'.repeat(76),
    ]) {
      expect(validateName(name, email) === null, name).toBe(nameProblem(name, email) === null)
    }
  })

  it('email', () => {
    for (const e of [
      'jan@ziggo.nl',
      'jan@ziggo',
      'jan',
      'a.b+c@example.co.uk',
      'jan@@x.nl',
      'jan@x..nl',
      'jan@-x.nl',
      ' jan@x.nl ',
    ]) {
      expect(validateEmail(e) === null, e).toBe(Email.safeParse(e).success)
    }
  })

  it('date of birth', () => {
    const today = new Date(Date.UTC(2025, 5, 15, 12))
    for (const iso of [
      '1990-01-31',
      '1991-02-29',
      '2007-06-15',
      '2007-06-16',
      '1990-00-10',
      '1990-13-01',
    ]) {
      const mine = validateDateOfBirth(splitDate(iso), today)
      expect(mine.ok, iso).toBe(dateOfBirthProblem(iso, today) === null)
    }
  })
})
