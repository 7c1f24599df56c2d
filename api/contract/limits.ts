// Numbers of the contract that pages need too. No zod here, so the app can
// import them without pulling the schemas into its bundle.

/** Spec §9: search page size. */
export const SEARCH_PAGE_SIZE = 12
/**
 * The most matches a search counts and pages through (README "Performance").
 * An exact count of a large result set reads every matching index entry (a
 * US search matches 200,000 members: 60-100 ms at a million members, even
 * index-only); capped, it reads at most this many (about 2 ms). Pages past
 * the cap come back empty, so no request skips more entries either.
 */
export const SEARCH_RESULT_CAP = 10_000
/** Spec §9: minimum age 18, picker maximum 100. */
export const MIN_AGE = 18
export const MAX_AGE = 100
