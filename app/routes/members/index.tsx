import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useState } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import { type SearchFilters, type SyncError, searchKey, syncWorker } from '../../../sync/client.ts'
import { localDb } from '../../../sync/store.ts'
import { requireLogin } from '../../guard.ts'
import { AGE_BUCKETS, type AgeBucket, isAgeBucket } from './-components/age-buckets.ts'
import { Filters, type FilterValues } from './-components/Filters.tsx'
import { MemberTile } from './-components/MemberTile.tsx'

/** Spec §9: search page size. */
const PAGE_SIZE = 12

interface MembersSearch {
  gender?: 'male' | 'female'
  country?: string
  region?: string
  age?: AgeBucket
  page?: number
}

export const Route = createFileRoute('/members/')({
  validateSearch: (s: Record<string, unknown>): MembersSearch => ({
    ...(s.gender === 'male' || s.gender === 'female' ? { gender: s.gender } : {}),
    ...(typeof s.country === 'string' && /^[A-Z]{2}$/.test(s.country)
      ? { country: s.country }
      : {}),
    ...(typeof s.region === 'string' && s.region.length <= 16 ? { region: s.region } : {}),
    ...(isAgeBucket(s.age) ? { age: s.age } : {}),
    ...(Number.isInteger(s.page) && Number(s.page) > 1 ? { page: Number(s.page) } : {}),
  }),
  beforeLoad: requireLogin,
  component: Members,
})

function toFilters(s: MembersSearch): SearchFilters {
  const ages = s.age ? AGE_BUCKETS[s.age] : undefined
  return {
    gender: s.gender,
    country: s.country,
    countryregion: s.region,
    min_age: ages?.[0],
    max_age: ages?.[1],
  }
}

function Members() {
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const page = search.page ?? 1
  const filters = toFilters(search)
  const key = searchKey(filters)
  const [error, setError] = useState<SyncError | null>(null)

  // Ask the worker for this page; the list below shows the stored copy at
  // once (offline too) and updates itself when the fresh one lands.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the filters
  useEffect(() => {
    setError(null)
    void syncWorker()
      .search(filters, page, key !== 'default')
      .then((res) => setError(res.ok ? null : res.error))
  }, [key, page])

  const stored = useLiveQuery(async () => {
    const row = await localDb().searchPages.get([key, page])
    if (!row) return { row: null, profiles: [] }
    const profiles = await localDb().profiles.bulkGet(row.ids)
    return { row, profiles: profiles.filter((p) => p !== undefined) }
  }, [key, page])

  const row = stored?.row
  const pages = row ? Math.max(1, Math.ceil(row.numResults / PAGE_SIZE)) : 1

  function onSearch(v: FilterValues) {
    void navigate({
      search: {
        gender: v.gender,
        country: v.country,
        ...(v.region ? { region: v.region } : {}),
        ...(v.age !== 'all' ? { age: v.age } : {}),
      },
    })
  }

  return (
    <main className="page">
      <h1>{m.members_title()}</h1>
      {row && <Filters key={key} page={row} onSearch={onSearch} />}
      {!row && stored !== undefined && error && (
        <p role="alert">{error.code === 'offline' ? m.members_not_saved() : m.error_generic()}</p>
      )}
      {!row && !error && <p aria-live="polite">{m.loading()}</p>}
      {row && (
        <>
          <p aria-live="polite">{m.members_results({ count: row.numResults })}</p>
          {stored.profiles.length === 0 ? (
            <p>{m.members_empty()}</p>
          ) : (
            <ul className="grid" aria-label={m.members_title()}>
              {stored.profiles.map((p) => (
                <MemberTile key={p.id} profile={p} />
              ))}
            </ul>
          )}
          <nav className="paging" aria-label={m.paging_label()}>
            {page > 1 && (
              <Link from={Route.fullPath} search={(s) => ({ ...s, page: page - 1 })} rel="prev">
                {m.paging_prev()}
              </Link>
            )}
            <span>{m.paging_status({ page, pages })}</span>
            {page < pages && (
              <Link from={Route.fullPath} search={(s) => ({ ...s, page: page + 1 })} rel="next">
                {m.paging_next()}
              </Link>
            )}
          </nav>
        </>
      )}
    </main>
  )
}
