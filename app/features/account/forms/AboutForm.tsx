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
  type DateParts,
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

/** The saved answers the form starts from. */
interface AboutInitial {
  gender: string | null
  date_of_birth: string | null
  profile_fields: Record<string, string>
}

export function AboutForm({
  initial,
  fields,
  submitLabel,
  onSubmit,
}: {
  initial: AboutInitial
  /** allowed_values of the fields to offer (gender excluded), in display order. */
  fields: [string, string[]][]
  submitLabel: string
  onSubmit: (about: About) => Promise<SyncError | null>
}) {
  const uid = useId()
  const form = useAboutForm(initial, fields, onSubmit)
  return (
    <form className="form" onSubmit={(e) => void form.submit(e)} aria-busy={form.busy} noValidate>
      <GenderField
        uid={uid}
        gender={form.gender}
        error={form.genderError}
        onChange={form.setGender}
      />
      <DateOfBirthField uid={uid} dob={form.dob} error={form.dobError} onChange={form.setDob} />
      <ProfileFieldSelects
        uid={uid}
        fields={fields}
        values={form.values}
        onChange={form.setValues}
      />
      <FormAlert text={form.alert} />
      <button type="submit" className="button" disabled={form.busy}>
        {form.busy ? m.signup_saving() : submitLabel}
      </button>
    </form>
  )
}

/** The about form's draft, its field errors and its submit (checks, sends, shows the answer). */
function useAboutForm(
  initial: AboutInitial,
  fields: [string, string[]][],
  onSubmit: (about: About) => Promise<SyncError | null>,
) {
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

  return {
    gender,
    setGender,
    dob,
    setDob,
    values,
    setValues,
    genderError,
    dobError,
    alert,
    busy,
    submit,
  }
}

/** The gender radios with their error. */
function GenderField({
  uid,
  gender,
  error,
  onChange,
}: {
  uid: string
  gender: string
  error: string | null
  onChange: (g: 'female' | 'male') => void
}) {
  return (
    <fieldset className="field" {...controlProps(`${uid}-gender`, error)}>
      <legend>{m.signup_gender()}</legend>
      {(['female', 'male'] as const).map((g) => (
        <label key={g} className="choice">
          <input
            type="radio"
            name={`${uid}-gender`}
            value={g}
            checked={gender === g}
            onChange={() => onChange(g)}
          />
          {g === 'female' ? m.signup_gender_female() : m.signup_gender_male()}
        </label>
      ))}
      {error && (
        <p id={`${uid}-gender-error`} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  )
}

/** The date of birth as day, month and year selects with their error. */
function DateOfBirthField({
  uid,
  dob,
  error,
  onChange,
}: {
  uid: string
  dob: DateParts
  error: string | null
  onChange: (dob: DateParts) => void
}) {
  const dobProps = controlProps(`${uid}-dob`, error)
  const setPart = (part: 'day' | 'month' | 'year') => (v: string) => onChange({ ...dob, [part]: v })
  return (
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
          invalid={Boolean(error)}
          onChange={setPart('day')}
        />
        <DatePart
          label={m.signup_dob_month()}
          value={dob.month}
          options={MONTHS.map((mo) => [mo, formatMonthName(Number(mo))])}
          invalid={Boolean(error)}
          onChange={setPart('month')}
        />
        <DatePart
          label={m.signup_dob_year()}
          value={dob.year}
          options={birthYears().map((y) => [String(y), String(y)])}
          invalid={Boolean(error)}
          onChange={setPart('year')}
        />
      </div>
      {error && (
        <p id={`${uid}-dob-error`} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  )
}

/** One select per optional profile field, "none" first. */
function ProfileFieldSelects({
  uid,
  fields,
  values,
  onChange,
}: {
  uid: string
  fields: [string, string[]][]
  values: Record<string, string>
  onChange: (values: Record<string, string>) => void
}) {
  return fields.map(([name, allowed]) => (
    <div className="field" key={name}>
      <label htmlFor={`${uid}-f-${name}`}>{fieldLabel(name)}</label>
      <select
        id={`${uid}-f-${name}`}
        value={values[name] ?? ''}
        onChange={(e) => onChange({ ...values, [name]: e.target.value })}
      >
        <option value="">{m.signup_field_none()}</option>
        {allowed.map((v) => (
          <option key={v} value={v}>
            {fieldValueLabel(name, v)}
          </option>
        ))}
      </select>
    </div>
  ))
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
