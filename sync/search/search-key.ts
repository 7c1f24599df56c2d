/** What a member chose in the search form (spec §7 filters after init). */
export interface SearchFilters {
  gender?: 'male' | 'female' | undefined
  country?: string | undefined
  countryregion?: string | undefined
  min_age?: number | undefined
  max_age?: number | undefined
  /** Online first (docs/live.md); absent: by recent activity. Not saved with the filters. */
  sort?: 'online' | undefined
  /** Verified members only (photo verification). */
  verified?: boolean | undefined
}

/**
 * The key a search page is stored under. The page and the worker compute it
 * from the same filters, so the page can show a stored result before (or
 * without) the network. No filters at all = the server's default/saved search.
 */
export function searchKey(f: SearchFilters): string {
  const parts = [
    f.gender ?? '',
    f.country ?? '',
    f.countryregion ?? '',
    f.min_age ?? '',
    f.max_age ?? '',
    // Only when on, so the keys of searches without it stay as they were.
    ...(f.verified ? ['verified'] : []),
  ]
  const base = parts.every((p) => p === '') ? 'default' : parts.join('|')
  return f.sort === 'online' ? `${base}|online` : base
}

/**
 * Whether these filters are a manual search (any filter chosen), which the
 * server saves (spec §7); the order alone is none. The page tests its key's
 * start (`default`, or `default|online`) for the same.
 */
export const isManualSearch = (f: SearchFilters): boolean => !searchKey(f).startsWith('default')
