import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useId, useState } from 'react'
import {
  COMPLAINT_NAME_MAX,
  COMPLAINT_SUBJECT_MAX,
  COMPLAINT_TEXT_MAX,
  COMPLAINT_TEXT_MIN,
  COMPLAINT_URL_MAX,
  type ComplaintKind,
} from '../../../api/contract/rules/complaints.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { getLocale } from '../../../messages/paraglide/runtime.js'
import { useSession } from '../../data/session.ts'
import { worker } from '../../data/worker.ts'
import { Field, FormAlert } from '../../features/account/forms/Field.tsx'
import { failureText } from '../../features/account/forms/failure-text.ts'

/**
 * Spec §2 /complaints (public): an EU notice-and-action form (what, where,
 * why, who, a good-faith statement), or an appeal of a decision we took.
 * The answer is a reference, also mailed to the sender.
 */
export const Route = createFileRoute('/_default/complaints')({ component: Complaints })

type ComplaintField = 'subject' | 'url' | 'text' | 'name' | 'email'

function Complaints() {
  const uid = useId()
  const { user } = useSession()
  const [kind, setKind] = useState<ComplaintKind>('notice')
  const [name, setName] = useState(user?.profile.name ?? '')
  const [email, setEmail] = useState(user?.email ?? '')
  const [subject, setSubject] = useState('')
  const [url, setUrl] = useState('')
  const [text, setText] = useState('')
  const [goodFaith, setGoodFaith] = useState(false)
  const [busy, setBusy] = useState(false)
  const [alert, setAlert] = useState<string | null>(null)
  const [field, setField] = useState<string | null>(null)
  const [reference, setReference] = useState<string | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    // The good-faith statement is required (the checkbox is, and the API refuses without it).
    if (!goodFaith) return
    setBusy(true)
    setAlert(null)
    setField(null)
    const res = await worker().fileComplaint({
      kind,
      name: name.trim(),
      email: email.trim(),
      subject: subject.trim(),
      url: url.trim(),
      text: text.trim(),
      good_faith: true,
      locale: getLocale(),
    })
    setBusy(false)
    if (res.ok) {
      setReference(res.value.complaint.reference)
      return
    }
    if (res.error.code === 'invalid_input' && res.error.field) setField(res.error.field)
    setAlert(failureText(res.error))
  }

  if (reference) return <ComplaintReceived reference={reference} email={email.trim()} />

  const err = (f: string) => (field === f ? m.complaints_field_error() : null)
  return (
    <main className="page page--narrow">
      <h1>{m.complaints_title()}</h1>
      <p>{m.complaints_intro()}</p>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <KindChoice kind={kind} onKind={setKind} />
        <ComplaintFields
          uid={uid}
          err={err}
          values={{ subject, url, text, name, email }}
          set={{ subject: setSubject, url: setUrl, text: setText, name: setName, email: setEmail }}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            required
            checked={goodFaith}
            onChange={(e) => setGoodFaith(e.target.checked)}
          />{' '}
          {m.complaints_good_faith()}
        </label>
        <FormAlert text={alert} />
        <button type="submit" className="button" disabled={busy}>
          {m.complaints_submit()}
        </button>
      </form>
    </main>
  )
}

/** What the complaint is about, and who files it. */
function ComplaintFields({
  uid,
  err,
  values,
  set,
}: {
  uid: string
  err: (field: string) => string | null
  values: Record<ComplaintField, string>
  set: Record<ComplaintField, (value: string) => void>
}) {
  return (
    <>
      <Field id={`${uid}-subject`} label={m.complaints_subject()} error={err('subject')}>
        {(p) => (
          <input
            {...p}
            required
            maxLength={COMPLAINT_SUBJECT_MAX}
            value={values.subject}
            onChange={(e) => set.subject(e.target.value)}
          />
        )}
      </Field>
      <Field
        id={`${uid}-url`}
        label={m.complaints_url()}
        hint={m.complaints_url_hint()}
        error={err('url')}
      >
        {(p) => (
          <input
            {...p}
            type="url"
            inputMode="url"
            maxLength={COMPLAINT_URL_MAX}
            value={values.url}
            onChange={(e) => set.url(e.target.value)}
          />
        )}
      </Field>
      <ComplaintText
        id={`${uid}-text`}
        error={err('text')}
        value={values.text}
        onChange={set.text}
      />
      <Field id={`${uid}-name`} label={m.complaints_name()} error={err('name')}>
        {(p) => (
          <input
            {...p}
            required
            autoComplete="name"
            maxLength={COMPLAINT_NAME_MAX}
            value={values.name}
            onChange={(e) => set.name(e.target.value)}
          />
        )}
      </Field>
      <Field id={`${uid}-email`} label={m.complaints_email()} error={err('email')}>
        {(p) => (
          <input
            {...p}
            required
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => set.email(e.target.value)}
          />
        )}
      </Field>
    </>
  )
}

/** A notice of illegal content, or a complaint about a decision. */
function KindChoice({
  kind,
  onKind,
}: {
  kind: ComplaintKind
  onKind: (kind: ComplaintKind) => void
}) {
  return (
    <fieldset>
      <legend>{m.complaints_kind()}</legend>
      {(['notice', 'decision'] as const).map((k) => (
        <label key={k} className="radio">
          <input
            type="radio"
            name="kind"
            value={k}
            checked={kind === k}
            onChange={() => onKind(k)}
          />{' '}
          {k === 'notice' ? m.complaints_kind_notice() : m.complaints_kind_decision()}
        </label>
      ))}
    </fieldset>
  )
}

/** The answer to a filed complaint: its reference, and where the receipt went. */
function ComplaintReceived({ reference, email }: { reference: string; email: string }) {
  return (
    <main className="page page--narrow">
      <h1>{m.complaints_title()}</h1>
      <p role="status" data-testid="complaint-reference">
        {m.complaints_received({ reference, email })}
      </p>
    </main>
  )
}

/** The complaint's own words. */
function ComplaintText({
  id,
  error,
  value,
  onChange,
}: {
  id: string
  error: string | null
  value: string
  onChange: (value: string) => void
}) {
  return (
    <Field
      id={id}
      label={m.complaints_text()}
      hint={m.complaints_text_hint({ min: COMPLAINT_TEXT_MIN })}
      error={error}
    >
      {(p) => (
        <textarea
          {...p}
          required
          rows={6}
          minLength={COMPLAINT_TEXT_MIN}
          maxLength={COMPLAINT_TEXT_MAX}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  )
}
