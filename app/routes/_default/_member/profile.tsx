// /profile (spec §2, required): the member edits their own profile, photos,
// location and notes, changes the email address, sees and ends the sessions
// of their other devices and can delete the account.
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { AccountUser, Settings } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { useAccount } from '../../../data/useAccount.ts'
import { useSettings } from '../../../data/useSettings.ts'
import {
  AboutSection,
  LocationSection,
  NotesSection,
} from '../../../features/account/forms/sections.tsx'
import { LanguageSwitcher } from '../../../ui/LanguageSwitcher.tsx'
import { showToast } from '../../../ui/toasts.ts'
import { VerifiedMark } from '../../../ui/VerifiedMark.tsx'
import { DataExport } from './profile/-components/DataExport.tsx'
import { DeleteAccount } from './profile/-components/DeleteAccount.tsx'
import { EmailSection } from './profile/-components/EmailSection.tsx'
import { Photos } from './profile/-components/Photos.tsx'
import { Sessions } from './profile/-components/Sessions.tsx'

export const Route = createFileRoute('/_default/_member/profile')({
  component: ProfilePage,
})

function ProfilePage() {
  const [version, setVersion] = useState(0)
  // Settings, user and account part all come from the store (the worker keeps
  // them fresh), so the page shows offline what was last synced.
  const settings = useSettings()
  const { user } = useSession()
  const { account: own, error } = useAccount()
  const saved = () => {
    showToast({ kind: 'info', body: m.profile_saved() })
    setVersion((v) => v + 1)
  }
  const account = user && own ? { ...user, account: own } : undefined

  if (settings === undefined || account === undefined) {
    return (
      <main className="page page--narrow">
        <h1>{m.profile_title()}</h1>
        {error && error.code !== 'offline' ? (
          <p role="alert">{m.error_generic()}</p>
        ) : (
          <p role="status">{m.loading()}</p>
        )}
      </main>
    )
  }
  return (
    <main className="page page--narrow profile">
      <h1>{m.profile_title()}</h1>
      {!account.account.activated && <p className="note">{m.profile_not_activated()}</p>}
      {account.account.hidden_as_fake && (
        <p className="note" role="status">
          {m.profile_hidden_as_fake()} <Link to="/verify">{m.verify_title()}</Link>
        </p>
      )}
      <PhotosSection verified={user?.profile.verified} />
      <ProfileForms version={version} settings={settings} account={account} onSaved={saved} />
      <EmailSection
        email={account.email}
        pending={account.account.pending_email}
        onChange={() => setVersion((v) => v + 1)}
      />
      <section aria-labelledby="profile-language">
        <h2 id="profile-language">{m.footer_language()}</h2>
        {/* Spec §4: the same switcher as the footer's (locale cookie). */}
        <LanguageSwitcher />
      </section>
      <Sessions />
      <DataExport />
      <DeleteAccount />
    </main>
  )
}

/** The member's photos, then the verified mark or the way to verification. */
function PhotosSection({ verified }: { verified: boolean | undefined }) {
  return (
    <section aria-labelledby="profile-photos">
      <h2 id="profile-photos">{m.profile_photos()}</h2>
      <Photos />
      <p>
        {verified ? (
          <>
            <VerifiedMark verified /> {m.verify_done()}
          </>
        ) : (
          <Link to="/verify">{m.verify_title()}</Link>
        )}
      </p>
    </section>
  )
}

/** The location, about and notes forms, each remounted with the saved values after a save. */
function ProfileForms({
  version,
  settings,
  account,
  onSaved,
}: {
  version: number
  settings: Settings
  account: AccountUser
  onSaved: () => void
}) {
  return (
    <>
      <section aria-labelledby="profile-location">
        <h2 id="profile-location">{m.profile_location()}</h2>
        <LocationSection
          key={`l${version}`}
          settings={settings}
          user={account}
          geolocate={false}
          submitLabel={m.profile_save()}
          onSaved={onSaved}
        />
      </section>
      <section aria-labelledby="profile-about">
        <h2 id="profile-about">{m.profile_about()}</h2>
        <AboutSection
          key={`a${version}`}
          settings={settings}
          user={account}
          submitLabel={m.profile_save()}
          onSaved={onSaved}
        />
      </section>
      <section aria-labelledby="profile-notes">
        <h2 id="profile-notes">{m.profile_notes()}</h2>
        <NotesSection
          key={`n${version}`}
          settings={settings}
          user={account}
          submitLabel={m.profile_save()}
          onSaved={onSaved}
        />
      </section>
    </>
  )
}
