// Search pages, webcam tiles, profiles and like state, from the store: the
// worker fetches, the pages show the stored copy at once (offline too) and
// update when the fresh one lands.
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useState } from 'react'
import type { Profile } from '../../api/contract/index.ts'
import { type SearchFilters, type SyncError, searchKey, syncWorker } from '../../sync/client.ts'
import { camsKey } from '../../sync/members/view.ts'
import { localDb } from '../../sync/store/store.ts'

const present = (ps: (Profile | undefined)[]): Profile[] => ps.flatMap((p) => (p ? [p] : []))

/** Which of `ids` the member likes, as the store shows it (pending actions included). */
export function useLikedSet(ids: readonly number[]): ReadonlySet<number> {
  const key = ids.join(',')
  // `key` stands for the ids: a new array each render must not restart the query.
  const liked = useLiveQuery(async () => {
    const rows = await localDb().likes.bulkGet([...ids])
    return new Set(rows.flatMap((r) => (r?.liked ? [r.id] : [])))
  }, [key])
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
      .search(filters, page, key !== 'default')
      .then((res) => setError(res.ok ? null : res.error))
  }, [key, page])
  const stored = useLiveQuery(async () => {
    const row = await localDb().searchPages.get([key, page])
    if (!row) return { row: null, profiles: [], similar: [] }
    const [profiles, similar] = await Promise.all([
      localDb().profiles.bulkGet(row.ids),
      localDb().profiles.bulkGet(row.similarIds ?? []),
    ])
    return { row, profiles: present(profiles), similar: present(similar) }
  }, [key, page])
  return { key, stored, error }
}

/** Page 1 of the default search (the home page), with like state. */
export function useHomeSearch(trafficsource: string | undefined) {
  useEffect(() => {
    void syncWorker().search({}, 1, false, trafficsource)
  }, [trafficsource])
  return useLiveQuery(async () => {
    const db = localDb()
    const row = await db.searchPages.get(['default', 1])
    const profiles = row ? await db.profiles.bulkGet(row.ids) : []
    const liked = new Set((await db.likes.toArray()).filter((l) => l.liked).map((l) => l.id))
    return { profiles: present(profiles), liked }
  }, [])
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
  const row = useLiveQuery(
    async () => (show && key ? localDb().cams.get(key) : undefined),
    [show, key],
  )
  return show ? (row?.cams ?? []) : []
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
  const stored = useLiveQuery(async () => {
    const [detail, base, like] = await Promise.all([
      localDb().profileDetails.get(memberId),
      localDb().profiles.get(memberId),
      localDb().likes.get(memberId),
    ])
    return { detail, base, liked: like?.liked ?? false }
  }, [memberId])
  return { status, stored }
}
