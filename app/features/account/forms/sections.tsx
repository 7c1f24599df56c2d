// The profile forms wired to the sync worker (PUT /api/user.php), shared by
// the sign-up steps 3-5 and /profile. Reference data loads through the
// worker; its failures fall back quietly (spec §8).

import type { AccountUser, Settings } from '../../../../api/contract/index.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { type SyncError, worker } from '../../../data/worker.ts'
import { AboutForm } from './AboutForm.tsx'
import { LocationForm, type Place } from './LocationForm.tsx'
import { NotesForm } from './NotesForm.tsx'
import { ownValues } from './own-values.ts'
import { useWorker } from './use-worker.ts'

const saved = async (call: Promise<{ ok: boolean; error?: SyncError }>) => {
  const res = await call
  return res.ok ? null : (res.error ?? null)
}

export function LocationSection({
  settings,
  user,
  geolocate,
  submitLabel,
  onSaved,
}: {
  settings: Settings
  user: AccountUser | null
  geolocate: boolean
  submitLabel: string
  onSaved: () => void
}) {
  const regions = useWorker(() => worker().regions())
  const initial = ownValues(user)
  async function submit(place: Place): Promise<SyncError | null> {
    const error = await saved(
      worker().updateAccount({
        country: place.country ?? undefined,
        countryregion: place.countryregion,
        city: place.city,
      }),
    )
    if (!error) onSaved()
    return error
  }
  return (
    <LocationForm
      idPrefix="location"
      countries={settings.countries}
      regionData={regions?.region_data ?? settings.region_data}
      initial={initial}
      geolocate={geolocate}
      submitLabel={submitLabel}
      onSubmit={submit}
    />
  )
}

export function AboutSection({
  settings,
  user,
  submitLabel,
  onSaved,
}: {
  settings: Settings
  user: AccountUser | null
  submitLabel: string
  onSaved: () => void
}) {
  const allowed = useWorker(() => worker().profileFields())
  if (allowed === undefined) return <p role="status">{m.loading()}</p>
  const fields = settings.visible_profile_fields
    .filter((f) => f !== 'gender')
    .flatMap((f): [string, string[]][] => {
      const values = allowed?.allowed_values[f]
      return values && values.length > 0 ? [[f, values]] : []
    })
  const initial = ownValues(user)
  return (
    <AboutForm
      initial={initial}
      fields={fields}
      submitLabel={submitLabel}
      onSubmit={async (about) => {
        const error = await saved(worker().updateAccount({ profile: about }))
        if (!error) onSaved()
        return error
      }}
    />
  )
}

export function NotesSection({
  settings,
  user,
  hint,
  submitLabel,
  onSaved,
}: {
  settings: Settings
  user: AccountUser | null
  hint?: string
  submitLabel: string
  onSaved: () => void
}) {
  const initial = ownValues(user)
  // Held texts (a scam signal fired) wait for a moderator; others see the old ones.
  const inReview = (user?.account.texts_in_review?.length ?? 0) > 0
  return (
    <>
      {inReview && <p role="status">{m.profile_texts_in_review()}</p>}
      <NotesForm
        keys={settings.visible_profile_notes}
        initial={{ personal: initial.personal, notes: initial.notes }}
        {...(hint ? { hint } : {})}
        submitLabel={submitLabel}
        onSubmit={async ({ personal, notes }) => {
          const error = await saved(worker().updateAccount({ profile: { personal, notes } }))
          if (!error) onSaved()
          return error
        }}
      />
    </>
  )
}
