import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { countryName } from '../../db/reference/geo.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { ProfileResponse } from '../contract/index.ts'
import { notFound } from '../http/errors.ts'
import { primaryReads, type ReadsFor } from '../http/reads.ts'
import { sessionMember } from '../http/session.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { profileImagesOf } from '../images/index.ts'
import { regionName } from '../reference/index.ts'
import { loadSettings } from '../settings/index.ts'
import { liveMember, type MemberRow, seenMsOf } from '../shared/members.ts'
import { toProfile } from './profiles.ts'

/** The string entries of a JSON object column whose key the operator lets show. */
function visible(stored: unknown, keys: readonly string[]): Record<string, string> {
  if (typeof stored !== 'object' || stored === null) return {}
  return Object.fromEntries(
    Object.entries(stored).filter(
      (e): e is [string, string] => keys.includes(e[0]) && typeof e[1] === 'string',
    ),
  )
}

async function profilePage(
  db: Db,
  row: MemberRow,
  viewer: number | null,
  relation: ProfileDeps['relation'],
): Promise<ProfileResponse> {
  const [imgs, settings, flags, seen] = await Promise.all([
    // A guest (a search engine, a prerendered page) sees reviewed public
    // pictures only; a member also the private ones they unlocked, and a
    // locked tile for each other private one.
    profileImagesOf(db, row.id, viewer),
    loadSettings(db),
    viewer === null ? null : relation(db, viewer, row.id),
    seenMsOf(db, row.id),
  ])
  return {
    profile: {
      ...toProfile({ ...row, seenMs: seen }, imgs.images),
      // Only what the operator made visible (settings.visible_profile_*).
      profile_fields: visible(row.profileFields, settings.visible_profile_fields),
      notes: visible(row.notes, settings.visible_profile_notes),
      countryregion_name: row.countryregion ? regionName(row.countryregion) : null,
      country_name: countryName(row.country),
      locked_photos: imgs.locked,
    },
    liked: flags?.liked ?? null,
    liked_me: flags?.likedMe ?? null,
  }
}

/**
 * GET /api/profile.php?id= (spec §2 profile page, optional auth): a guest sees
 * the profile without like state. An unknown and a deleted member get the same
 * 404, so the answer reveals nothing about accounts that were.
 */
export const profileRoutes = (db: Db, deps: ProfileDeps) =>
  new Hono().get(pathOf(endpoints.profile), queryOf(endpoints.profile), async (c) => {
    const { id } = c.req.valid('query')
    // Read from the replica when one is used (api/http/reads.ts); the
    // session and the visit on the primary.
    const reader = (deps.readsFor ?? primaryReads(db))(c)
    const [row, viewer] = await Promise.all([liveMember(reader, id), sessionMember(c, db)])
    if (!row) throw notFound()
    const page = await profilePage(reader, row, viewer, deps.relation)
    // A HEAD (a link checker) is no visit.
    if (viewer !== null && c.req.method === 'GET') await deps.viewed?.(viewer, row.id)
    return c.json(page)
  })

export interface ProfileDeps {
  /**
   * A signed-in member opened a profile (the presence domain records the
   * visit; wired in api/app.ts, since presence builds on profiles).
   */
  viewed?: (viewer: number, profile: number) => Promise<unknown>
  /**
   * Whether the viewer liked the member and the member liked them (the
   * likes domain's likeFlags, wired in api/app.ts, since likes builds on
   * profiles).
   */
  relation: (
    reader: Db,
    viewer: number,
    profile: number,
  ) => Promise<{ liked: boolean; likedMe: boolean }>
  /** The handle the profile is read from (api/http/reads.ts); default the primary. */
  readsFor?: ReadsFor
}
