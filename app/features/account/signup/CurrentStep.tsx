// The form of the step the sign-up is at (app/features/account/SignupPage.tsx).
import { lazy } from 'react'
import type { AccountUser, Settings } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import type { useSession } from '../../../data/session.ts'
import type { NetworkEntry } from '../../tracking/tracking.ts'
import { AccountStep } from '../forms/AccountStep.tsx'
import { type SignupEvent, type SignupState, STEP, type Step } from '../signup-steps.ts'
import { ProgressStep } from './ProgressStep.tsx'

// The steps after the first load when the visitor reaches them: a guest's
// first visit downloads only the account step.
const PushStep = lazy(() => import('./PushStep.tsx').then((mod) => ({ default: mod.PushStep })))
const PhotoStep = lazy(() => import('./PhotoStep.tsx').then((mod) => ({ default: mod.PhotoStep })))
const DoneStep = lazy(() => import('./DoneStep.tsx').then((mod) => ({ default: mod.DoneStep })))
const sections = () => import('../forms/sections.tsx')
const LocationSection = lazy(() => sections().then((mod) => ({ default: mod.LocationSection })))
const AboutSection = lazy(() => sections().then((mod) => ({ default: mod.AboutSection })))
const NotesSection = lazy(() => sections().then((mod) => ({ default: mod.NotesSection })))

export interface CurrentStepProps {
  state: SignupState
  settings: Settings
  network: NetworkEntry | null
  /** The signed-in member (the session's copy). */
  user: ReturnType<typeof useSession>['user']
  /** The account as created or read on resume. */
  account: AccountUser | null
  geolocate: boolean
  dispatch: (event: SignupEvent) => void
  onCreated: (user: AccountUser | null, email: string) => void
  onClosed: () => void
}

/** The step's form; rendered inside the page's Suspense (the later steps load when reached). */
export function CurrentStep(props: CurrentStepProps) {
  const { state, settings, network, user, account, dispatch } = props
  const next = () => dispatch({ type: 'next' })
  switch (state.step) {
    case STEP.account:
      return (
        <AccountStep
          site={settings.name}
          company={settings.company_name}
          network={network}
          onCreated={props.onCreated}
          onClosed={props.onClosed}
        />
      )
    case STEP.push:
      return (
        <PushStep
          pushPub={settings.push_pub}
          onDone={next}
          onHide={() => dispatch({ type: 'push_display', show: false })}
        />
      )
    case STEP.photo:
      return <PhotoStep initialThumb={user?.main_image?.thumb_filename ?? null} onDone={next} />
    case STEP.progress:
      return <ProgressStep tick={state.tick} />
    case STEP.done:
      return (
        <DoneStep
          email={user?.email ?? account?.email ?? ''}
          mailprovider={user?.mailprovider ?? account?.mailprovider ?? 0}
          sender={settings.name}
        />
      )
    default:
      return (
        <ProfileStep
          step={state.step}
          settings={settings}
          account={account}
          geolocate={props.geolocate}
          onSaved={next}
        />
      )
  }
}

/** Steps 3 to 5: the profile's location, about and notes sections. */
function ProfileStep({
  step,
  settings,
  account,
  geolocate,
  onSaved,
}: Pick<CurrentStepProps, 'settings' | 'account' | 'geolocate'> & {
  step: Step
  onSaved: () => void
}) {
  switch (step) {
    case STEP.location:
      return (
        <LocationSection
          settings={settings}
          user={account}
          geolocate={geolocate}
          submitLabel={m.signup_continue()}
          onSaved={onSaved}
        />
      )
    case STEP.about:
      return (
        <AboutSection
          settings={settings}
          user={account}
          submitLabel={m.signup_continue()}
          onSaved={onSaved}
        />
      )
    case STEP.notes:
      return (
        <NotesSection
          settings={settings}
          user={account}
          hint={m.signup_notes_hint()}
          submitLabel={m.signup_continue()}
          onSaved={onSaved}
        />
      )
    default:
      return null
  }
}
