import { z } from 'zod'
import { Gender, queryInt } from './common.ts'
import { Profile } from './profile.ts'
import { MAX_AGE, MIN_AGE, SEARCH_PAGE_SIZE, SEARCH_RESULT_CAP } from './rules/limits.ts'

export { MAX_AGE, MIN_AGE, SEARCH_PAGE_SIZE, SEARCH_RESULT_CAP }

const flag = z
  .union([z.literal('0'), z.literal('1'), z.literal('true'), z.literal('false')])
  .transform((v) => v === '1' || v === 'true')
  .optional()

/** Decimal digits only, as page and pp: `3e1`, `0x1E` or ` 30` are refused, not read as 30. */
const age = queryInt(MIN_AGE, MAX_AGE)

export const SearchSort = z.enum(['active', 'online'])
export type SearchSort = z.infer<typeof SearchSort>

/** Spec §7 GET /api/search.php query. */
export const SearchQuery = z
  .object({
    source: z.string().max(64).optional(),
    pp: queryInt(1, 48).default(SEARCH_PAGE_SIZE),
    auto_load: flag,
    hideNudity: flag,
    searchAllCountries: flag,
    trafficsource: z.string().max(64).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .transform((c) => c.toUpperCase())
      .optional(),
    countryregion: z.string().max(16).optional(),
    min_age: age.optional(),
    max_age: age.optional(),
    gender: Gender.optional(),
    page: queryInt(1, 10_000).default(1),
    manual_search: flag,
    do_not_save: flag,
    /**
     * The order (docs/live.md "Online now"): `active` (the default) by recent
     * activity, `online` members online now first, then by when they were
     * last seen, those who hide it last. Not part of the saved search.
     */
    sort: SearchSort.default('active'),
    /** Verified members only (photo verification): `1`/`true`, or `0`/`false` for everyone. */
    verified: flag,
  })
  .refine((q) => q.min_age === undefined || q.max_age === undefined || q.min_age <= q.max_age, {
    path: ['min_age'],
    message: 'min_age must not exceed max_age',
  })
export type SearchQuery = z.input<typeof SearchQuery>
export type SearchParams = z.output<typeof SearchQuery>

export const SearchResponse = z.object({
  profiles: z.array(Profile),
  filter_options: z.object({
    gender: z.array(Gender),
    min_age: z.number().int(),
    max_age: z.number().int(),
    country: z.array(z.object({ id: z.string(), name: z.string() })),
    countryregion: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  /** The filters the server applied (the saved search when none were sent). */
  filters: z.object({
    gender: Gender.nullable(),
    country: z.string().nullable(),
    countryregion: z.string().nullable(),
    min_age: z.number().int(),
    max_age: z.number().int(),
    /** Verified members only; absent from answers cached before the filter existed. */
    verified: z.boolean().default(false),
  }),
  paging: z.object({
    /**
     * Matches, exact up to SEARCH_RESULT_CAP; a search matching more answers
     * SEARCH_RESULT_CAP (read it as "10,000 or more").
     */
    num_results: z.number().int(),
    page: z.number().int(),
    pp: z.number().int(),
  }),
  /**
   * Spec §4 "similar results": when page 1 finds fewer than a page, members
   * the age range widened by 5 years each way adds (none of them in
   * `profiles`), shown apart. Always present; empty otherwise.
   */
  similar: z.array(Profile).default([]),
})
export type SearchResponse = z.infer<typeof SearchResponse>

/** GET /api/showcase.php: the guest home's curated member photos (api/search/showcase.ts). */
export const ShowcaseResponse = z.object({ profiles: z.array(Profile) })
export type ShowcaseResponse = z.infer<typeof ShowcaseResponse>
