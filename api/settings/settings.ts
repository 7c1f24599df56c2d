import { inArray } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { COUNTRIES } from '../../db/reference/geo.ts'
import { siteSettings } from '../../db/schema.ts'
import { Settings } from '../contract/index.ts'
import { vapidKeys } from '../push/vapid.ts'
import { regionData } from '../reference/regions.ts'

type Operator = Omit<Settings, 'region_data' | 'countries' | 'push_pub'>

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
}

const OPERATOR_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof Operator)[]

/** The public settings. Only the known keys are read: secrets share the table. */
export async function loadSettings(db: Db): Promise<Settings> {
  const rows = await db.select().from(siteSettings).where(inArray(siteSettings.key, OPERATOR_KEYS))
  const overrides = Object.fromEntries(rows.map((r) => [r.key, r.value]))
  const settings = {
    ...DEFAULT_SETTINGS,
    ...overrides,
    region_data: regionData(),
    countries: COUNTRIES.map((c) => ({ id: c.id, name: c.name })),
    push_pub: (await vapidKeys(db)).publicKey,
  }
  // A bad operator value must not break every page: fall back to the defaults.
  const parsed = Settings.safeParse(settings)
  if (parsed.success) return parsed.data
  console.error('site_settings: invalid override ignored', parsed.error.issues)
  return Settings.parse({ ...settings, ...DEFAULT_SETTINGS })
}

/**
 * Operator settings from the environment (`SITE_SETTINGS`, a JSON object of
 * spec §3 Settings fields), written to site_settings at start so a deploy
 * can set them without a database session. Unknown keys and values that do
 * not fit the Settings schema are refused, naming the key.
 */
export async function applySettingsFromEnv(db: Db, json: string | undefined): Promise<string[]> {
  if (!json) return []
  const parsed: unknown = JSON.parse(json)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('SITE_SETTINGS must be a JSON object')
  }
  const entries = Object.entries(parsed)
  for (const [key, value] of entries) {
    if (!(OPERATOR_KEYS as string[]).includes(key))
      throw new Error(`SITE_SETTINGS: unknown key ${key}`)
    const field = Settings.shape[key as keyof Operator]
    if (!field.safeParse(value).success) throw new Error(`SITE_SETTINGS: bad value for ${key}`)
  }
  for (const [key, value] of entries) {
    await db
      .insert(siteSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value } })
  }
  return entries.map(([k]) => k)
}
