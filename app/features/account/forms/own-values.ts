// Apart from the profile forms (sections.tsx): the sign-up reads it on load,
// the forms of its later steps load only when the visitor gets there.
import type { AccountUser } from '../../../../api/contract/index.ts'

/** What the member has really set: the server's placeholders (account.missing) count as unset. */
export function ownValues(user: AccountUser | null) {
  const missing = new Set(user?.account.missing ?? ['country', 'gender', 'date_of_birth'])
  const p = user?.profile
  return {
    country: missing.has('country') ? null : (p?.country ?? null),
    countryregion: p?.countryregion ?? null,
    city: p?.city ?? null,
    gender: missing.has('gender') ? null : (p?.gender ?? null),
    date_of_birth: missing.has('date_of_birth') ? null : (p?.date_of_birth ?? null),
    personal: p?.personal ?? null,
    profile_fields: user?.account.profile_fields ?? {},
    notes: user?.account.notes ?? {},
  }
}
