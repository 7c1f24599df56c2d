// Step 0 (spec §2, §5): email, name and password with the accept-terms text.
// The email is checked with the server once it holds @ and a dot (a newer
// check aborts the older one in the worker), and a mistyped provider domain
// gets a "did you mean" button that replaces the address. A press of "Sign
// up" always sends the sign-up or shows why not (useEmailCheck).
import {
  type Dispatch,
  type FormEvent,
  lazy,
  type RefObject,
  type SetStateAction,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { AccountUser, EmailStatus } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { getLocale } from '../../../../messages/paraglide/runtime.js'
import { worker } from '../../../data/worker.ts'
import { AppLink } from '../../../ui/AppLink.tsx'
import { useIsClient } from '../../../ui/use-client.ts'
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

/**
 * The server's answer about one address: a spec §3 status, or `disposable`
 * for its 422 disposable_email (a throw-away domain, docs/accounts.md).
 */
type CheckStatus = EmailStatus | 'disposable'
type EmailAnswer = { email: string; status: CheckStatus }

/**
 * The server's email check of the typed address (spec §5): run after a pause
 * in typing, and asked for by a press of "Sign up" through `answerFor`.
 * Only an answer of the server counts; a check that was superseded or failed
 * (server trouble, the rate limit, no network) leaves the address unknown
 * rather than calling it invalid.
 */
function useEmailCheck(typed: string) {
  const [answer, setAnswer] = useState<EmailAnswer | null>(null)
  const [checkingFor, setCheckingFor] = useState<string | null>(null)
  // The newest answer and the check under way, for a press between renders.
  const known = useRef<EmailAnswer | null>(null)
  const pending = useRef<{ email: string; status: Promise<CheckStatus | null> } | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const run = useCallback((email: string): Promise<CheckStatus | null> => {
    setCheckingFor(email)
    const status: Promise<CheckStatus | null> = worker()
      .validateEmail(email)
      .then((res) => {
        if (res.ok) return res.value.status
        return res.error.code === 'disposable_email' ? 'disposable' : null
      })
      .then((got) => {
        if (got) {
          known.current = { email, status: got }
          setAnswer(known.current)
        }
        // A newer check (of this or another address) says when it is done.
        if (pending.current?.status === status) {
          pending.current = null
          setCheckingFor(null)
        }
        return got
      })
    pending.current = { email, status }
    return status
  }, [])

  useEffect(() => {
    if (!shouldCheckEmail(typed) || validateEmail(typed) !== null) return
    timer.current = setTimeout(() => void run(typed), EMAIL_CHECK_DEBOUNCE_MS)
    return () => clearTimeout(timer.current)
  }, [typed, run])

  /**
   * The status of `email` for a press of "Sign up": the answer known, else
   * that of the check under way (awaited, not aborted), else a check run now.
   * The debounced check is called off first, so nothing the page starts
   * supersedes it. null: no answer could be had.
   */
  const answerFor = useCallback(
    async (email: string): Promise<CheckStatus | null> => {
      clearTimeout(timer.current)
      if (known.current?.email === email) return known.current.status
      const under = pending.current?.email === email ? await pending.current.status : null
      return under ?? (await run(email))
    },
    [run],
  )

  return {
    status: answer?.email === typed ? answer.status : null,
    checking: checkingFor !== null && checkingFor === typed,
    answerFor,
  }
}

type Errors = { email?: string; name?: string; password?: string }

/** The fields' own errors (spec §5), before the server is asked. */
function fieldErrorsOf(typed: string, name: string, password: string): Errors {
  const e = validateEmail(typed)
  const n = validateName(name, typed)
  const p = validateNewPassword(password)
  return {
    ...(e ? { email: errorText(e) } : {}),
    ...(n ? { name: errorText(n) } : {}),
    ...(p ? { password: errorText(p) } : {}),
  }
}

/** The sign-up request of the typed values, with what the browser knows of the visitor. */
function signupRequest(
  typed: string,
  name: string,
  password: string,
  network: NetworkEntry | null,
) {
  return {
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
  }
}

interface AccountStepProps {
  site: string
  company: string
  network: NetworkEntry | null
  /** `user` null: the address had an account already; its owner was mailed. */
  onCreated: (user: AccountUser | null, email: string) => void
  /** Sign-ups closed meanwhile (403 signups_closed). */
  onClosed: () => void
}

/**
 * The press of "Sign up": the fields' errors (focus on the first), the
 * server's email answer, then the sign-up; its state is the form's errors,
 * alert and busy flag.
 */
function useSignupSubmit(
  { uid, typed, name, password }: { uid: string; typed: string; name: string; password: string },
  answerFor: (email: string) => Promise<CheckStatus | null>,
  emailInput: RefObject<HTMLInputElement | null>,
  { network, onCreated, onClosed }: Pick<AccountStepProps, 'network' | 'onCreated' | 'onClosed'>,
) {
  const [errors, setErrors] = useState<Errors>({})
  const [alert, setAlert] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault()
    const found = fieldErrorsOf(typed, name, password)
    setErrors(found)
    setAlert(null)
    const first = (['email', 'name', 'password'] as const).find((k) => found[k])
    if (first) {
      ev.currentTarget.querySelector<HTMLElement>(`#${CSS.escape(`${uid}-${first}`)}`)?.focus()
      return
    }
    setBusy(true)
    const known = await answerFor(typed)
    // Spec §5: an address the server knows or calls invalid does not sign up;
    // its note or error shows at the field. Without an answer (the check
    // failed) the sign-up goes and the server's own validation decides: a
    // press of "Sign up" never ends in nothing (docs/accounts.md).
    if (known !== null && known !== 'new') {
      setBusy(false)
      emailInput.current?.focus()
      return
    }
    const res = await worker().signup(signupRequest(typed, name, password, network))
    // Spec §8: a failed sign-up alerts with the error; the submit state resets.
    setBusy(false)
    if (res.ok) {
      onCreated(res.value.user, typed)
      return
    }
    const { error } = res
    if (error.code === 'signups_closed') onClosed()
    else if (error.code === 'disposable_email') setErrors({ email: m.signup_email_disposable() })
    else if (error.field === 'email') setErrors({ email: errorText({ code: 'email_invalid' }) })
    else if (error.code === 'weak_password') setErrors({ password: failureText(error) })
    else setAlert(m.signup_failed({ error: failureText(error) }))
  }

  return { errors, setErrors, alert, busy, submit }
}

export function AccountStep(props: AccountStepProps) {
  const uid = useId()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [legal, setLegal] = useState<LegalDoc | null>(null)
  // The texts load when first opened, then stay mounted (the dialog returns focus on close).
  const legalShown = useLegalShown(legal)
  const emailInput = useRef<HTMLInputElement>(null)

  const typed = email.trim()
  const suggestEmail = useEmailSuggester(typed !== '')
  const suggestion = useMemo(() => suggestEmail?.(typed) ?? null, [typed, suggestEmail])
  const { status, checking, answerFor } = useEmailCheck(typed)
  const note = status && status !== 'disposable' ? emailStatusNote(status) : null
  const { errors, setErrors, alert, busy, submit } = useSignupSubmit(
    { uid, typed, name, password },
    answerFor,
    emailInput,
    props,
  )

  const ready = useIsClient()
  const emailError =
    errors.email ??
    (status === 'disposable'
      ? m.signup_email_disposable()
      : note === 'invalid_email'
        ? errorText({ code: 'email_invalid' })
        : undefined)
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
      <EmailField
        uid={uid}
        error={emailError}
        emailInput={emailInput}
        email={email}
        typed={typed}
        setEmail={setEmail}
        setErrors={setErrors}
      />
      <EmailNotes suggestion={suggestion} checking={checking} note={note} onUse={setEmail} />
      <NameAndPassword
        uid={uid}
        errors={errors}
        typed={typed}
        name={name}
        setName={setName}
        password={password}
        setPassword={setPassword}
      />
      <TermsLine onOpen={setLegal} />
      <FormAlert text={alert} />
      <button type="submit" className="button" disabled={busy}>
        {busy ? m.signup_submitting() : m.signup_submit()}
      </button>
      {legalShown && (
        <Suspense fallback={null}>
          <LegalModal
            doc={legal}
            site={props.site}
            company={props.company}
            onClose={() => setLegal(null)}
          />
        </Suspense>
      )}
    </form>
  )
}

function countryOfAnswers(): { country?: string } {
  const answers = readMatchAnswers()
  return answers ? { country: answers.country } : {}
}

/** The accept-terms sentence, its two texts opened in a dialog. */
function TermsLine({ onOpen }: { onOpen: (doc: LegalDoc) => void }) {
  return (
    <p className="terms">
      {m.signup_terms_before()}{' '}
      <button type="button" className="link-button" onClick={() => onOpen('terms')}>
        {m.signup_terms_link()}
      </button>{' '}
      {m.signup_terms_and()}{' '}
      <button type="button" className="link-button" onClick={() => onOpen('privacy')}>
        {m.signup_privacy_link()}
      </button>
      .
    </p>
  )
}

/** Under the email field: the "did you mean" button, the check under way, what the server knows of the address. */
function EmailNotes({
  suggestion,
  checking,
  note,
  onUse,
}: {
  suggestion: string | null
  checking: boolean
  note: ReturnType<typeof emailStatusNote> | null
  onUse: (email: string) => void
}) {
  return (
    <>
      {suggestion && (
        <p className="suggestion">
          {m.signup_did_you_mean({ email: suggestion })}{' '}
          <button type="button" className="link-button" onClick={() => onUse(suggestion)}>
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
    </>
  )
}

/** The name (the address's start when left empty) and the new password. */
function NameAndPassword({
  uid,
  errors,
  typed,
  name,
  setName,
  password,
  setPassword,
}: {
  uid: string
  errors: Errors
  typed: string
  name: string
  setName: (name: string) => void
  password: string
  setPassword: (password: string) => void
}) {
  return (
    <>
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
    </>
  )
}

/** The address, its errors cleared while typing and checked on leaving the field. */
function EmailField({
  uid,
  error,
  emailInput,
  email,
  typed,
  setEmail,
  setErrors,
}: {
  uid: string
  error: string | undefined
  emailInput: RefObject<HTMLInputElement | null>
  email: string
  typed: string
  setEmail: (email: string) => void
  setErrors: Dispatch<SetStateAction<Errors>>
}) {
  return (
    <Field id={`${uid}-email`} label={m.signup_email()} error={error}>
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
  )
}
