// The site settings (spec §3): one copy, in the store (kv `settings`), typed.
// Public, so guests have them too; offline the stored copy serves.
import type { CompanyInfo, Settings } from '../../api/contract/index.ts'
import type { SyncContext } from '../core/context.ts'
import { ok, type Result } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { request } from '../core/http.ts'
import { kvGet, kvPut, kvStore } from '../store/kv.ts'

/** An operator's change reaches a member within this long (or at the next page load). */
export const SETTINGS_TTL_MS = 5 * 60_000

/**
 * GET /api/settings.php into kv `settings`. `epoch`: the store's when the
 * caller decided to ask (sync/core/fence.ts); a wipe since then drops the answer.
 */
export async function syncSettings(
  ctx: SyncContext,
  epoch: number = ctx.db.epoch,
): Promise<Result<Settings>> {
  // Both keys in the fence's one transaction: a logout between two writes
  // would otherwise leave the time of the sync on a wiped device.
  const res = await fenced(
    ctx.db,
    () => request('settings'),
    async (settings) => {
      await kvPut(ctx.db, 'settings', settings)
      await kvPut(ctx.db, 'settingsSyncedAt', ctx.now())
      return settings
    },
    epoch,
  )
  if (res.ok) ctx.emit({ type: 'synced', what: 'settings' })
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
 * The settings fetched for a member's errand (the push re-send on a member's
 * page load): only while a member is signed in, and dropped when the logout
 * comes first, so a page that loads its push code late does not put the
 * settings back on a device just wiped.
 */
export async function syncSettingsForMember(ctx: SyncContext): Promise<Result<Settings | null>> {
  const epoch = ctx.db.epoch
  if (!(await kvGet(ctx.db, 'user'))) return ok(null)
  return syncSettings(ctx, epoch)
}

/**
 * GET /api/companyinfo.php into kv `companyInfo`: the imprint the footer
 * shows on every page (name, address, KvK, VAT numbers). Public, like the
 * settings; offline the stored copy serves.
 */
export async function syncCompanyInfo(ctx: SyncContext): Promise<Result<CompanyInfo>> {
  return fenced(ctx.db, () => request('companyInfo'), kvStore(ctx.db, 'companyInfo'))
}
