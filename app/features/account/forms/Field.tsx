// A labelled form field whose error and hint are tied to the control
// (aria-describedby, aria-invalid), so a screen reader reads them with it.
import type { ReactNode } from 'react'

export interface ControlProps {
  id: string
  'aria-invalid': boolean
  'aria-describedby'?: string
}

export function controlProps(id: string, error?: string | null, hint?: string): ControlProps {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean)
  return {
    id,
    'aria-invalid': Boolean(error),
    ...(described.length > 0 ? { 'aria-describedby': described.join(' ') } : {}),
  }
}

export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string
  label: string
  error?: string | null
  hint?: string
  children: (props: ControlProps) => ReactNode
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(controlProps(id, error, hint))}
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  )
}

/** The text of a failed worker call, for a role=alert line. */
export function FormAlert({ text }: { text: string | null }) {
  if (!text) return null
  return (
    <p className="form__error" role="alert">
      {text}
    </p>
  )
}
