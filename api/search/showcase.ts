import { and } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { Profile, Settings } from '../contract/index.ts'
import { profilesFor } from '../profiles/index.ts'
import { guestPictured, guestViewer, pageOf, resolveFilters, searchWhere } from './search.ts'

/** How many member photos the guest home shows where search is closed to guests. */
export const SHOWCASE_SIZE = 8

/**
 * The guest home's curated set (not in the spec; the home must show members
 * even where logged-out search is closed): the most recently active live
 * members with a reviewed photo (only those are shown to guests), as a guest's default search would find them (women,
 * the operator's or visitor's country). Only what a public profile page
 * shows anyway; no filters, no paging, nothing saved.
 */
export async function showcase(db: Db, settings: Settings): Promise<Profile[]> {
  const viewer = guestViewer(settings, undefined)
  const filters = resolveFilters(viewer, {}, null)
  const where = and(searchWhere(null, filters, new Date(), viewer.fakeReportsToHide), guestPictured)
  if (!where) return []
  return profilesFor(db, await pageOf(db, where, SHOWCASE_SIZE, 0), { guest: true })
}
