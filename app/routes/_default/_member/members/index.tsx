import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { lazy } from 'react'
import { SEARCH_PAGE_SIZE, SEARCH_RESULT_CAP } from '../../../../../api/contract/rules/limits.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useSession } from '../../../../data/session.ts'
import { useCams, useLikedSet, useSearchPage } from '../../../../data/useMembers.ts'
import { useSettings } from '../../../../data/useSettings.ts'
import {
  fictionalIconOf,
  mayShowCams,
  memberResellOf,
  withCamTiles,
} from '../../../../data/view.ts'
import type { SearchFilters } from '../../../../data/worker.ts'
import { formatNumber } from '../../../../ui/format.ts'
import { MemberTile } from '../../../../ui/MemberTile.tsx'
import { Optional } from '../../../../ui/Optional.tsx'
import { AGE_BUCKETS, type AgeBucket, isAgeBucket } from './-components/age-buckets.ts'
import { Filters, type FilterValues } from './-components/Filters.tsx'

/**
 * Webcam tiles come from their own request after the grid (useCams), so their
 * code loads with them, not with the shell.
 */
const CamTile = lazy(() =>
  import('./-components/CamTile.tsx').then((mod) => ({ default: mod.CamTile })),
)

interface MembersSearch {
  gender?: 'male' | 'female'
  country?: string
  region?: string
  age?: AgeBucket
  /** Online first (sort=online); absent: by recent activity. */
  sort?: 'online'
  verified?: boolean
  page?: number
}

export const Route = createFileRoute('/_default/_member/members/')({
  validateSearch: (s: Record<string, unknown>): MembersSearch => ({
    ...(s.gender === 'male' || s.gender === 'female' ? { gender: s.gender } : {}),
    ...(typeof s.country === 'string' && /^[A-Z]{2}$/.test(s.country)
      ? { country: s.country }
      : {}),
    ...(typeof s.region === 'string' && s.region.length <= 16 ? { region: s.region } : {}),
    ...(isAgeBucket(s.age) ? { age: s.age } : {}),
    ...(s.sort === 'online' ? { sort: 'online' as const } : {}),
    ...(s.verified === true ? { verified: true } : {}),
    ...(Number.isInteger(s.page) && Number(s.page) > 1 ? { page: Number(s.page) } : {}),
  }),
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
    sort: s.sort,
    ...(s.verified ? { verified: true } : {}),
  }
}

function Members() {
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const { user } = useSession()
  const settings = useSettings()
  const page = search.page ?? 1
  const filters = toFilters(search)
  const { key, stored, error } = useSearchPage(filters, page)

  const row = stored?.row
  const pages = row ? Math.max(1, Math.ceil(row.numResults / SEARCH_PAGE_SIZE)) : 1

  // Spec §6: webcam tiles for eligible members, with the grid's gender and ages.
  const cams = mayShowCams(user, memberResellOf(settings), Date.now())
  const camFilters = row
    ? {
        ...(row.filters.gender ? { gender: row.filters.gender } : {}),
        min_age: row.filters.min_age,
        max_age: row.filters.max_age,
      }
    : undefined
  const camList = useCams(cams, camFilters)
  const items = withCamTiles(stored?.profiles ?? [], camList, page)

  const liked = useLikedSet([
    ...(stored?.profiles ?? []).map((p) => p.id),
    ...(stored?.similar ?? []).map((p) => p.id),
  ])
  const fictionalIcon = fictionalIconOf(settings)

  function onSearch(v: FilterValues) {
    void navigate({
      search: {
        gender: v.gender,
        country: v.country,
        ...(v.region ? { region: v.region } : {}),
        ...(v.age !== 'all' ? { age: v.age } : {}),
        ...(v.onlineFirst ? { sort: 'online' as const } : {}),
        ...(v.verified ? { verified: true } : {}),
      },
    })
  }

  return (
    <main className="page">
      <h1>{m.members_title()}</h1>
      {row && (
        <Filters key={key} page={row} onlineFirst={search.sort === 'online'} onSearch={onSearch} />
      )}
      {!row && stored !== undefined && error && (
        <p role="alert">{error.code === 'offline' ? m.members_not_saved() : m.error_generic()}</p>
      )}
      {!row && !error && <p aria-live="polite">{m.loading()}</p>}
      {row && stored && (
        <>
          <p aria-live="polite">
            {row.numResults >= SEARCH_RESULT_CAP
              ? m.members_results_many({ count: formatNumber(SEARCH_RESULT_CAP) })
              : m.members_results({ count: row.numResults })}
          </p>
          {stored.profiles.length === 0 ? (
            <p>{m.members_empty()}</p>
          ) : (
            <ul className="grid" aria-label={m.members_title()}>
              {items.map((it) =>
                it.kind === 'profile' ? (
                  <MemberTile
                    key={it.item.id}
                    profile={it.item}
                    liked={liked.has(it.item.id)}
                    fictionalIcon={fictionalIcon}
                  />
                ) : (
                  <Optional key={`cam-${it.slot}`}>
                    <CamTile cam={it.item} />
                  </Optional>
                ),
              )}
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
          {stored.similar.length > 0 && (
            <section className="similar" aria-labelledby="similar-title">
              <h2 id="similar-title">{m.members_similar_title()}</h2>
              <p>{m.members_similar_intro()}</p>
              <ul className="similar-grid" aria-labelledby="similar-title">
                {stored.similar.map((p) => (
                  <MemberTile
                    key={p.id}
                    profile={p}
                    liked={liked.has(p.id)}
                    fictionalIcon={fictionalIcon}
                  />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </main>
  )
}
