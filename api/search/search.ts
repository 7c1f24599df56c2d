import {
  type AnyColumn,
  and,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { countryName } from '../../db/reference/geo.ts'
import { members } from '../../db/schema/index.ts'
import { blockedBetweenSql } from '../blocks/index.ts'
import {
  type Gender,
  MAX_AGE,
  MIN_AGE,
  type Profile,
  SEARCH_PAGE_SIZE,
  SEARCH_RESULT_CAP,
  type SearchParams,
  type SearchResponse,
  type SearchSort,
  type Settings,
} from '../contract/index.ts'
import { nicheGender } from '../contract/rules/niches.ts'
import { countryOptions, searchVisible } from '../contract/rules/search.ts'
import { ApiFailure } from '../http/errors.ts'
import { approvedImagesSql, guestPictureSql } from '../images/index.ts'
import { type ProfileSource, profileColumns, profilesFor, toProfile } from '../profiles/index.ts'
import { isKnownCountry, regionsOf } from '../reference/index.ts'
import type { MemberRow } from '../shared/members.ts'
import { hiddenAsFakeSql } from '../shared/reports.ts'

/** Filters as applied; also what a manual search saves (spec §7 do_not_save). */
export type Filters = SearchResponse['filters']

/**
 * Who searches: a member, or a guest (id null) where the operator allows
 * logged-out search (spec §6). The country decides the country options.
 */
export interface Viewer {
  id: number | null
  country: string
  gender: string
  savedSearch: unknown
}

/** A viewer on a site of a niche (spec §9), which picks the default gender (1 when not said). */
export type SiteViewer = Viewer & {
  niche?: number
  /** settings.fake_reports_to_hide of the site (0 or absent: nobody is hidden for reports). */
  fakeReportsToHide?: number
}

/**
 * YYYY-MM-DD of `now` minus `years` (UTC). Today being 29 February, a year
 * without one gives 28 February, not 1 March: someone born on 1 March is not
 * a year older yet (ageOn agrees), so the age range must not include them.
 */
function yearsAgo(years: number, now: Date): string {
  const year = now.getUTCFullYear() - years
  const month = now.getUTCMonth()
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const d = new Date(Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay)))
  return d.toISOString().slice(0, 10)
}
/** The filters to apply: explicit ones, else the saved search, else sensible defaults. */
export function resolveFilters(me: SiteViewer, q: Partial<SearchParams>, saved: unknown): Filters {
  const explicit =
    q.gender !== undefined ||
    q.country !== undefined ||
    q.countryregion !== undefined ||
    q.min_age !== undefined ||
    q.max_age !== undefined ||
    q.verified !== undefined
  const options = countryOptions(me.country)
  // A saved search whose country is no longer an option (the member moved)
  // is stale: answering 400 for a filter the member never sent would lock
  // them out of search, so it gives way to the defaults.
  const usable = isFilters(saved) && (saved.country === null || options.includes(saved.country))
  const base = !explicit && usable ? saved : undefined
  const country = q.country ?? base?.country ?? me.country
  if (!options.includes(country)) throw new ApiFailure(400, 'invalid_input', 'country')
  const region = q.countryregion ?? base?.countryregion ?? null
  if (region !== null && !regionsOf(country).some((r) => r.id === region)) {
    throw new ApiFailure(400, 'invalid_input', 'countryregion')
  }
  // Without a stated preference the site's niche decides (gay: men, …; the
  // general site: the other gender, a guest women).
  const fallbackGender: Gender = nicheGender(me.niche ?? 1, me.id === null ? null : me.gender)
  return {
    gender: q.gender ?? base?.gender ?? fallbackGender,
    country,
    countryregion: region,
    min_age: q.min_age ?? base?.min_age ?? MIN_AGE,
    max_age: q.max_age ?? base?.max_age ?? MAX_AGE,
    verified: q.verified ?? base?.verified ?? false,
  }
}

function isFilters(v: unknown): v is Filters {
  return typeof v === 'object' && v !== null && 'min_age' in v && 'max_age' in v
}

/** A member found has a picture a guest may see (the guest home's showcase). */
export const guestPictured: SQL = guestPictureSql(sql`${members.id}`)

/** The WHERE of a search: live members other than me matching the filters. */
export function searchWhere(
  meId: number | null,
  f: Filters,
  now = new Date(),
  /** Leave out members this many members reported as fake, until verified (0: none). */
  fakeReportsToHide = 0,
): SQL {
  const conditions: (SQL | undefined)[] = [
    isNull(members.deletedAt),
    meId === null ? undefined : ne(members.id, meId),
    // A block either way: neither sees the other (two primary-key probes a row).
    meId === null ? undefined : sql`NOT ${blockedBetweenSql(sql`${meId}`, sql`${members.id}`)}`,
    f.gender ? eq(members.gender, f.gender) : undefined,
    f.country ? eq(members.country, f.country) : undefined,
    f.countryregion ? eq(members.countryregion, f.countryregion) : undefined,
    // age >= min  <=>  born on or before today minus min years
    lte(members.dateOfBirth, yearsAgo(f.min_age, now)),
    // age <= max  <=>  born after today minus (max + 1) years
    gt(members.dateOfBirth, yearsAgo(f.max_age + 1, now)),
    // Verified members are few: the page's index scan then checks each row.
    f.verified ? isNotNull(members.verifiedAt) : undefined,
    fakeReportsToHide > 0
      ? sql`${members.id} NOT IN ${hiddenAsFakeSql(fakeReportsToHide)}`
      : undefined,
  ]
  return and(...conditions) as SQL
}

/** Spec §4: similar search widens the age range by 5 years each way. */
export const SIMILAR_AGE_WIDENING = 5

/**
 * Spec §4 similar results: the same filters with the age range widened,
 * keeping only members the search itself left out (younger than min_age or
 * older than max_age), so none repeats a result. Same order, one page.
 */
async function similarTo(
  db: Db,
  meId: number | null,
  f: Filters,
  sort: SearchSort,
  fakeReportsToHide = 0,
): Promise<Profile[]> {
  const min_age = Math.max(MIN_AGE, f.min_age - SIMILAR_AGE_WIDENING)
  const max_age = Math.min(MAX_AGE, f.max_age + SIMILAR_AGE_WIDENING)
  if (min_age === f.min_age && max_age === f.max_age) return []
  const now = new Date()
  const outside = or(
    gt(members.dateOfBirth, yearsAgo(f.min_age, now)),
    lte(members.dateOfBirth, yearsAgo(f.max_age + 1, now)),
  )
  const rows = await db
    .select()
    .from(members)
    .where(and(searchWhere(meId, { ...f, min_age, max_age }, now, fakeReportsToHide), outside))
    .orderBy(...orderOf[sort](members.publicActiveAt, members.publicSeenAt, members.id))
    .limit(SEARCH_PAGE_SIZE)
  return profilesFor(db, rows, { guest: meId === null })
}

/**
 * The ORDER BY of each sort, over the columns of `members` or of a
 * subquery of it. Neither lets the activity of a member who hides when they
 * were online show through the order (docs/search.md). `active`:
 * members.public_active_at, their last activity, but their sign-up time
 * while they hide it (kept by the database); served by
 * members_search_order_idx and its siblings. `online`:
 * members.public_seen_at is null for members who hide it (kept by the
 * database, docs/live.md), so they come last, ordered among themselves by id
 * only. Served by members_search_online_idx.
 */
const orderOf: Record<SearchSort, (active: AnyColumn, seen: AnyColumn, id: AnyColumn) => SQL[]> = {
  active: (publicActive, _seen, id) => [desc(publicActive), desc(id)],
  online: (_active, seen, id) => [sql`${seen} DESC NULLS LAST`, desc(id)],
}

/**
 * One page of matching members, most recently active first (as others may
 * know it: public_active_at). The inner query
 * picks the page's ids by an index-only scan of members_search_order_idx (or
 * members_search_region_order_idx; for a deep page of a narrow age bucket,
 * members_search_age_idx and a sort): every column it reads is in the index,
 * so the age filter and the OFFSET walk index entries, never table rows. Only
 * the page's own rows are then read, by primary key (their profile columns,
 * and the order's columns for the order of a statement around it).
 */
export function pageOf(
  db: Db,
  where: SQL,
  limit: number,
  offset: number,
  sort: SearchSort = 'active',
) {
  const order = orderOf[sort](members.publicActiveAt, members.publicSeenAt, members.id)
  const ids = db
    .select({ id: members.id })
    .from(members)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)
  return db
    .select({
      ...profileColumns,
      publicActiveAt: members.publicActiveAt,
      publicSeenAt: members.publicSeenAt,
    })
    .from(members)
    .where(inArray(members.id, ids))
    .orderBy(...order)
}

/**
 * A search's page and its count in ONE statement (one round trip, one
 * snapshot): the capped count as a one-row subquery, LEFT JOIN LATERAL the
 * page (pageOf, planned as on its own: index-only scan for the ids, then the
 * page's rows by primary key), each member's approved pictures, oldest first,
 * as a json_agg column (what imagesOf answers about other members). One row
 * per member on the page, or one row with the count and NULLs when the page
 * is empty. The count matches up to SEARCH_RESULT_CAP: exact for every
 * smaller result set, and at most SEARCH_RESULT_CAP index entries read
 * (members_search_age_idx holds the age range as a contiguous key range)
 * however many members match. The filters vary per request, so it is built
 * per request, not prepared (bench/explain.ts EXPLAINs what search() sends).
 */
export function searchQuery(
  db: Db,
  where: SQL,
  limit: number,
  offset: number,
  sort: SearchSort = 'active',
  /** A guest's search: reviewed pictures only (imagesOf `guest`). */
  guest = false,
) {
  const capped = db
    .select({ id: members.id })
    .from(members)
    .where(where)
    .limit(SEARCH_RESULT_CAP)
    .as('capped')
  const counted = db
    .select({ n: count().as('n') })
    .from(capped)
    .as('counted')
  const page = pageOf(db, where, limit, offset, sort).as('page')
  return db
    .select({
      numResults: counted.n,
      ...page._.selectedFields,
      images: approvedImagesSql(sql`${page.id}`, { guest }),
    })
    .from(counted)
    .leftJoinLateral(page, sql`true`)
    .orderBy(...orderOf[sort](page.publicActiveAt, page.publicSeenAt, page.id))
}

export async function search(
  db: Db,
  me: SiteViewer,
  q: SearchParams,
): Promise<{ response: SearchResponse; filters: Filters }> {
  const filters = resolveFilters(me, q, me.savedSearch)
  const where = searchWhere(me.id, filters, new Date(), me.fakeReportsToHide)
  const offset = (q.page - 1) * q.pp
  // Paging ends at the cap, like the count: no request skips more entries
  // (LIMIT 0 past it: PostgreSQL then reads no page at all).
  const take = Math.max(0, Math.min(q.pp, SEARCH_RESULT_CAP - offset))
  const rows = await searchQuery(db, where, take, offset, q.sort, me.id === null)
  const numResults = rows[0]?.numResults ?? 0
  const profiles: Profile[] = []
  for (const r of rows) {
    // A row with an id is a member of the page: its columns are not null.
    if (r.id !== null) profiles.push(toProfile(r as ProfileSource, r.images))
  }
  const similar =
    q.page === 1 && numResults < SEARCH_PAGE_SIZE
      ? await similarTo(db, me.id, filters, q.sort, me.fakeReportsToHide)
      : []
  return {
    filters,
    response: {
      profiles,
      filter_options: {
        gender: ['female', 'male'],
        min_age: MIN_AGE,
        max_age: MAX_AGE,
        country: countryOptions(me.country).map((id) => ({ id, name: countryName(id) })),
        countryregion: regionsOf(filters.country ?? me.country),
      },
      filters,
      paging: { num_results: numResults, page: q.page, pp: q.pp },
      similar,
    },
  }
}

/** Spec §6: may a logged-out visitor search? */
export function guestMaySearch(
  settings: Pick<Settings, 'logged_out_search' | 'logged_out_search_trafficsource'>,
  trafficsource: string | undefined,
): boolean {
  return searchVisible(false, settings, Boolean(trafficsource))
}

/**
 * A guest searches from the country asked for (any country the site has),
 * else the visitor's geo-IP country, else the operator's own country.
 */
export function guestViewer(
  settings: Pick<
    Settings,
    'geoip_selected_country' | 'geoip_country' | 'company_country' | 'niche'
  > & { fake_reports_to_hide?: number },
  asked: string | undefined,
): SiteViewer {
  const known = (c: string | null | undefined) => (c && isKnownCountry(c) ? c : undefined)
  const country =
    known(asked) ??
    known(settings.geoip_selected_country) ??
    known(settings.geoip_country) ??
    known(settings.company_country) ??
    'NL'
  return {
    id: null,
    country,
    gender: '',
    savedSearch: null,
    niche: settings.niche,
    fakeReportsToHide: settings.fake_reports_to_hide ?? 0,
  }
}

/**
 * The members a lander shows a guest (spec §2 landers and member landing
 * pages): live members in `countries` with a picture a guest may see, of
 * `gender`, born within `born` when given (a member's similar ones) and
 * other than `except`, most recently active first as others may know it (a
 * member who hides when they were online by their sign-up time).
 */
export function landerRows(
  db: Db,
  o: {
    countries: string[]
    gender: string
    born?: { after: string; onOrBefore: string }
    except?: number
  },
  limit: number,
): Promise<MemberRow[]> {
  return db
    .select()
    .from(members)
    .where(
      and(
        isNull(members.deletedAt),
        guestPictured,
        inArray(members.country, o.countries),
        eq(members.gender, o.gender),
        o.except === undefined ? undefined : ne(members.id, o.except),
        o.born ? lte(members.dateOfBirth, o.born.onOrBefore) : undefined,
        o.born ? gt(members.dateOfBirth, o.born.after) : undefined,
      ),
    )
    .orderBy(desc(members.publicActiveAt), desc(members.id))
    .limit(limit)
}

/** Spec §7: a manual search is remembered (the member's saved search) unless do_not_save. */
export async function saveSearch(db: Db, memberId: number, filters: Filters): Promise<void> {
  await db.update(members).set({ savedSearch: filters }).where(eq(members.id, memberId))
}
