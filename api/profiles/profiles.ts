import type { Db } from '../../db/client.ts'
import type { Image, OwnProfile, Profile } from '../contract/index.ts'
import { lastActiveOf } from '../contract/rules/live.ts'
import { imagesOf } from '../images/index.ts'
import { type MemberRow, profileColumns } from '../shared/members.ts'

// The member columns a Profile is made of are shared/members.ts's (the
// members table's rule, one home); re-exported for this domain's users.
export { profileColumns }

type BaseColumns = Exclude<keyof typeof profileColumns, 'seenMs'>
/** A row a profile is built from; `seenMs` where the statement read it (profileColumns). */
export type ProfileSource = Pick<MemberRow, BaseColumns> & { seenMs?: number | null }

/** Whole years between a YYYY-MM-DD birth date and `now` (UTC). */
export function ageOn(dateOfBirth: string, now = new Date()): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number]
  let age = now.getUTCFullYear() - y
  const month = now.getUTCMonth() + 1
  if (month < m || (month === m && now.getUTCDate() < d)) age--
  return age
}

export function toProfile(row: ProfileSource, imgs: Image[]): Profile {
  // The main picture is never a pending or a private one (api/images/images.ts).
  const main =
    imgs.find((i) => i.id === row.mainImageId) ?? imgs.find((i) => !i.pending && !i.private)
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.dateOfBirth),
    city: row.city,
    country: row.country,
    countryregion: row.countryregion,
    gender: row.gender === 'male' ? 'male' : 'female',
    personal: row.personal,
    images: imgs,
    main_image: main ? { thumb_filename: main.thumb_filename } : null,
    fictional: row.fictional,
    verified: row.verifiedAt !== null,
    ...(row.seenMs === undefined
      ? {}
      : { last_active: row.seenMs === null ? null : lastActiveOf(row.seenMs, Date.now()) }),
  }
}

export const toOwnProfile = (row: MemberRow, imgs: Image[]): OwnProfile => ({
  ...toProfile(row, imgs),
  date_of_birth: row.dateOfBirth,
  language: row.language,
})

/** Profiles for rows already loaded, with their images in one extra query (`guest`: imagesOf). */
export async function profilesFor(
  db: Db,
  rows: ProfileSource[],
  options: { guest?: boolean } = {},
): Promise<Profile[]> {
  const imgs = await imagesOf(
    db,
    rows.map((r) => r.id),
    options,
  )
  return rows.map((r) => toProfile(r, imgs.get(r.id) ?? []))
}
