// Gender, date of birth and the optional profile select fields (spec §2
// step 4, /profile). Date of birth as day/month/year selects: the years run
// from 18 to 100 years back (spec §9), and validateDateOfBirth still checks
// the day exists (31 February) and the age on the day of sending.
import { type FormEvent, useId, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import type { SyncError } from '../../../data/worker.ts'
import { formatMonthName } from '../../../ui/format.ts'
import { errorText } from '../error-text.ts'
import {
  birthYears,
  MIN_AGE,
  splitDate,
  type ValidationError,
  validateDateOfBirth,
} from '../validation.ts'
import { controlProps, FormAlert } from './Field.tsx'
import { failureText } from './failure-text.ts'
import { fieldLabel, fieldValueLabel } from './profile-fields.ts'

export interface About {
  gender: 'male' | 'female'
  date_of_birth: string
  profile_fields: Record<string, string | null>
}

const DAYS = Array.from({ length: 31 }, (_, i) => String(i + 1).padStart(2, '0'))
const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'))

export function AboutForm({
  initial,
  fields,
  submitLabel,
  onSubmit,
}: {
  initial: {
    gender: string | null
    date_of_birth: string | null
    profile_fields: Record<string, string>
  }
  /** allowed_values of the fields to offer (gender excluded), in display order. */
  fields: [string, string[]][]
  submitLabel: string
  onSubmit: (about: About) => Promise<SyncError | null>
}) {
  const uid = useId()
  const [gender, setGender] = useState(initial.gender ?? '')
  const [dob, setDob] = useState(splitDate(initial.date_of_birth ?? ''))
  const [values, setValues] = useState<Record<string, string>>(initial.profile_fields)
  const [genderError, setGenderError] = useState<string | null>(null)
  const [dobError, setDobError] = useState<string | null>(null)
  const [alert, setAlert] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const g = gender === 'male' || gender === 'female' ? gender : null
    const checked = validateDateOfBirth(dob)
    setGenderError(g ? null : errorText({ code: 'required' }))
    setDobError(checked.ok ? null : errorText(checked.error))
    if (!g || !checked.ok) return
    setBusy(true)
    setAlert(null)
    const profile_fields = Object.fromEntries(
      fields.map(([name]) => [name, values[name] ? values[name] : null]),
    )
    const error = await onSubmit({ gender: g, date_of_birth: checked.iso, profile_fields })
    setBusy(false)
    if (!error) return
    if (error.code === 'profile.date_of_birth_error') {
      const problem: ValidationError = { code: 'profile.date_of_birth_error', min_age: MIN_AGE }
      setDobError(errorText(problem))
    } else setAlert(failureText(error))
  }

  const dobProps = controlProps(`${uid}-dob`, dobError)
  const setPart = (part: 'day' | 'month' | 'year') => (v: string) => setDob({ ...dob, [part]: v })
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
      <fieldset className="field" {...controlProps(`${uid}-gender`, genderError)}>
        <legend>{m.signup_gender()}</legend>
        {(['female', 'male'] as const).map((g) => (
          <label key={g} className="choice">
            <input
              type="radio"
              name={`${uid}-gender`}
              value={g}
              checked={gender === g}
              onChange={() => setGender(g)}
            />
            {g === 'female' ? m.signup_gender_female() : m.signup_gender_male()}
          </label>
        ))}
        {genderError && (
          <p id={`${uid}-gender-error`} className="field__error">
            {genderError}
          </p>
        )}
      </fieldset>
      <fieldset
        className="field"
        aria-invalid={dobProps['aria-invalid']}
        aria-describedby={dobProps['aria-describedby']}
      >
        <legend>{m.signup_dob()}</legend>
        <div className="date-parts">
          <DatePart
            label={m.signup_dob_day()}
            value={dob.day}
            options={DAYS.map((d) => [d, String(Number(d))])}
            invalid={Boolean(dobError)}
            onChange={setPart('day')}
          />
          <DatePart
            label={m.signup_dob_month()}
            value={dob.month}
            options={MONTHS.map((mo) => [mo, formatMonthName(Number(mo))])}
            invalid={Boolean(dobError)}
            onChange={setPart('month')}
          />
          <DatePart
            label={m.signup_dob_year()}
            value={dob.year}
            options={birthYears().map((y) => [String(y), String(y)])}
            invalid={Boolean(dobError)}
            onChange={setPart('year')}
          />
        </div>
        {dobError && (
          <p id={`${uid}-dob-error`} className="field__error">
            {dobError}
          </p>
        )}
      </fieldset>
      {fields.map(([name, allowed]) => (
        <div className="field" key={name}>
          <label htmlFor={`${uid}-f-${name}`}>{fieldLabel(name)}</label>
          <select
            id={`${uid}-f-${name}`}
            value={values[name] ?? ''}
            onChange={(e) => setValues({ ...values, [name]: e.target.value })}
          >
            <option value="">{m.signup_field_none()}</option>
            {allowed.map((v) => (
              <option key={v} value={v}>
                {fieldValueLabel(name, v)}
              </option>
            ))}
          </select>
        </div>
      ))}
      <FormAlert text={alert} />
      <button type="submit" className="button" disabled={busy}>
        {busy ? m.signup_saving() : submitLabel}
      </button>
    </form>
  )
}

function DatePart({
  label,
  value,
  options,
  invalid,
  onChange,
}: {
  label: string
  value: string
  options: [string, string][]
  invalid: boolean
  onChange: (v: string) => void
}) {
  return (
    <label>
      <span>{label}</span>
      <select value={value} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
}
