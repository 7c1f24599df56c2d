// /signup: the eight-step sign-up (spec §2, §4). The transitions live in
// signup-steps.ts as a pure reducer; this page keeps its state, renders the
// step and carries out the effects it answers. Shared by the app's route
// and a guest's first load (the light entry, app/lander.tsx): no router here.
import { Suspense, useCallback, useEffect, useRef, useState } from 'react'
import type { AccountUser, Settings } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { session, useSession } from '../../data/session.ts'
import { useSettings } from '../../data/useSettings.ts'
import { worker } from '../../data/worker.ts'
import { AppLink, useAppNavigate } from '../../ui/AppLink.tsx'
import { captureNetwork, type NetworkEntry } from '../tracking/tracking.ts'
import { pollActivation } from './activation-poll.ts'
import { ownValues } from './forms/own-values.ts'
import { currentSubscription, pushCapable, pushOffer } from './push.ts'
import { CurrentStep } from './signup/CurrentStep.tsx'
import {
  FLOW_COMPLETE_EVENT,
  initialSignup,
  type PushOffer,
  progressPercent,
  type SignupEffect,
  type SignupEvent,
  STEP,
  STEP_COUNT,
  type Step,
  showInviteOnly,
  signupReducer,
  signupsEnabled,
} from './signup-steps.ts'

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

  if (settings === undefined) return <Loading />
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

function Loading() {
  return (
    <Page>
      <p role="status">{m.loading()}</p>
    </Page>
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
  const { user } = useSession()
  const { state, stepNow, dispatch, geolocate } = useSignupSteps(settings.push_pub)
  const [account, setAccount] = useState<AccountUser | null>(null)
  const [mailedTo, setMailedTo] = useState<string | null>(null)
  const ready = useResume(resume, settings.push_pub, dispatch, setAccount)
  useActivationPoll(state.step, stepNow, dispatch)
  const heading = useStepFocus(state.step)
  const earlyOffer = useEarlyPushOffer(settings.push_pub)

  async function created(newUser: AccountUser | null, email: string) {
    if (!newUser) {
      setMailedTo(email)
      return
    }
    setAccount(newUser)
    // Known while the member typed: the next step shows as the account answers.
    let push = await earlyOffer()
    if (push === 'unknown') push = await pushOffer(settings.push_pub)
    dispatch({ type: 'account_created', push })
  }

  if (mailedTo) return <CheckMail email={mailedTo} />
  if (!ready) return <Loading />

  const { step } = state
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
        <CurrentStep
          state={state}
          settings={settings}
          network={network}
          user={user}
          account={account}
          geolocate={geolocate}
          dispatch={dispatch}
          onCreated={(u, email) => void created(u, email)}
          onClosed={onClosed}
        />
      </Suspense>
    </Page>
  )
}

/**
 * The push state, asked as the flow opens: the service worker's readiness
 * (up to SW_READY_TIMEOUT_MS on a first visit, while it installs) is waited
 * for while the member fills in the first step, not after the account is
 * made, so the step after it shows at once. 'unknown' (the worker was not
 * ready yet) is asked again then.
 */
function useEarlyPushOffer(pushPub: string): () => Promise<PushOffer> {
  const offer = useRef<Promise<PushOffer> | null>(null)
  useEffect(() => {
    offer.current ??= pushOffer(pushPub)
  }, [pushPub])
  return () => (offer.current ??= pushOffer(pushPub))
}

/** A sign-up that needs the address confirmed first: the link is in the mail. */
function CheckMail({ email }: { email: string }) {
  return (
    <Page>
      <h2>{m.signup_check_mail_title()}</h2>
      <p>{m.signup_check_mail_body({ email })}</p>
    </Page>
  )
}

/**
 * The sign-up's state: the reducer's transitions, and the effects each one
 * asks for carried out. `stepNow` reads the step of the latest transition.
 */
function useSignupSteps(pushPub: string) {
  const [state, setState] = useState(() =>
    initialSignup(pushCapable(pushPub) && Notification.permission !== 'denied'),
  )
  const stateRef = useRef(state)
  const [geolocate, setGeolocate] = useState(false)
  const dispatch = useCallback((event: SignupEvent) => {
    const t = signupReducer(stateRef.current, event)
    stateRef.current = t.state
    setState(t.state)
    for (const effect of t.effects) void runEffect(effect, setGeolocate)
  }, [])
  const stepNow = useCallback(() => stateRef.current.step, [])
  return { state, stepNow, dispatch, geolocate }
}

/**
 * A member signed in on arrival resumes where spec §4 says (with auto-skip
 * over what is already filled in). Whether the page may show its step yet.
 */
function useResume(
  resume: boolean,
  pushPub: string,
  dispatch: (event: SignupEvent) => void,
  setAccount: (account: AccountUser) => void,
) {
  const navigate = useAppNavigate()
  const [ready, setReady] = useState(!resume)
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
      const offer = await pushOffer(pushPub)
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
  return ready
}

/** Step 6: poll every 900 ms (a tick = one answered poll) until delivered or 20 ticks. */
function useActivationPoll(
  step: Step,
  stepNow: () => Step,
  dispatch: (event: SignupEvent) => void,
) {
  useEffect(() => {
    if (step !== STEP.progress) return
    return pollActivation(
      async () => {
        const res = await worker().activationStatus()
        return res.ok && res.value.delivered
      },
      (delivered) => {
        dispatch({ type: 'activation_tick', delivered })
        return stepNow() === STEP.progress
      },
    )
  }, [step, stepNow, dispatch])
}

/** Focus moves to the step heading on every step change (not on arrival); the heading's ref. */
function useStepFocus(step: Step) {
  const heading = useRef<HTMLHeadingElement>(null)
  const firstStep = useRef(step)
  useEffect(() => {
    if (step !== firstStep.current) heading.current?.focus()
  }, [step])
  return heading
}
