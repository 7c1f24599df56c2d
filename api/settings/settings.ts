import { inArray } from 'drizzle-orm'
import { type Db, withStartLock } from '../../db/client.ts'
import { COUNTRIES } from '../../db/reference/geo.ts'
import { siteSettings } from '../../db/schema/index.ts'
import { type CompanyInfo, Settings, TemplateFlags } from '../contract/index.ts'
import { regionData } from '../reference/index.ts'
import { vapidKeys } from './vapid.ts'

export type Operator = Omit<Settings, 'region_data' | 'countries' | 'push_pub'>

/**
 * Defaults of the operator settings (spec §3). An operator overrides any of
 * them with a row in site_settings (key = field name, value = JSON), without
 * a deploy. Values the spec leaves "not shown" are placeholders an operator
 * is expected to set (company data, message costs).
 */
export const DEFAULT_SETTINGS: Operator = {
  domain_language: 'en',
  signups: 'all',
  logged_out_search: 'none',
  logged_out_search_trafficsource: 'none',
  niche: 1,
  template: 'classic',
  template_flags: {
    navigation: true,
    chat: true,
    likes: true,
    notifications: true,
    footer_copyright: true,
  },
  geoip_selected_country: null,
  geoip_country: null,
  minimum_message_costs: { NL: { costs: 1, currency: 'EUR' }, GB: { costs: 1, currency: 'GBP' } },
  fictional_icon: true,
  support_phone: '+31 20 000 0000',
  company_name: 'Amora B.V.',
  company_address: 'Keizersgracht 1',
  company_kvk: '00000000',
  company_city: 'Amsterdam',
  company_country: 'NL',
  company_tradenames: ['Amora'],
  company_vat_numbers: ['NL000000000B01'],
  delete_discount: 0,
  name: 'Amora',
  visible_profile_fields: ['relationship', 'height', 'smoking', 'children', 'education'],
  visible_profile_notes: ['personal', 'looking_for'],
  search_fields: ['gender', 'country', 'countryregion', 'age'],
  cdn_prefix: '',
  member_resell: ['cams'],
  photo_premoderation: false,
  age_assurance: 'off',
  fake_reports_to_hide: 3,
  face_match: 'assist',
  photo_message_credits: 30,
  voice_message_credits: 20,
  private_photo_credits: 50,
}

const OPERATOR_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof Operator)[]
/** The per-host site overrides live in one row under this key (see `siteOf`). */
const SITES_KEY = 'sites'

/** A value an operator may give for `key`; template flags may be given in part. */
const fieldOf = (key: keyof Operator) =>
  key === 'template_flags' ? TemplateFlags.partial() : Settings.shape[key]

type Overrides = Partial<Record<string, unknown>>

/**
 * One server, several sites: the `sites` setting maps a host (`host` or
 * `host:port`, lower case) to the settings that differ on it (template, niche,
 * name, company data, ...). A request to any other host gets the default
 * site. The host is matched with its port first, then without.
 */
function siteOf(sites: unknown, host: string | undefined): Overrides {
  if (!host || typeof sites !== 'object' || sites === null) return {}
  const bySite = sites as Record<string, Overrides>
  const h = host.toLowerCase()
  return bySite[h] ?? bySite[h.replace(/:\d+$/, '')] ?? {}
}

/**
 * The site a request to `host` belongs to, as the `sites` setting names it
 * (matched as siteOf matches), or '' for the server-wide site. Reports split
 * by this key: it takes only the values the operator configured, whatever
 * Host header a client sends.
 */
export async function siteKeyOf(db: Db, host: string | undefined): Promise<string> {
  if (!host) return ''
  const [row] = await db
    .select()
    .from(siteSettings)
    .where(inArray(siteSettings.key, [SITES_KEY]))
  const sites = row?.value
  if (typeof sites !== 'object' || sites === null) return ''
  const h = host.toLowerCase()
  const bare = h.replace(/:\d+$/, '')
  if (Object.hasOwn(sites, h)) return h
  if (Object.hasOwn(sites, bare)) return bare
  return ''
}

/** The hosts of the `sites` setting, sorted. */
export async function siteKeys(db: Db): Promise<string[]> {
  const [row] = await db
    .select()
    .from(siteSettings)
    .where(inArray(siteSettings.key, [SITES_KEY]))
  const sites = row?.value
  if (typeof sites !== 'object' || sites === null) return []
  return Object.keys(sites).sort()
}

/** Later layers win; template flags merge flag by flag. */
function merge(...layers: Overrides[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) {
      out[k] =
        k === 'template_flags' && typeof v === 'object'
          ? { ...(out[k] as object), ...(v as object) }
          : v
    }
  }
  return out
}

/** The settings an operator sets: all but what is built per request (regions, push key). */
const OperatorSchema = Settings.omit({ region_data: true, countries: true, push_pub: true })

/**
 * The operator settings of the site at `host` (defaults, then the server-wide
 * rows of site_settings, then the host's entry of `sites`), without the parts
 * that cost more to build (regions, push key). A bad operator value must not
 * break every page: the layer that holds it is ignored, with a log line.
 */
export async function operatorSettings(db: Db, host?: string): Promise<Operator> {
  const keys = [...OPERATOR_KEYS, SITES_KEY]
  const rows = await db.select().from(siteSettings).where(inArray(siteSettings.key, keys))
  const global = Object.fromEntries(
    rows.filter((r) => r.key !== SITES_KEY).map((r) => [r.key, r.value]),
  )
  const site = siteOf(rows.find((r) => r.key === SITES_KEY)?.value, host)
  for (const layers of [
    [DEFAULT_SETTINGS, global, site],
    [DEFAULT_SETTINGS, global],
    [DEFAULT_SETTINGS],
  ]) {
    const parsed = OperatorSchema.safeParse(merge(...layers))
    if (parsed.success) return parsed.data
    console.error('site_settings: invalid override ignored', host, parsed.error.issues)
  }
  return DEFAULT_SETTINGS
}

/** The name of the operator settings' cache (notifyCacheChange, api/events/bus.ts). */
export const SETTINGS_CACHE = 'operator_settings'

/**
 * A process's copy of operatorSettings per host is kept this long at most.
 * Every write of the settings tells every process to drop its copies
 * (SETTINGS_CACHE, forgetOperatorSettings); this only bounds a copy kept by
 * a process that missed the NOTIFY.
 */
const SETTINGS_TTL_MS = 60_000
type HostCache<T> = WeakMap<Db, Map<string, { at: number; value: Promise<T> }>>
const settingsCache: HostCache<Operator> = new WeakMap()
const siteKeyCache: HostCache<string> = new WeakMap()

/** `load(host)` through a process's cache per Db and host, kept SETTINGS_TTL_MS at most. */
function cachedPerHost<T>(
  cache: HostCache<T>,
  db: Db,
  host: string | undefined,
  load: () => Promise<T>,
): Promise<T> {
  let byHost = cache.get(db)
  if (!byHost) {
    byHost = new Map()
    cache.set(db, byHost)
  }
  const key = host ?? ''
  const hit = byHost.get(key)
  if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit.value
  const value = load()
  // A failed read is not kept: the next request asks again.
  value.catch(() => byHost.delete(key))
  // Hosts are what clients send: the cache holds a bounded number.
  if (byHost.size >= 256) byHost.clear()
  byHost.set(key, { at: Date.now(), value })
  return value
}

/**
 * operatorSettings from the process's cache: the hot paths (the paid send's
 * age gate) read no settings row per request.
 */
export function cachedOperatorSettings(db: Db, host?: string): Promise<Operator> {
  return cachedPerHost(settingsCache, db, host, () => operatorSettings(db, host))
}

/** siteKeyOf from the same cache, dropped with it: a gift send reads no settings row. */
export function cachedSiteKeyOf(db: Db, host: string | undefined): Promise<string> {
  return cachedPerHost(siteKeyCache, db, host, () => siteKeyOf(db, host))
}

/** Drops every cached copy of the operator settings of `db`. */
export function forgetOperatorSettings(db: Db): void {
  settingsCache.delete(db)
  siteKeyCache.delete(db)
}

/** The public settings of the site at `host`. Only known keys are read: secrets share the table. */
export async function loadSettings(
  db: Db,
  host?: string,
  /** The host's operator settings when the caller has read them already. */
  operator?: Operator,
): Promise<Settings> {
  return {
    ...(operator ?? (await operatorSettings(db, host))),
    region_data: regionData(),
    countries: COUNTRIES.map((c) => ({ id: c.id, name: c.name })),
    push_pub: (await vapidKeys(db)).publicKey,
  }
}

/** Checks one `sites` entry: an object of known settings, each valid. */
function checkSites(value: unknown) {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('SITE_SETTINGS: sites must map hosts to settings')
  for (const [host, site] of Object.entries(value)) {
    if (typeof site !== 'object' || site === null || Array.isArray(site))
      throw new Error(`SITE_SETTINGS: sites.${host} must be an object`)
    for (const [key, v] of Object.entries(site)) checkField(key, v, `sites.${host}.`)
  }
}

function checkField(key: string, value: unknown, prefix = '') {
  if (!(OPERATOR_KEYS as string[]).includes(key))
    throw new Error(`SITE_SETTINGS: unknown key ${prefix}${key}`)
  if (!fieldOf(key as keyof Operator).safeParse(value).success)
    throw new Error(`SITE_SETTINGS: bad value for ${prefix}${key}`)
}

/**
 * Operator settings from the environment (`SITE_SETTINGS`, a JSON object of
 * spec §3 Settings fields, plus `template`, `template_flags` and `sites`),
 * written to site_settings at start so a deploy can set them without a
 * database session. Unknown keys and values that do not fit the Settings
 * schema are refused, naming the key. Example of two sites on one server:
 * `{"sites":{"gay.example":{"template":"lavish","niche":7,"name":"Amora Men"}}}`.
 */
export async function applySettingsFromEnv(db: Db, json: string | undefined): Promise<string[]> {
  if (!json) return []
  const parsed: unknown = JSON.parse(json)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('SITE_SETTINGS must be a JSON object')
  }
  const entries = Object.entries(parsed)
  for (const [key, value] of entries) {
    if (key === SITES_KEY) checkSites(value)
    else checkField(key, value)
  }
  // Each upsert is safe beside another process's; under the start-up lock
  // two processes starting at once with different SITE_SETTINGS also leave
  // one whole set, not a mix of both (docs/several-machines.md).
  await withStartLock(db, async () => {
    for (const [key, value] of entries) {
      await db
        .insert(siteSettings)
        .values({ key, value })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value } })
    }
  })
  forgetOperatorSettings(db)
  return entries.map(([k]) => k)
}

/** Spec §3 company info response: the settings' company fields under their own names. */
export const companyInfo = (s: Settings): CompanyInfo => ({
  name: s.company_name,
  address: s.company_address,
  kvk: s.company_kvk,
  city: s.company_city,
  country: s.company_country,
  tradenames: s.company_tradenames,
  vat_numbers: s.company_vat_numbers,
  support_phone: s.support_phone,
  delete_discount: s.delete_discount,
})
