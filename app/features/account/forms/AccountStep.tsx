// Step 0 (spec §2, §5): email, name and password with the accept-terms text.
// The email is checked with the server once it holds @ and a dot (a newer
// check aborts the older one in the worker), and a mistyped provider domain
// gets a "did you mean" button that replaces the address.
import { type FormEvent, lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react'
import type { AccountUser, EmailStatus } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { getLocale } from '../../../../messages/paraglide/runtime.js'
import { worker } from '../../../data/worker.ts'
import { readMatchAnswers } from '../../landers/match-answers.ts'
import type { NetworkEntry } from '../../tracking/tracking.ts'
import { errorText } from '../error-text.ts'
import {
  EMAIL_MAX,
  effectiveName,
  emailStatusNote,
  NAME_MAX,
  shouldCheckEmail,
  validateEmail,
  validateName,
  validateNewPassword,
} from '../validation.ts'
import { useIsClient } from '../../../ui/use-client.ts'
import { AppLink } from '../../../ui/AppLink.tsx'
import { Field, FormAlert } from './Field.tsx'
import { failureText } from './failure-text.ts'
import type { LegalDoc } from './LegalModals.tsx'

/** The terms and privacy texts: only a visitor who opens them downloads them. */
const LegalModal = lazy(() =>
  import('./LegalModals.tsx').then((mod) => ({ default: mod.LegalModal })),
)

/**
 * The "did you mean" checker (with its provider lists), loaded once the
 * visitor starts typing an address: not part of the form's first paint.
 */
function useEmailSuggester(typing: boolean) {
  const [suggest, setSuggest] = useState<((email: string) => string | null) | null>(null)
  useEffect(() => {
    if (!typing || suggest) return
    void import('../email-suggest.ts').then((mod) => setSuggest(() => mod.suggestEmail))
  }, [typing, suggest])
  return suggest
}

/** Whether the legal texts were ever asked for (then they stay mounted). */
function useLegalShown(doc: LegalDoc | null): boolean {
  const [shown, setShown] = useState(false)
  if (doc !== null && !shown) setShown(true)
  return shown || doc !== null
}

/**
 * Not in the spec: the check waits for a short pause in typing. Each keystroke
 * would otherwise start a request (and abort the last), which spends the
 * server's validate_email rate limit for nothing.
 */
export const EMAIL_CHECK_DEBOUNCE_MS = 250
/** Spec §9: timezone default UTC. */
const DEFAULT_TIMEZONE = 'UTC'

type Errors = { email?: string; name?: string; password?: string }

export function AccountStep({
  site,
  company,
  network,
  onCreated,
  onClosed,
}: {
  site: string
  company: string
  network: NetworkEntry | null
  /** `user` null: the address had an account already; its owner was mailed. */
  onCreated: (user: AccountUser | null, email: string) => void
  /** Sign-ups closed meanwhile (403 signups_closed). */
  onClosed: () => void
}) {
  const uid = useId()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [check, setCheck] = useState<{ email: string; status: EmailStatus } | null>(null)
  const [checking, setChecking] = useState(false)
  const [alert, setAlert] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [legal, setLegal] = useState<LegalDoc | null>(null)
  // The texts load when first opened, then stay mounted (the dialog returns focus on close).
  const legalShown = useLegalShown(legal)
  const emailInput = useRef<HTMLInputElement>(null)

  const typed = email.trim()
  const suggestEmail = useEmailSuggester(typed !== '')
  const suggestion = useMemo(() => suggestEmail?.(typed) ?? null, [typed, suggestEmail])
  const status = check?.email === typed ? check.status : null
  const note = status ? emailStatusNote(status) : null

  useEffect(() => {
    if (!shouldCheckEmail(typed) || validateEmail(typed) !== null) {
      setChecking(false)
      return
    }
    const timer = setTimeout(() => {
      setChecking(true)
      void worker()
        .validateEmail(typed)
        .then((res) => {
          // Aborted: a newer check for a newer value is on its way.
          if (!res.ok) return
          setCheck({ email: typed, status: res.value.status })
          setChecking(false)
        })
    }, EMAIL_CHECK_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [typed])

  function fieldErrors(): Errors {
    const e = validateEmail(typed)
    const n = validateName(name, typed)
    const p = validateNewPassword(password)
    return {
      ...(e ? { email: errorText(e) } : {}),
      ...(n ? { name: errorText(n) } : {}),
      ...(p ? { password: errorText(p) } : {}),
    }
  }

  async function submit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault()
    const found = fieldErrors()
    setErrors(found)
    setAlert(null)
    const first = (['email', 'name', 'password'] as const).find((k) => found[k])
    if (first) {
      ev.currentTarget.querySelector<HTMLElement>(`#${CSS.escape(`${uid}-${first}`)}`)?.focus()
      return
    }
    setBusy(true)
    let known = status
    // The check may be aborted by the debounced check of the same address
    // starting meanwhile (the worker keeps only the newest): ask again once
    // rather than leave a click on "Sign up" without any effect.
    for (let attempt = 0; !known && attempt < 2; attempt++) {
      const res = await worker().validateEmail(typed)
      known = res.ok ? res.value.status : null
      if (known) setCheck({ email: typed, status: known })
    }
    // Spec §5: only an address the server calls new may sign up.
    if (known !== 'new') {
      setBusy(false)
      if (!known) setAlert(m.error_generic())
      emailInput.current?.focus()
      return
    }
    const res = await worker().signup({
      email: typed,
      name: effectiveName(name, typed),
      password,
      trafficsource: network,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIMEZONE,
      language: getLocale(),
      form_path: window.location.pathname,
      // The match finder's "where" becomes the profile's country.
      ...countryOfAnswers(),
      ...(document.referrer ? { referrer: document.referrer.slice(0, 2048) } : {}),
    })
    // Spec §8: a failed sign-up alerts with the error; the submit state resets.
    setBusy(false)
    if (res.ok) {
      onCreated(res.value.user, typed)
      return
    }
    const { error } = res
    if (error.code === 'signups_closed') onClosed()
    else if (error.field === 'email') setErrors({ email: errorText({ code: 'email_invalid' }) })
    else if (error.code === 'weak_password') setErrors({ password: failureText(error) })
    else setAlert(m.signup_failed({ error: failureText(error) }))
  }

  const ready = useIsClient()
  const emailError =
    errors.email ?? (note === 'invalid_email' ? errorText({ code: 'email_invalid' }) : undefined)
  return (
    <form
      method="post"
      className="form"
      onSubmit={(e) => void submit(e)}
      aria-busy={busy}
      noValidate
      // Set once the form has its handlers (after hydration on a prerendered
      // page): what browser tests wait for before they type.
      data-ready={ready ? '' : undefined}
    >
      <Field id={`${uid}-email`} label={m.signup_email()} error={emailError}>
        {(p) => (
          <input
            {...p}
            ref={emailInput}
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={EMAIL_MAX}
            value={email}
            onChange={(e) => {
              setEmail(e.target.value)
              setErrors(({ email: _e, ...rest }) => rest)
            }}
            onBlur={() => {
              const e = validateEmail(typed)
              if (typed !== '' && e) setErrors((x) => ({ ...x, email: errorText(e) }))
            }}
          />
        )}
      </Field>
      {suggestion && (
        <p className="suggestion">
          {m.signup_did_you_mean({ email: suggestion })}{' '}
          <button type="button" className="link-button" onClick={() => setEmail(suggestion)}>
            {m.signup_use_suggestion({ email: suggestion })}
          </button>
        </p>
      )}
      <div aria-live="polite" className="form__status">
        {checking && m.signup_email_checking()}
        {note === 'existing_account' && (
          <p className="note">
            {m.signup_email_exists()}{' '}
            <AppLink href="/login">{m.signup_email_exists_login()}</AppLink>
          </p>
        )}
        {note === 'deleted_account' && (
          <p className="note">
            {m.signup_email_deleted()} <a href="/pages/service">{m.signup_email_deleted_link()}</a>
          </p>
        )}
      </div>
      <Field
        id={`${uid}-name`}
        label={m.signup_name()}
        error={errors.name}
        hint={m.signup_name_hint()}
      >
        {(p) => (
          <input
            {...p}
            autoComplete="nickname"
            maxLength={NAME_MAX}
            value={name}
            placeholder={effectiveName('', typed)}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <Field id={`${uid}-password`} label={m.signup_password()} error={errors.password}>
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <p className="terms">
        {m.signup_terms_before()}{' '}
        <button type="button" className="link-button" onClick={() => setLegal('terms')}>
          {m.signup_terms_link()}
        </button>{' '}
        {m.signup_terms_and()}{' '}
        <button type="button" className="link-button" onClick={() => setLegal('privacy')}>
          {m.signup_privacy_link()}
        </button>
        .
      </p>
      <FormAlert text={alert} />
      <button type="submit" className="button" disabled={busy}>
        {busy ? m.signup_submitting() : m.signup_submit()}
      </button>
      {legalShown && (
        <Suspense fallback={null}>
          <LegalModal doc={legal} site={site} company={company} onClose={() => setLegal(null)} />
        </Suspense>
      )}
    </form>
  )
}

function countryOfAnswers(): { country?: string } {
  const answers = readMatchAnswers()
  return answers ? { country: answers.country } : {}
}
