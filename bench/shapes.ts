// The search query shapes the benchmark measures: every filter combination of
// the search form (spec §7, §9) for a viewer, on page 1 and page 50.
import { type SearchParams, SearchQuery } from '../api/contract/index.ts'
import type { members } from '../db/schema/index.ts'

type Member = typeof members.$inferSelect

/**
 * Spec §9 age buckets, as the search form sends them
 * (app/routes/_default/_member/members/-components/age-buckets.ts).
 */
const AGE_BUCKETS: [string, number, number][] = [
  ['all', 18, 100],
  ['18-25', 18, 25],
  ['26-35', 26, 35],
  ['36-45', 36, 45],
  ['46-55', 46, 55],
  ['56-65', 56, 65],
  ['65+', 65, 100],
]
/** Page 50 of 12 is OFFSET 588: deep enough to show what paging costs. */
export const PAGES = [1, 50] as const

export interface Viewer {
  member: Member
  /** The spec §6 neighbour of the viewer's country. */
  neighbour: string
  /** The region a region search picks in `country`. */
  regionOf(country: string): string | null
}

export interface Shape {
  viewer: Member
  query: SearchParams
  page: number
  /** The filter combination, the same for both pages. */
  key: string
  label: string
}

export function searchShapes(viewers: Viewer[]): Shape[] {
  const shapes: Shape[] = []
  for (const v of viewers) {
    // `default` sends no gender: the server picks the other one (docs/search.md, "Search defaults").
    for (const gender of ['female', 'male', 'default'] as const) {
      for (const country of [v.member.country, v.neighbour]) {
        for (const region of [null, v.regionOf(country)]) {
          for (const [bucket, min, max] of AGE_BUCKETS) {
            const key = `${v.member.country} ${gender} ${country} ${region ?? '-'} ${bucket}`
            for (const page of PAGES) {
              const query = SearchQuery.parse({
                ...(gender === 'default' ? {} : { gender }),
                country,
                ...(region ? { countryregion: region } : {}),
                min_age: String(min),
                max_age: String(max),
                page: String(page),
              })
              shapes.push({ viewer: v.member, query, page, key, label: `${key} page ${page}` })
            }
          }
        }
      }
    }
  }
  return shapes
}

/** The deepest page within SEARCH_RESULT_CAP at 12 a page (10,000 = 833 pages + 4). */
const LAST_CAPPED_PAGE = 834

/**
 * Beyond the grid, one set per viewer: a search nobody matches (spec §4
 * similar results run), a region search with few matches, and the deepest
 * pages the cap allows, wide and narrow.
 */
export function edgeShapes(viewers: Viewer[]): Shape[] {
  return viewers.flatMap((v) => {
    const own = v.member.country
    const region = v.regionOf(v.neighbour)
    const cases: [string, Record<string, string>][] = [
      [`${own} - 100-100 (similar)`, { country: own, min_age: '100', max_age: '100' }],
      [
        `${v.neighbour} ${region ?? '-'} 18-18 (similar)`,
        {
          country: v.neighbour,
          ...(region ? { countryregion: region } : {}),
          min_age: '18',
          max_age: '18',
        },
      ],
      [`${own} - all`, { country: own, page: String(LAST_CAPPED_PAGE) }],
      [`${own} - 56-65`, { country: own, min_age: '56', max_age: '65', page: '800' }],
      // Sorted online first (sort=online, members_search_online_idx).
      [`${own} - all online first`, { country: own, sort: 'online' }],
      [
        `${own} - 26-35 online first`,
        { country: own, min_age: '26', max_age: '35', sort: 'online' },
      ],
      [
        `${own} ${v.regionOf(own) ?? '-'} all online first`,
        {
          country: own,
          ...(v.regionOf(own) ? { countryregion: v.regionOf(own)! } : {}),
          sort: 'online',
        },
      ],
      [`${own} - all online first`, { country: own, sort: 'online', page: '50' }],
    ]
    return cases.map(([what, raw]) => {
      const query = SearchQuery.parse(raw)
      const key = `${own} default ${what}`
      return { viewer: v.member, query, page: query.page, key, label: `${key} page ${query.page}` }
    })
  })
}
