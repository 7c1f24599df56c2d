import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { lazy, type ReactNode, useRef } from 'react'
import type { Cam, Profile } from '../../../../../api/contract/index.ts'
import { SEARCH_PAGE_SIZE, SEARCH_RESULT_CAP } from '../../../../../api/contract/rules/limits.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useSession } from '../../../../data/session.ts'
import { useCams, useLikedSet, useSearchPage } from '../../../../data/useMembers.ts'
import { useSettings } from '../../../../data/useSettings.ts'
import {
  fictionalIconOf,
  type GridItem,
  mayShowCams,
  memberResellOf,
  withCamTiles,
} from '../../../../data/view.ts'
import type { SearchFilters } from '../../../../data/worker.ts'
import { formatNumber } from '../../../../ui/format.ts'
import { MemberTile } from '../../../../ui/MemberTile.tsx'
import { Optional } from '../../../../ui/Optional.tsx'
import { useNarrow } from '../../../../ui/useNarrow.ts'
import { AGE_BUCKETS, type AgeBucket, isAgeBucket } from './-components/age-buckets.ts'
import { FilterChips, FilterSheet } from './-components/FilterSheet.tsx'
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
  const settings = useSettings()
  const narrow = useNarrow()
  const page = search.page ?? 1
  const { key, stored, error } = useSearchPage(toFilters(search), page)
  const row = stored?.row

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
  const filters = row && {
    page: row,
    onlineFirst: search.sort === 'online',
    regionData: settings?.region_data,
    onSearch,
  }
  // The phone's filter button stays while the next search loads (it has the
  // focus back after a search from its sheet); the sheet shows the last
  // search's filters until then.
  const lastFilters = useRef(filters)
  if (filters) lastFilters.current = filters
  const sheet = filters ?? lastFilters.current

  return (
    <main className="page members">
      {/* On a phone the filters wait behind a button beside the title, the photos come first. */}
      <div className="members__head">
        <h1>{m.members_title()}</h1>
        {sheet && narrow && <FilterSheet {...sheet} />}
      </div>
      {filters && !narrow && <Filters key={key} {...filters} />}
      {!row && stored !== undefined && error && (
        <p role="alert">{error.code === 'offline' ? m.members_not_saved() : m.error_generic()}</p>
      )}
      {!row && !error && <p aria-live="polite">{m.loading()}</p>}
      {row && stored && (
        <Results
          stored={{ ...stored, row }}
          page={page}
          chips={filters && narrow && <FilterChips {...filters} />}
        />
      )}
    </main>
  )
}

type StoredPage = NonNullable<ReturnType<typeof useSearchPage>['stored']>

/** What a search found: its count, tiles (webcam ones among them), paging and similar members. */
function Results({
  stored,
  page,
  chips,
}: {
  stored: StoredPage & { row: NonNullable<StoredPage['row']> }
  page: number
  /** On a phone, the filters in force, before the count (a way out of an empty search, too). */
  chips: ReactNode
}) {
  const { user } = useSession()
  const settings = useSettings()
  const { row } = stored
  const pages = Math.max(1, Math.ceil(row.numResults / SEARCH_PAGE_SIZE))

  // Spec §6: webcam tiles for eligible members, with the grid's gender and ages.
  const cams = mayShowCams(user, memberResellOf(settings), Date.now())
  const camList = useCams(cams, {
    ...(row.filters.gender ? { gender: row.filters.gender } : {}),
    min_age: row.filters.min_age,
    max_age: row.filters.max_age,
  })
  const items = withCamTiles(stored.profiles, camList, page)
  const liked = useLikedSet([
    ...stored.profiles.map((p) => p.id),
    ...stored.similar.map((p) => p.id),
  ])
  const fictionalIcon = fictionalIconOf(settings)

  // Nothing found: that alone, not also "0 members found" and "Page 1 of 1".
  if (stored.profiles.length === 0 && page === 1)
    return (
      <>
        <div className="members__bar">
          {chips}
          <p aria-live="polite">{m.members_empty()}</p>
        </div>
        <Similar stored={stored} liked={liked} fictionalIcon={fictionalIcon} />
      </>
    )
  return (
    <>
      <div className="members__bar">
        {chips}
        <p aria-live="polite">
          {row.numResults >= SEARCH_RESULT_CAP
            ? m.members_results_many({ count: formatNumber(SEARCH_RESULT_CAP) })
            : m.members_results({ count: row.numResults })}
        </p>
      </div>
      {stored.profiles.length === 0 ? (
        <p>{m.members_empty()}</p>
      ) : (
        <Grid items={items} liked={liked} fictionalIcon={fictionalIcon} />
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
      <Similar stored={stored} liked={liked} fictionalIcon={fictionalIcon} />
    </>
  )
}

/** The tiles of a page: members, with webcam ads among them (spec §6). */
function Grid({
  items,
  liked,
  fictionalIcon,
}: {
  items: GridItem<Profile, Cam & { href: string }>[]
  liked: ReadonlySet<number>
  fictionalIcon: boolean
}) {
  return (
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
  )
}

/** Spec §4: members just outside the ages chosen, shown apart (page 1 of a short search). */
function Similar({
  stored,
  liked,
  fictionalIcon,
}: {
  stored: StoredPage
  liked: ReadonlySet<number>
  fictionalIcon: boolean
}) {
  if (stored.similar.length === 0) return null
  return (
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
  )
}
