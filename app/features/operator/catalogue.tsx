// The pieces every catalogue of the console's sites page is made of (credit
// packages, discount codes, gifts): a table of the entries with their field
// names as headers, a form that adds or changes one entry by its key, and
// the status line of the last save (the server checks every value and names
// the field it refuses; each change is audited there).
import { type FormEvent, type ReactNode, useState } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import type { CallResult } from '../../data/console-client.ts'

type Status = { ok: boolean; text: string } | null

/** The status of the last save, and `done`, which records a save's result and reloads on success. */
export function useSaveStatus() {
  const [status, setStatus] = useState<Status>(null)
  const done = (r: CallResult<unknown>, reload: () => void) => {
    const text = r.ok
      ? m.op_site_saved()
      : !r.ok && r.field
        ? m.op_site_bad_field({ field: r.field })
        : m.error_generic()
    setStatus({ ok: r.ok, text })
    if (r.ok) reload()
    return r.ok
  }
  return { status, done }
}

/** The status line of the last save (announced). */
export function SaveStatus({ status }: { status: Status }) {
  return (
    <p role="status" className={status && !status.ok ? 'form__error' : undefined}>
      {status?.text}
    </p>
  )
}

/** A catalogue's entries: one column per field name, each row's cells as `cells` gives them. */
export function CatalogueTable<T>({
  columns,
  rows,
  rowKey,
  cells,
  empty,
}: {
  columns: readonly ReactNode[]
  rows: readonly T[] | undefined
  rowKey: (row: T) => string
  cells: (row: T) => ReactNode[]
  /** Shown in one row when the catalogue is empty (none: an empty body). */
  empty?: ReactNode
}) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <thead>
          <tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed per table
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={rowKey(row)} data-entry={rowKey(row)}>
              {cells(row).map((cell, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
          {empty && rows && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}

/** One field of a catalogue form: an input (its HTML attributes) or a select of fixed options. */
export type CatalogueField = {
  name: string
  type?: 'text' | 'number' | 'datetime-local'
  required?: boolean
  min?: number
  max?: number
  maxLength?: number
  placeholder?: string
  options?: readonly string[]
}

/** The form that adds or changes one entry: its fields, its check boxes, one submit button. */
export function CatalogueForm({
  label,
  fields,
  checks = [],
  onSave,
}: {
  /** The form's name and its button's text. */
  label: string
  fields: readonly CatalogueField[]
  checks?: readonly { name: string; checked: boolean }[]
  onSave: (e: FormEvent<HTMLFormElement>) => void
}) {
  return (
    <form className="site-form" aria-label={label} onSubmit={onSave}>
      {fields.map(({ name, options, type = 'text', ...attributes }) =>
        options ? (
          <label key={name} className="site-form__field">
            <code>{name}</code>
            <select name={name} defaultValue={options[0]}>
              {options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label key={name} className="site-form__field">
            <code>{name}</code>
            <input name={name} type={type} {...attributes} />
          </label>
        ),
      )}
      {checks.map(({ name, checked }) => (
        <label key={name}>
          <input type="checkbox" name={name} defaultChecked={checked} /> <code>{name}</code>
        </label>
      ))}
      <div className="site-form__actions">
        <button type="submit" className="button">
          {label}
        </button>
      </div>
    </form>
  )
}

/** A yes/no cell. */
export const yesNo = (v: boolean) => (v ? '✓' : '—')
