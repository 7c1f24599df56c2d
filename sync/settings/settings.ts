// The site settings (spec §3): one copy, in the store (kv `settings`), typed.
// Public, so guests have them too; offline the stored copy serves.
import type { CompanyInfo, Settings } from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { ok, type Result } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { request } from '../core/http.ts'
import { kvGet, kvPut } from '../store/kv.ts'

/** An operator's change reaches a member within this long (or at the next page load). */
export const SETTINGS_TTL_MS = 5 * 60_000

/** GET /api/settings.php into kv `settings`. */
export async function syncSettings(ctx: SyncContext): Promise<Result<Settings>> {
  const res = await fenced(ctx.db, () => request('settings'))
  if (!res.ok) return res
  await kvPut(ctx.db, 'settings', res.value)
  await kvPut(ctx.db, 'settingsSyncedAt', ctx.now())
  ctx.emit({ type: 'synced', what: 'settings' })
  return res
}

/** The stored settings, refreshed first when older than SETTINGS_TTL_MS; the stored copy when offline. */
export async function settings(ctx: SyncContext): Promise<Result<Settings>> {
  const stored = await kvGet(ctx.db, 'settings')
  const at = (await kvGet(ctx.db, 'settingsSyncedAt')) ?? 0
  if (stored && ctx.now() - at < SETTINGS_TTL_MS) return ok(stored)
  const res = await syncSettings(ctx)
  return res.ok || !stored ? res : ok(stored)
}

/**
 * GET /api/companyinfo.php into kv `companyInfo`: the imprint the footer
 * shows on every page (name, address, KvK, VAT numbers). Public, like the
 * settings; offline the stored copy serves.
 */
export async function syncCompanyInfo(ctx: SyncContext): Promise<Result<CompanyInfo>> {
  const res = await fenced(ctx.db, () => request('companyInfo'))
  if (!res.ok) return res
  await kvPut(ctx.db, 'companyInfo', res.value)
  return res
}
