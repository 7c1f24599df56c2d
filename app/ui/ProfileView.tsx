import { Star } from 'lucide-react'
import type { ComponentType } from 'react'
import type { Profile } from '../../api/contract/index.ts'
import { m } from '../../messages/paraglide/messages.js'
import { useSession } from '../data/session.ts'
import { useProfile } from '../data/useMembers.ts'
import { useSettings } from '../data/useSettings.ts'
import { fictionalIconOf } from '../data/view.ts'
import { fieldLabel, fieldValueLabel, noteLabel } from '../features/account/forms/profile-fields.ts'
import { PrivatePhotos } from '../features/credits/PrivatePhotos.tsx'
import { AppLink } from './AppLink.tsx'
import { formatCountry } from './format.ts'
import { Gallery } from './Gallery.tsx'
import { LastActive } from './LastActive.tsx'
import { NotFound } from './NotFound.tsx'
import type { ProfileActionsProps } from './ProfileActions.tsx'
import { VerifiedMark } from './VerifiedMark.tsx'

/**
 * The profile page (spec §2, optional auth): photos, name, age, place,
 * profile fields and notes; like/unlike and chat for a member, a sign-up call
 * to action for a guest. Fetched through the worker into the store, so a
 * profile seen before shows offline; a 404 shows the not-found page.
 * `Actions` are a member's (like, chat, report, block): the app's route
 * passes them; a guest's first load (the light entry) has no use for them.
 */
export function ProfileView({
  memberId,
  Actions,
}: {
  memberId: number
  Actions?: ComponentType<ProfileActionsProps>
}) {
  const { user } = useSession()
  const settings = useSettings()
  const { status, stored } = useProfile(memberId)

  if (status === 'missing') return <NotFound />
  const detail = stored?.detail?.detail
  // Seen only in a list so far: show what the list knew until the page arrives.
  const profile = detail ?? stored?.base
  if (!profile) {
    return (
      <main className="page page--narrow">
        <p role={status === 'failed' ? 'alert' : 'status'}>
          {status === 'failed' ? m.profile_not_saved() : m.loading()}
        </p>
      </main>
    )
  }
  const place = [
    profile.city,
    detail?.countryregion_name,
    profile.country ? formatCountry(profile.country, detail?.country_name) : detail?.country_name,
  ].filter(Boolean)
  const fields = Object.entries(detail?.profile_fields ?? {})
  // The member's own text, where the site shows it (settings.visible_profile_notes
  // names `personal`, as by default), and the notes the server let through.
  const showPersonal = settings?.visible_profile_notes.includes('personal') ?? true
  const personal = showPersonal ? profile.personal?.trim() : undefined
  const notes = Object.entries(detail?.notes ?? {}).filter(([key]) => key !== 'personal')
  const isMe = user?.profile.id === profile.id

  return (
    <main className="page profile-page">
      <Gallery name={profile.name} images={profile.images.filter((i) => !i.private)} />
      <div className="profile-page__body">
        <ProfileHeading
          profile={profile}
          fictionalIcon={profile.fictional && fictionalIconOf(settings)}
          place={place}
        />
        {user && stored?.detail?.likedMe && (
          <p className="badge badge--like">{m.profile_liked_you({ name: profile.name })}</p>
        )}
        {user ? (
          !isMe && Actions && <Actions profile={profile} liked={stored?.liked ?? false} />
        ) : (
          <GuestCta name={profile.name} />
        )}
        {user && (
          <PrivatePhotos
            memberId={profile.id}
            name={profile.name}
            unlocked={profile.images.filter((i) => i.private)}
            locked={detail?.locked_photos ?? []}
          />
        )}
        {fields.length > 0 && <ProfileFields fields={fields} />}
        {(notes.length > 0 || personal) && <ProfileNotes personal={personal} notes={notes} />}
        {user && (
          <p>
            <AppLink href="/members">{m.profile_back()}</AppLink>
          </p>
        )}
      </div>
    </main>
  )
}

/** The name with the fictional and verified marks, then age, place and last activity. */
function ProfileHeading({
  profile,
  fictionalIcon,
  place,
}: {
  profile: Profile
  /** Whether the fictional mark shows (a fictional profile, where the site marks them). */
  fictionalIcon: boolean
  place: (string | null | undefined)[]
}) {
  return (
    <>
      <h1 className="profile-page__name">
        {profile.name}
        {fictionalIcon && (
          <span className="tile__fictional" title={m.tile_fictional()}>
            <Star className="icon" fill="currentColor" aria-hidden="true" />
            <span className="visually-hidden">{m.tile_fictional()}</span>
          </span>
        )}
        <VerifiedMark verified={profile.verified} />
      </h1>
      <p className="profile-page__meta">
        {m.tile_age({ age: profile.age })}
        {place.length > 0 && ` · ${place.join(', ')}`}
        <LastActive lastActive={profile.last_active} />
      </p>
    </>
  )
}

/** A guest's call to sign up (or log in) to meet the member. */
function GuestCta({ name }: { name: string }) {
  return (
    <section className="signup-cta" aria-labelledby="signup-cta-title">
      <h2 id="signup-cta-title">{m.profile_guest_cta_title({ name })}</h2>
      <p>{m.profile_guest_cta_body({ name })}</p>
      <a className="button" href="/signup">
        {m.profile_guest_signup()}
      </a>{' '}
      <AppLink href="/login">{m.profile_guest_login()}</AppLink>
    </section>
  )
}

/** The member's profile fields as a list of labels and values. */
function ProfileFields({ fields }: { fields: [string, string][] }) {
  return (
    <section aria-labelledby="profile-details">
      <h2 id="profile-details">{m.member_details_title()}</h2>
      <dl className="profile-page__fields">
        {fields.map(([key, value]) => (
          <div key={key}>
            <dt>{fieldLabel(key)}</dt>
            <dd>{fieldValueLabel(key, value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

/** The member's own text and the notes shown, each under its label. */
function ProfileNotes({
  personal,
  notes,
}: {
  personal: string | undefined
  notes: [string, string][]
}) {
  return (
    <section className="profile-page__notes" aria-labelledby="profile-notes">
      <h2 id="profile-notes">{m.member_notes_title()}</h2>
      {personal && <p className="profile-page__personal">{personal}</p>}
      {notes.map(([key, value]) => (
        <div key={key} className="profile-page__note">
          <h3>{noteLabel(key)}</h3>
          <p>{value}</p>
        </div>
      ))}
    </section>
  )
}
