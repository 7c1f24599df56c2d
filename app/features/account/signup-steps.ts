// Spec §4 sign-up transitions as a pure state machine. The /signup route
// keeps a SignupState, feeds it events and carries out the effects the
// reducer answers (geolocation, activation polling, the flow-complete event,
// saving the reached step). Nothing here touches the browser, so every
// transition is a row in signup-steps.test.ts.

import { signupsOpen } from '../../../api/contract/rules/signups.ts'

/** Spec §2: eight steps, 0-7. */
export const STEP = {
  account: 0,
  push: 1,
  photo: 2,
  location: 3,
  about: 4,
  notes: 5,
  progress: 6,
  done: 7,
} as const
export type Step = (typeof STEP)[keyof typeof STEP]
/** Spec §4: reaching step 7 emits a flow-complete event (on window, for analytics and tests). */
export const FLOW_COMPLETE_EVENT = 'amora:signup-complete'
export const STEP_COUNT = 8
/** Spec §9: the progress bar divides by 6 (step 6 already shows a full bar). */
export const PROGRESS_DIVISOR = 6
/** Spec §9: the activation progress polls every 900 ms, 20 ticks at most ... */
export const ACTIVATION_TICK_MS = 900
export const ACTIVATION_TICKS = 20
/** ... and its text changes at ticks 4, 7 and 10. */
export const ACTIVATION_TEXT_TICKS = [4, 7, 10] as const

/**
 * Spec §4 push states as the sign-up sees them right after the account exists:
 * `subscribed` = supported and the browser already holds a subscription,
 * `undecided` = supported, permission not yet asked, `denied` = the browser
 * refused, `unsupported` = no Notification/PushManager or no server key,
 * `unknown` = the check failed.
 */
export type PushOffer = 'subscribed' | 'undecided' | 'denied' | 'unsupported' | 'unknown'

export interface SignupState {
  step: Step
  /** Spec §4 "push display": whether step 1 may be shown. */
  showPush: boolean
  /** Ticks of the step 6 progress (0 before it starts). */
  tick: number
}

export type SignupEffect =
  /** Spec §4: reaching step 3 requests geolocation. */
  | { type: 'request_geolocation' }
  /** Step 6: poll GET /api/activate.php every ACTIVATION_TICK_MS. */
  | { type: 'poll_activation' }
  /** Spec §4: reaching step 7 emits a flow-complete event. */
  | { type: 'flow_complete' }
  /** The browser's existing subscription is added to the new account. */
  | { type: 'add_push_subscription' }
  /** PUT /api/user.php {profile: {lastSignupStep}} so /complete-signup can resume. */
  | { type: 'save_step'; step: Step }

/** Profile fields the resume rule looks at (spec §4). */
export interface ResumeProfile {
  countryregion?: string | null
  city?: string | null
  gender?: string | null
  date_of_birth?: string | null
  personal?: string | null
}

export type SignupEvent =
  | { type: 'account_created'; push: PushOffer }
  /** The member finished (or skipped) the current step. */
  | { type: 'next' }
  | { type: 'push_display'; show: boolean }
  | {
      type: 'resume'
      hasMainImage: boolean
      pushOffered: boolean
      autoSkip: boolean
      profile: ResumeProfile
    }
  /** One step-6 poll answered; `delivered` = the activation mail went out. */
  | { type: 'activation_tick'; delivered: boolean }

export interface Transition {
  state: SignupState
  effects: SignupEffect[]
}

export const initialSignup = (showPush: boolean): SignupState => ({ step: 0, showPush, tick: 0 })

const present = (v: string | null | undefined) => typeof v === 'string' && v.trim() !== ''

/** What entering a step sets off. */
export function effectsOnEnter(step: Step): SignupEffect[] {
  const effects: SignupEffect[] = []
  if (step > STEP.account) effects.push({ type: 'save_step', step })
  if (step === STEP.location) effects.push({ type: 'request_geolocation' })
  if (step === STEP.progress) effects.push({ type: 'poll_activation' })
  if (step === STEP.done) effects.push({ type: 'flow_complete' })
  return effects
}

function enter(state: SignupState, step: Step, extra: SignupEffect[] = []): Transition {
  if (step === state.step) return { state, effects: extra }
  return {
    state: { ...state, step, tick: step === STEP.progress ? 0 : state.tick },
    effects: [...extra, ...effectsOnEnter(step)],
  }
}

/** Spec §4: the step after account creation, by push state. */
export function stepAfterAccount(push: PushOffer): { step: Step; addSubscription: boolean } {
  switch (push) {
    // Already subscribed: add it to the account and jump 2 steps, to the photo.
    case 'subscribed':
      return { step: STEP.photo, addSubscription: true }
    case 'undecided':
      return { step: STEP.push, addSubscription: false }
    case 'denied':
    case 'unsupported':
    case 'unknown':
      return { step: STEP.photo, addSubscription: false }
  }
}

/**
 * Spec §4: a signed-in member resuming starts at 1, or 2 without a push
 * option, or 3 with a main image; with auto-skip, region or city set gives 4,
 * gender or date of birth 5, personal text 6 (each later rule wins).
 */
export function resumeStep(e: Extract<SignupEvent, { type: 'resume' }>): Step {
  let step: Step = e.pushOffered ? STEP.push : STEP.photo
  if (e.hasMainImage) step = STEP.location
  if (e.autoSkip) {
    const p = e.profile
    if (present(p.countryregion) || present(p.city)) step = STEP.about
    if (present(p.gender) || present(p.date_of_birth)) step = STEP.notes
    if (present(p.personal)) step = STEP.progress
  }
  return step
}

/** The step-6 text shown at a tick: 0 before tick 4, then 1, 2, 3. */
export const activationTextIndex = (tick: number): number =>
  ACTIVATION_TEXT_TICKS.filter((t) => tick >= t).length

/** Progress bar fill in percent (spec §9 divisor 6), capped at 100. */
export const progressPercent = (step: number): number =>
  Math.min(100, Math.round((step / PROGRESS_DIVISOR) * 100))

export function signupReducer(state: SignupState, event: SignupEvent): Transition {
  switch (event.type) {
    case 'account_created': {
      if (state.step !== STEP.account) return { state, effects: [] }
      const after = stepAfterAccount(event.push)
      const showPush = event.push === 'undecided' && state.showPush
      // Push not on display: the push step is skipped.
      const step = after.step === STEP.push && !showPush ? STEP.photo : after.step
      const extra: SignupEffect[] = after.addSubscription ? [{ type: 'add_push_subscription' }] : []
      return enter({ ...state, showPush }, step, extra)
    }
    case 'next': {
      // Steps 0 and 6 end by their own events (account creation, activation).
      if (state.step === STEP.account || state.step >= STEP.progress) return { state, effects: [] }
      return enter(state, (state.step + 1) as Step)
    }
    case 'push_display': {
      const next = { ...state, showPush: event.show }
      // The push step is skipped when push display becomes false.
      if (!event.show && state.step === STEP.push) return enter(next, STEP.photo)
      return { state: next, effects: [] }
    }
    case 'resume': {
      // Only a fresh flow resumes; a running one keeps its place.
      if (state.step !== STEP.account) return { state, effects: [] }
      return enter({ ...state, showPush: event.pushOffered }, resumeStep(event))
    }
    case 'activation_tick': {
      if (state.step !== STEP.progress) return { state, effects: [] }
      const tick = state.tick + 1
      // Step 6 ends when delivery is confirmed or after the last tick.
      if (event.delivered || tick >= ACTIVATION_TICKS) return enter({ ...state, tick }, STEP.done)
      return { state: { ...state, tick }, effects: [] }
    }
  }
}

/**
 * Spec §5: sign-ups are enabled when settings.signups is `all`, or
 * `with_trafficsource` together with a network tracking entry.
 */
export function signupsEnabled(
  signups: 'all' | 'with_trafficsource' | 'other',
  network: { network: string } | null,
): boolean {
  return signupsOpen(signups, network?.network)
}

/** Spec §2: a logged-out visitor sees the invite-only notice when sign-ups are off. */
export const showInviteOnly = (enabled: boolean, loggedIn: boolean): boolean =>
  !enabled && !loggedIn
