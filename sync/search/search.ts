// Search pages (GET /api/search.php, spec §6, §7) into the store, by filters.
import { SEARCH_PAGE_SIZE } from '../../api/contract/rules/limits.ts'
import type { SyncContext } from '../core/context.ts'
import type { Result } from '../core/errors.ts'
import { pull } from '../core/pull.ts'
import { type SearchFilters, searchKey } from './search-key.ts'

/**
 * Fetches one search page into the store under searchKey(filters).
 * `trafficsource`: a guest's affiliate network, which may open logged-out
 * search (spec §6).
 */
export function searchPage(
  ctx: SyncContext,
  filters: SearchFilters,
  page: number,
  manual = false,
  trafficsource?: string,
): Promise<Result<{ key: string }>> {
  const key = searchKey(filters)
  const query = {
    ...filters,
    page,
    pp: SEARCH_PAGE_SIZE,
    trafficsource,
    ...(manual ? { manual_search: 1 } : {}),
  }
  return pull(ctx, 'search', { query }, 'search', async (answer) => {
    const { profiles, paging, filters: applied, filter_options, similar } = answer
    const { db } = ctx
    await db.transaction('rw', [db.searchPages, db.profiles], async () => {
      const seenAt = ctx.now()
      await db.profiles.bulkPut([...profiles, ...similar].map((p) => ({ ...p, seenAt })))
      await db.searchPages.put({
        key,
        page,
        ids: profiles.map((p) => p.id),
        numResults: paging.num_results,
        filters: applied,
        filterOptions: filter_options,
        fetchedAt: seenAt,
        similarIds: similar.map((p) => p.id),
      })
    })
    return { key }
  })
}
