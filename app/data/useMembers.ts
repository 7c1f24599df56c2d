// Search pages, webcam tiles, profiles and like state, from the store: the
// worker fetches, the pages show the stored copy at once (offline too) and
// update when the fresh one lands.
import { useEffect, useState } from 'react'
import type { ReadValue } from '../../sync/client.ts'
import { type SearchFilters, type SyncError, searchKey, syncWorker } from '../../sync/client.ts'
import { camsKey } from '../../sync/members/view.ts'
import { pageSeed } from './page-seed.ts'
import { useStored } from './stored.ts'

/** Which of `ids` the member likes, as the store shows it (pending actions included). */
export function useLikedSet(ids: readonly number[]): ReadonlySet<number> {
  // useStored keys the watch by value: a new array of the same ids keeps it.
  const liked = useStored('likedSet', [[...ids]])
  return liked ?? new Set()
}

/**
 * One search page: asks the worker for it (a non-default search is a manual
 * one the server saves, spec §7) and reads the stored copy.
 */
export function useSearchPage(filters: SearchFilters, page: number) {
  const key = searchKey(filters)
  const [error, setError] = useState<SyncError | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the filters
  useEffect(() => {
    setError(null)
    void syncWorker()
      // The order alone is no manual search (nothing to save, sync/search/search-key.ts).
      .search(filters, page, !key.startsWith('default'))
      .then((res) => setError(res.ok ? null : res.error))
  }, [key, page])
  const stored = useStored('searchPage', [key, page])
  return { key, stored, error }
}

/** Page 1 of the default search (the home page), with like state. */
export function useHomeSearch(trafficsource: string | undefined) {
  useEffect(() => {
    void syncWorker().search({}, 1, false, trafficsource)
  }, [trafficsource])
  return useStored('homeSearch', [])
}

export interface CamFilters {
  gender?: 'male' | 'female' | undefined
  min_age?: number | undefined
  max_age?: number | undefined
}

/** Webcam tiles for the grid's filters, when the member may see them (spec §6). */
export function useCams(show: boolean, filters: CamFilters | undefined) {
  const key = filters ? camsKey(filters) : undefined
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the filters
  useEffect(() => {
    if (show && filters) void syncWorker().syncCams(filters)
  }, [show, key])
  const row = useStored('cams', [show && key ? key : ''])
  return show && key ? (row?.cams ?? []) : []
}

/** A profile page: the stored detail, else what a list knew; loaded through the worker. */
export function useProfile(memberId: number) {
  const [status, setStatus] = useState<'loading' | 'ok' | 'missing' | 'failed'>('loading')
  useEffect(() => {
    setStatus('loading')
    void syncWorker()
      .loadProfile(memberId)
      .then((res) => setStatus(res.ok ? 'ok' : res.error.status === 404 ? 'missing' : 'failed'))
  }, [memberId])
  const read = useStored('profile', [memberId])
  // The worker answers with an empty read before its own load of the profile
  // is stored: a prerendered page keeps the seed until then (else the page
  // would blank out for a moment after hydration, a layout shift).
  const stored = read?.detail || read?.base ? read : (seededProfile(memberId) ?? read)
  return { status, stored }
}

/** A prerendered profile page's profile (page-seed.ts), until the worker's copy answers. */
function seededProfile(memberId: number): ReadValue<'profile'> | undefined {
  const profile = pageSeed()?.profile
  if (profile?.id !== memberId) return undefined
  return {
    detail: { id: profile.id, detail: profile, likedMe: null, fetchedAt: 0 },
    base: undefined,
    liked: false,
  }
}
