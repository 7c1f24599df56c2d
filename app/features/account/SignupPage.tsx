// /signup: the eight-step sign-up (spec §2, §4). The transitions live in
// signup-steps.ts as a pure reducer; this page keeps its state, renders the
// step and carries out the effects it answers. Shared by the app's route
// and a guest's first load (the light entry, app/lander.tsx): no router here.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import type { AccountUser, Settings } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { session, useSession } from '../../data/session.ts'
import { useSettings } from '../../data/useSettings.ts'
import { worker } from '../../data/worker.ts'
import { AppLink, useAppNavigate } from '../../ui/AppLink.tsx'
import { AccountStep } from './forms/AccountStep.tsx'
import { ownValues } from './forms/own-values.ts'
import { currentSubscription, pushCapable, pushOffer } from './push.ts'
import { pollActivation } from './activation-poll.ts'
import {
  FLOW_COMPLETE_EVENT,
  initialSignup,
  progressPercent,
  type SignupEffect,
  type SignupEvent,
  STEP,
  STEP_COUNT,
  showInviteOnly,
  signupReducer,
  signupsEnabled,
} from './signup-steps.ts'
import { captureNetwork, type NetworkEntry } from '../tracking/tracking.ts'
import { ProgressStep } from './signup/ProgressStep.tsx'

// The steps after the first load when the visitor reaches them: a guest's
// first visit downloads only the account step.
const PushStep = lazy(() =>
  import('./signup/PushStep.tsx').then((mod) => ({ default: mod.PushStep })),
)
const PhotoStep = lazy(() =>
  import('./signup/PhotoStep.tsx').then((mod) => ({ default: mod.PhotoStep })),
)
const DoneStep = lazy(() =>
  import('./signup/DoneStep.tsx').then((mod) => ({ default: mod.DoneStep })),
)
const sections = () => import('./forms/sections.tsx')
const LocationSection = lazy(() => sections().then((mod) => ({ default: mod.LocationSection })))
const AboutSection = lazy(() => sections().then((mod) => ({ default: mod.AboutSection })))
const NotesSection = lazy(() => sections().then((mod) => ({ default: mod.NotesSection })))

const TITLES = [
  m.signup_account_title,
  m.signup_push_title,
  m.signup_photo_title,
  m.signup_location_title,
  m.signup_about_title,
  m.signup_notes_title,
  m.signup_progress_title,
  m.signup_done_title,
]

export function SignupPage() {
  // The one stored copy of the settings (app/data/useSettings.ts).
  const settings = useSettings()
  const { user } = useSession()
  const [network] = useState(captureNetwork)
  // A member signed in on arrival resumes (spec §4); one who signs up here does not.
  const [resume] = useState(() => session.get().user !== null)
  const [closed, setClosed] = useState(false)

  if (settings === undefined)
    return (
      <Page>
        <p role="status">{m.loading()}</p>
      </Page>
    )
  const enabled = !closed && signupsEnabled(settings.signups, network)
  if (showInviteOnly(enabled, user !== null)) return <InviteOnly />
  return (
    <SignupFlow
      settings={settings}
      network={network}
      resume={resume}
      onClosed={() => setClosed(true)}
    />
  )
}

function Page({ children }: { children: React.ReactNode }) {
  return (
    <main className="page page--narrow signup">
      <h1>{m.signup_title()}</h1>
      {children}
    </main>
  )
}

/** Spec §2: sign-ups disabled and logged out: an invite-only notice with a login link. */
function InviteOnly() {
  return (
    <main className="page page--narrow">
      <h1>{m.signup_invite_only_title()}</h1>
      <p>{m.signup_invite_only_body()}</p>
      <AppLink href="/login">{m.signup_invite_only_login()}</AppLink>
    </main>
  )
}

/** Carries out what a transition asks for (spec §4); failures are logged (spec §8). */
async function runEffect(effect: SignupEffect, setGeolocate: (on: boolean) => void) {
  switch (effect.type) {
    case 'request_geolocation':
      setGeolocate(true)
      return
    case 'save_step': {
      const res = await worker().updateAccount({ profile: { lastSignupStep: effect.step } })
      if (!res.ok) console.warn('saving the sign-up step failed', res.error)
      return
    }
    case 'add_push_subscription': {
      const sub = await currentSubscription()
      if (sub?.endpoint) {
        const { endpoint, expirationTime, keys } = sub
        const res = await worker().addPushSubscription({ endpoint, expirationTime, keys })
        if (!res.ok) console.warn('adding the push subscription failed', res.error)
      }
      return
    }
    case 'flow_complete':
      window.dispatchEvent(new CustomEvent(FLOW_COMPLETE_EVENT))
      return
    case 'poll_activation':
      return // SignupFlow polls while step 6 shows
  }
}

function SignupFlow({
  settings,
  network,
  resume,
  onClosed,
}: {
  settings: Settings
  network: NetworkEntry | null
  resume: boolean
  onClosed: () => void
}) {
  const navigate = useAppNavigate()
  const { user } = useSession()
  const [state, setState] = useState(() =>
    initialSignup(pushCapable(settings.push_pub) && Notification.permission !== 'denied'),
  )
  const stateRef = useRef(state)
  const [ready, setReady] = useState(!resume)
  const [account, setAccount] = useState<AccountUser | null>(null)
  const [geolocate, setGeolocate] = useState(false)
  const [mailedTo, setMailedTo] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  const dispatch = useCallback((event: SignupEvent) => {
    const t = signupReducer(stateRef.current, event)
    stateRef.current = t.state
    setState(t.state)
    for (const effect of t.effects) void runEffect(effect, setGeolocate)
  }, [])

  // Resume where spec §4 says (with auto-skip over what is already filled in).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    if (!resume) return
    void (async () => {
      const res = await worker().account()
      if (!res.ok) {
        setReady(true)
        return
      }
      if (res.value.account.last_signup_step >= STEP.done) {
        navigate('/members')
        return
      }
      setAccount(res.value)
      const offer = await pushOffer(settings.push_pub)
      const own = ownValues(res.value)
      dispatch({
        type: 'resume',
        hasMainImage: res.value.main_image !== null,
        pushOffered: offer === 'undecided' && !res.value.account.has_push_subscription,
        autoSkip: true,
        profile: own,
      })
      setReady(true)
    })()
  }, [])

  // Step 6: poll every 900 ms (a tick = one answered poll) until delivered or 20 ticks.
  useEffect(() => {
    if (state.step !== STEP.progress) return
    return pollActivation(
      async () => {
        const res = await worker().activationStatus()
        return res.ok && res.value.delivered
      },
      (delivered) => {
        dispatch({ type: 'activation_tick', delivered })
        return stateRef.current.step === STEP.progress
      },
    )
  }, [state.step, dispatch])

  // Focus moves to the step heading on every step change (not on arrival).
  const firstStep = useRef(state.step)
  useEffect(() => {
    if (state.step !== firstStep.current) heading.current?.focus()
  }, [state.step])

  async function created(newUser: AccountUser | null, email: string) {
    if (!newUser) {
      setMailedTo(email)
      return
    }
    setAccount(newUser)
    dispatch({ type: 'account_created', push: await pushOffer(settings.push_pub) })
  }

  if (mailedTo) {
    return (
      <Page>
        <h2>{m.signup_check_mail_title()}</h2>
        <p>{m.signup_check_mail_body({ email: mailedTo })}</p>
      </Page>
    )
  }
  if (!ready)
    return (
      <Page>
        <p role="status">{m.loading()}</p>
      </Page>
    )

  const { step } = state
  const next = () => dispatch({ type: 'next' })
  const title = TITLES[step] ?? m.signup_done_title
  return (
    <Page>
      <div className="signup__progress">
        <progress max={100} value={progressPercent(step)} aria-label={m.signup_progress_label()} />
        <span>{m.signup_step_of({ step: step + 1, total: STEP_COUNT })}</span>
      </div>
      <h2 ref={heading} tabIndex={-1}>
        {title()}
      </h2>
      <Suspense fallback={null}>
        {step === STEP.account && (
          <AccountStep
            site={settings.name}
            company={settings.company_name}
            network={network}
            onCreated={(u, email) => void created(u, email)}
            onClosed={onClosed}
          />
        )}
        {step === STEP.push && (
          <PushStep
            pushPub={settings.push_pub}
            onDone={next}
            onHide={() => dispatch({ type: 'push_display', show: false })}
          />
        )}
        {step === STEP.photo && (
          <PhotoStep initialThumb={user?.main_image?.thumb_filename ?? null} onDone={next} />
        )}
        {step === STEP.location && (
          <LocationSection
            settings={settings}
            user={account}
            geolocate={geolocate}
            submitLabel={m.signup_continue()}
            onSaved={next}
          />
        )}
        {step === STEP.about && (
          <AboutSection
            settings={settings}
            user={account}
            submitLabel={m.signup_continue()}
            onSaved={next}
          />
        )}
        {step === STEP.notes && (
          <NotesSection
            settings={settings}
            user={account}
            hint={m.signup_notes_hint()}
            submitLabel={m.signup_continue()}
            onSaved={next}
          />
        )}
        {step === STEP.progress && <ProgressStep tick={state.tick} />}
        {step === STEP.done && (
          <DoneStep
            email={user?.email ?? account?.email ?? ''}
            mailprovider={user?.mailprovider ?? account?.mailprovider ?? 0}
            sender={settings.name}
          />
        )}
      </Suspense>
    </Page>
  )
}
