// Free-text profile notes (spec §2 step 5, /profile): `personal` is the
// profile's own text (spec §3 Profile.personal); every other key of
// settings.visible_profile_notes goes to profile.notes.
import { type FormEvent, useId, useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import type { SyncError } from '../../../data/worker.ts'
import { errorText } from '../error-text.ts'
import { maxLength, NOTE_MAX } from '../validation.ts'
import { FormAlert } from './Field.tsx'
import { failureText } from './failure-text.ts'
import { noteLabel } from './profile-fields.ts'

export interface Notes {
  personal: string | null
  notes: Record<string, string>
}

export function NotesForm({
  keys,
  initial,
  hint,
  submitLabel,
  onSubmit,
}: {
  /** settings.visible_profile_notes; `personal` is always offered. */
  keys: string[]
  initial: { personal: string | null; notes: Record<string, string> }
  hint?: string
  submitLabel: string
  onSubmit: (notes: Notes) => Promise<SyncError | null>
}) {
  const uid = useId()
  const all = ['personal', ...keys.filter((k) => k !== 'personal')]
  const [text, setText] = useState<Record<string, string>>({
    ...initial.notes,
    personal: initial.personal ?? '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [alert, setAlert] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    const found: Record<string, string> = {}
    for (const k of all) {
      const problem = maxLength(text[k] ?? '', NOTE_MAX)
      if (problem) found[k] = errorText(problem)
    }
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    setAlert(null)
    const personal = (text.personal ?? '').trim()
    const notes = Object.fromEntries(
      all.filter((k) => k !== 'personal').map((k) => [k, (text[k] ?? '').trim()]),
    )
    const error = await onSubmit({ personal: personal === '' ? null : personal, notes })
    setBusy(false)
    if (error) setAlert(failureText(error))
  }

  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} noValidate>
      {hint && <p className="field__hint">{hint}</p>}
      {all.map((k) => {
        const id = `${uid}-${k}`
        return (
          <div className="field" key={k}>
            <label htmlFor={id}>{noteLabel(k)}</label>
            <textarea
              id={id}
              className="notes-textarea"
              value={text[k] ?? ''}
              maxLength={NOTE_MAX}
              aria-invalid={Boolean(errors[k])}
              aria-describedby={errors[k] ? `${id}-error` : undefined}
              onChange={(e) => setText({ ...text, [k]: e.target.value })}
            />
            {errors[k] && (
              <p id={`${id}-error`} className="field__error">
                {errors[k]}
              </p>
            )}
          </div>
        )
      })}
      <FormAlert text={alert} />
      <button type="submit" className="button" disabled={busy}>
        {busy ? m.signup_saving() : submitLabel}
      </button>
    </form>
  )
}
