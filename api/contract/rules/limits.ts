// Numbers of the contract both ends apply. No zod here (rules/ imports
// nothing), so the app can import them without pulling the schemas into its bundle.

/** Spec §9: search page size. */
export const SEARCH_PAGE_SIZE = 12
/**
 * The most matches a search counts and pages through (docs/search.md: num_results at scale).
 * An exact count of a large result set reads every matching index entry (a
 * US search matches 200,000 members: 60-100 ms at a million members, even
 * index-only); capped, it reads at most this many (about 2 ms). Pages past
 * the cap come back empty, so no request skips more entries either.
 */
export const SEARCH_RESULT_CAP = 10_000
/** Spec §9: minimum age 18, picker maximum 100. */
export const MIN_AGE = 18
export const MAX_AGE = 100

/** Spec §9: name max 150; city max 255. */
export const NAME_MAX = 150
export const CITY_MAX = 255
/** No spec limit on passwords: non-empty (§5), capped so hashing stays cheap to refuse. */
export const PASSWORD_MAX = 1024
/**
 * A new password (sign-up, reset) has at least this many characters (NIST SP
 * 800-63B's minimum) and is not on the common-password list (docs/security.md).
 */
export const PASSWORD_MIN = 8
/** RFC 5321 path limit: an address longer than this cannot be delivered. */
export const EMAIL_MAX = 254
/** Characters per profile note. */
export const NOTE_MAX = 5000

/** Upload limits (POST /api/profileimage.php): 400/413 field file beyond them. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024
export const IMAGE_MAX_PIXELS = 40_000_000
export const IMAGE_MAX_FILES = 6
/** Pictures one member may keep. */
export const IMAGE_MAX_PER_MEMBER = 20

/** Mailed tokens (activation, reset, mail change) are at most this long: longer is no token of ours. */
export const TOKEN_MAX = 128
