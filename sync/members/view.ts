// Pure rules the member pages apply to stored data: who sees webcam tiles and
// where they go in the grid. No Dexie and no zod here, so the app can import
// this without pulling either into a page chunk.

import { camsEligible } from '../../api/contract/rules/cams.ts'
import { SEARCH_PAGE_SIZE } from '../../api/contract/rules/limits.ts'
import { searchVisible as searchVisibleRule } from '../../api/contract/rules/search.ts'

export { CAM_RESELL, CAMS_MIN_MEMBERSHIP_MS } from '../../api/contract/rules/cams.ts'
/** Spec §2: webcam tiles after profile index 1 and 5 of every page (SEARCH_PAGE_SIZE, spec §9). */
export const CAM_AFTER_INDEXES: readonly number[] = [1, 5]

export interface CamViewer {
  paid_user: boolean
  signup_date: string
}

/** Spec §6 webcam eligibility. A signup date that does not parse counts as new. */
export function mayShowCams(
  user: CamViewer | null,
  memberResell: readonly string[] | undefined,
  now: number,
): boolean {
  if (!user || !memberResell) return false
  return camsEligible(
    { paidUser: user.paid_user, signupAt: Date.parse(user.signup_date) },
    memberResell,
    now,
  )
}

export type GridItem<P, C> =
  | { kind: 'profile'; item: P; index: number }
  | { kind: 'cam'; item: C; slot: number }

/**
 * Profiles with webcam tiles after profile index 1 and 5 of every page (only
 * where that profile exists). Each page starts further along the cam list so
 * paging shows different cams.
 */
export function withCamTiles<P, C>(
  profiles: readonly P[],
  cams: readonly C[],
  page = 1,
): GridItem<P, C>[] {
  const items: GridItem<P, C>[] = []
  let slot = (page - 1) * CAM_AFTER_INDEXES.length
  profiles.forEach((p, index) => {
    items.push({ kind: 'profile', item: p, index })
    const after = CAM_AFTER_INDEXES.includes(index % SEARCH_PAGE_SIZE)
    const cam = cams.length > 0 ? cams[slot % cams.length] : undefined
    if (after && cam !== undefined) {
      items.push({ kind: 'cam', item: cam, slot })
      slot++
    }
  })
  return items
}

/** The key webcam results are stored under: the filters the cam search takes. */
export function camsKey(f: { gender?: string; min_age?: number; max_age?: number }): string {
  return [f.gender ?? '', f.min_age ?? '', f.max_age ?? ''].join('|')
}

// The settings are stored by the worker after parsing them with the
// contract; the page reads them back as `unknown` and takes what it needs.
const field = (settings: unknown, key: string): unknown =>
  typeof settings === 'object' && settings !== null ? Reflect.get(settings, key) : undefined

/** settings.member_resell, or undefined while no settings are stored. */
export function memberResellOf(settings: unknown): string[] | undefined {
  const v = field(settings, 'member_resell')
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined
}

/** settings.fictional_icon (spec §3): whether fictional profiles carry their icon. */
export function fictionalIconOf(settings: unknown): boolean {
  return field(settings, 'fictional_icon') === true
}

/** settings.visible_profile_fields / visible_profile_notes: which entries a profile page lists. */
export function visibleListOf(
  settings: unknown,
  key: 'visible_profile_fields' | 'visible_profile_notes',
): string[] | undefined {
  const v = field(settings, key)
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined
}

/**
 * Spec §6: the index shows search when the visitor is logged in, or
 * logged_out_search is not none, or logged_out_search_trafficsource is not
 * none and a traffic source is present.
 */
export function searchVisible(
  loggedIn: boolean,
  settings: unknown,
  trafficsource: boolean,
): boolean {
  // Settings not stored yet count as closed (`none`).
  const setting = (key: string) => {
    const v = field(settings, key)
    return typeof v === 'string' ? v : 'none'
  }
  return searchVisibleRule(
    loggedIn,
    {
      logged_out_search: setting('logged_out_search'),
      logged_out_search_trafficsource: setting('logged_out_search_trafficsource'),
    },
    trafficsource,
  )
}
