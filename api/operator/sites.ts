// The operator settings as the console edits them: site_settings rows (one
// per server-wide field, `sites` mapping hosts to their own fields,
// `message_cost_credits`, `route_rules`), credit packages with their prices
// and discount codes. Nothing here is cached: the next request reads the
// change (the cached message cost is dropped on every process when it
// changes, api/credits/ledger.ts).
import type { Db } from '../../db/client.ts'
import type {
  DiscountEntry,
  PackageEntry,
  PackageSaveRequest,
  RouteRule,
  SettingsPatch,
  SitesResponse,
} from '../contract/operator/sites.ts'
import { messageCost } from '../credits/index.ts'
import {
  type DiscountCodeRow,
  deleteOperatorCode,
  discountCode,
  operatorCodes,
  packagesWithPrices,
  putDiscountCode,
  putPackage,
} from '../payments/index.ts'
import {
  DEFAULT_SETTINGS,
  deleteSetting,
  operatorSettings,
  putSetting,
  settingRows,
} from '../settings/index.ts'
import { loadRouteRules, ROUTE_RULES_KEY } from '../traffic/index.ts'

type Overrides = Record<string, unknown>
const SITES_KEY = 'sites'
const MESSAGE_COST_KEY = 'message_cost_credits'
const OPERATOR_KEYS = Object.keys(DEFAULT_SETTINGS)

const asObject = (v: unknown): Overrides =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Overrides) : {}

/** The server-wide fields set in site_settings. */
async function serverOverrides(db: Db): Promise<Overrides> {
  return Object.fromEntries(await settingRows(db, OPERATOR_KEYS))
}

async function sitesMap(db: Db): Promise<Record<string, Overrides>> {
  const raw = asObject((await settingRows(db, [SITES_KEY])).get(SITES_KEY))
  return Object.fromEntries(Object.entries(raw).map(([h, v]) => [h, asObject(v)]))
}

/** Every site the server knows, with what each sets and what it gets. */
export async function sitesView(db: Db): Promise<SitesResponse> {
  const [overrides, sites, cost, rules] = await Promise.all([
    serverOverrides(db),
    sitesMap(db),
    messageCost(db),
    loadRouteRules(db),
  ])
  const hosts = Object.keys(sites).sort()
  return {
    defaults: DEFAULT_SETTINGS,
    server: { overrides, effective: await operatorSettings(db) },
    sites: await Promise.all(
      hosts.map(async (host) => ({
        host,
        overrides: sites[host] ?? {},
        effective: await operatorSettings(db, host),
      })),
    ),
    message_cost: await exactMessageCost(db, cost),
    route_rules: rules,
  }
}

/** The stored cost (another process's NOTIFY may not have reached this one's cache yet). */
async function exactMessageCost(db: Db, cached: number) {
  const v = (await settingRows(db, [MESSAGE_COST_KEY])).get(MESSAGE_COST_KEY)
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : cached
}

/** Template flags given in part merge with the ones already set. */
function apply(before: Overrides, patch: SettingsPatch, clear: string[]): Overrides {
  const after: Overrides = { ...before }
  for (const key of clear) delete after[key]
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    after[key] = key === 'template_flags' ? { ...asObject(after[key]), ...asObject(value) } : value
  }
  return after
}

/** Only the fields that changed, each as {before, after}, for the audit log. */
export function changesOf(before: Overrides, after: Overrides) {
  const out: Record<string, { before: unknown; after: unknown }> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      out[key] = { before: before[key] ?? null, after: after[key] ?? null }
  return out
}

/**
 * Sets (and clears) fields of one site, or server-wide when `host` is null.
 * Returns the fields before and after.
 */
export async function updateSite(
  tx: Db,
  host: string | null,
  patch: SettingsPatch,
  clear: string[],
): Promise<{ before: Overrides; after: Overrides }> {
  if (host === null) {
    const before = await serverOverrides(tx)
    const after = apply(before, patch, clear)
    for (const key of OPERATOR_KEYS) {
      if (!(key in after) && key in before) await deleteSetting(tx, key)
      else if (key in after && JSON.stringify(after[key]) !== JSON.stringify(before[key]))
        await putSetting(tx, key, after[key])
    }
    return { before, after }
  }
  const sites = await sitesMap(tx)
  const before = sites[host] ?? {}
  const after = apply(before, patch, clear)
  await putSetting(tx, SITES_KEY, { ...sites, [host]: after })
  return { before, after }
}

/** Removes a host's own settings (it gets the server-wide ones again); its fields before, or null. */
export async function deleteSite(tx: Db, host: string): Promise<Overrides | null> {
  const sites = await sitesMap(tx)
  const before = sites[host]
  if (!before) return null
  delete sites[host]
  await putSetting(tx, SITES_KEY, sites)
  return before
}

export async function setMessageCost(tx: Db, credits: number): Promise<unknown> {
  const before = (await settingRows(tx, [MESSAGE_COST_KEY])).get(MESSAGE_COST_KEY) ?? null
  await putSetting(tx, MESSAGE_COST_KEY, credits)
  return before
}

export async function setRouteRules(tx: Db, rules: RouteRule[]): Promise<unknown> {
  const before = (await settingRows(tx, [ROUTE_RULES_KEY])).get(ROUTE_RULES_KEY) ?? []
  await putSetting(tx, ROUTE_RULES_KEY, rules)
  return before
}

/** Every package, active or not, with its prices. */
export async function listPackages(db: Db): Promise<PackageEntry[]> {
  const [packs, prices] = await packagesWithPrices(db)
  return packs.map((p) => ({
    id: p.id,
    credits: p.credits,
    bonus: p.bonus,
    position: p.position,
    featured: p.featured,
    active: p.active,
    prices: Object.fromEntries(
      prices.filter((x) => x.packageId === p.id).map((x) => [x.currency, x.amount]),
    ),
  }))
}

type PackageInput = Required<Omit<PackageSaveRequest, 'reason'>>

/** Creates or replaces a package and its prices; the package before (null if new). */
export async function savePackage(tx: Db, input: PackageInput): Promise<PackageEntry | null> {
  const before = (await listPackages(tx)).find((p) => p.id === input.id) ?? null
  const row = {
    credits: input.credits,
    bonus: input.bonus,
    position: input.position,
    featured: input.featured,
    active: input.active,
  }
  await putPackage(tx, input.id, row, input.prices)
  return before
}

const toEntry = (r: DiscountCodeRow): DiscountEntry => ({
  code: r.code,
  kind: r.kind as DiscountEntry['kind'],
  bonus_percent: r.bonusPercent,
  percent_off: r.percentOff,
  ends_at: r.endsAt?.toISOString() ?? null,
  max_uses: r.maxUses,
  uses: r.uses,
})

/** The operator's codes (not the personal ones the server makes per member), newest first. */
export async function listDiscounts(db: Db): Promise<DiscountEntry[]> {
  const rows = await operatorCodes(db)
  return rows.map(toEntry)
}

export interface DiscountInput {
  code: string
  kind: 'normal' | 'time_bonus'
  bonus_percent: number | null
  percent_off: number | null
  ends_at: string | null
  max_uses: number | null
}

/**
 * Creates or changes an operator's code; the code before (null if new), or
 * 'personal' when the code belongs to a member (not the operator's to edit).
 */
export async function saveDiscount(
  tx: Db,
  d: DiscountInput,
): Promise<DiscountEntry | null | 'personal'> {
  const old = await discountCode(tx, d.code)
  if (old && old.memberId !== null) return 'personal'
  const row = {
    kind: d.kind,
    bonusPercent: d.bonus_percent,
    percentOff: d.percent_off,
    endsAt: d.ends_at ? new Date(d.ends_at) : null,
    maxUses: d.max_uses,
  }
  await putDiscountCode(tx, d.code, row)
  return old ? toEntry(old) : null
}

/** Deletes an operator's code; the code before, or null when there is none. */
export async function deleteDiscount(tx: Db, code: string): Promise<DiscountEntry | null> {
  const old = await deleteOperatorCode(tx, code)
  return old ? toEntry(old) : null
}
