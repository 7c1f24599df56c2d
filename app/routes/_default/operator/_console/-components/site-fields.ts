// The settings form of the sites page (sites.tsx): which spec §3 settings it
// edits and how, and the change it sends (only what differs from the
// settings in effect). Pure; the server checks every value.
import type {
  OperatorSettings,
  SiteUpdateRequest,
} from '../../../../../../api/contract/operator/sites.ts'
import { TEMPLATES } from '../../../../../../api/contract/rules/templates.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import type { CallResult } from '../../../../../data/console-client.ts'

export type SettingKey = keyof OperatorSettings
export type FieldKind =
  | { type: 'text' }
  | { type: 'list' }
  | { type: 'number'; min: number; max?: number }
  /** Text that may be unset: an empty box is null. */
  | { type: 'country' }
  | { type: 'choice'; options: readonly string[] }
  | { type: 'bool' }

/** The fields the form edits, by their spec §3 names (the operator's vocabulary). */
export const FIELDS: [SettingKey, FieldKind][] = [
  ['name', { type: 'text' }],
  ['template', { type: 'choice', options: TEMPLATES }],
  ['niche', { type: 'number', min: 1, max: 7 }],
  ['domain_language', { type: 'text' }],
  ['signups', { type: 'choice', options: ['all', 'with_trafficsource', 'other'] }],
  ['logged_out_search', { type: 'choice', options: ['none', 'all'] }],
  ['logged_out_search_trafficsource', { type: 'choice', options: ['none', 'all'] }],
  ['fictional_icon', { type: 'bool' }],
  ['support_phone', { type: 'text' }],
  ['company_name', { type: 'text' }],
  ['company_address', { type: 'text' }],
  ['company_kvk', { type: 'text' }],
  ['company_city', { type: 'text' }],
  ['company_country', { type: 'text' }],
  ['company_tradenames', { type: 'list' }],
  ['company_vat_numbers', { type: 'list' }],
  ['delete_discount', { type: 'number', min: 0 }],
  ['visible_profile_fields', { type: 'list' }],
  ['visible_profile_notes', { type: 'list' }],
  ['search_fields', { type: 'list' }],
  ['member_resell', { type: 'list' }],
  ['cdn_prefix', { type: 'text' }],
  ['geoip_selected_country', { type: 'country' }],
  ['geoip_country', { type: 'country' }],
  ['photo_premoderation', { type: 'bool' }],
  ['age_assurance', { type: 'choice', options: ['off', 'signup', 'first_contact'] }],
  ['fake_reports_to_hide', { type: 'number', min: 0 }],
  ['face_match', { type: 'choice', options: ['auto', 'assist', 'off'] }],
  // The floor of 1 is the server's too (api/contract/settings.ts): no paid action is free by mistake.
  ['photo_message_credits', { type: 'number', min: 1 }],
  ['voice_message_credits', { type: 'number', min: 1 }],
  ['private_photo_credits', { type: 'number', min: 1 }],
]
export const FLAGS = ['navigation', 'chat', 'likes', 'notifications', 'footer_copyright'] as const

export type Costs = OperatorSettings['minimum_message_costs']

/** The message costs as rows: the set ones, then an empty one to add a country. */
export const costRows = (costs: Costs) => [
  ...Object.entries(costs).map(([country, c]) => ({ country, ...c })),
  { country: '', costs: '', currency: '' },
]

/** The costs the form holds (rows without a country are dropped); the server checks each value. */
function costsOf(form: FormData, rows: number): Costs {
  const out: Costs = {}
  for (let i = 0; i < rows; i++) {
    const country = String(form.get(`cost_country_${i}`) ?? '')
      .trim()
      .toUpperCase()
    if (!country) continue
    const amount = String(form.get(`cost_amount_${i}`) ?? '').trim()
    out[country] = {
      // An empty or unreadable amount goes as null: the server names the field.
      costs: amount === '' ? (null as unknown as number) : Number(amount),
      currency: String(form.get(`cost_currency_${i}`) ?? '')
        .trim()
        .toUpperCase(),
    }
  }
  return out
}

/** Same costs whatever the order of the countries. */
const sameCosts = (a: Costs, b: Costs) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort())

const listOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** A field's value as the form holds it, in the setting's own type. */
function fieldValue(kind: FieldKind, raw: FormDataEntryValue | null): unknown {
  switch (kind.type) {
    case 'bool':
      return raw === 'on'
    case 'number':
      return Number(raw)
    case 'list':
      return listOf(String(raw ?? ''))
    case 'country':
      return String(raw ?? '').trim() || null
    default:
      return String(raw ?? '')
  }
}

/** What the settings form changes against the settings in `effective`: only the fields that differ. */
export function settingsChange(
  form: FormData,
  effective: OperatorSettings,
): NonNullable<SiteUpdateRequest['settings']> {
  const settings: Record<string, unknown> = {}
  for (const [key, kind] of FIELDS) {
    const value = fieldValue(kind, form.get(key))
    if (JSON.stringify(value) !== JSON.stringify(effective[key])) settings[key] = value
  }
  const flags: Record<string, boolean> = {}
  for (const f of FLAGS) {
    const on = form.get(`flag_${f}`) === 'on'
    if (on !== effective.template_flags[f]) flags[f] = on
  }
  if (Object.keys(flags).length > 0) settings.template_flags = flags
  const costs = costsOf(form, costRows(effective.minimum_message_costs).length)
  if (!sameCosts(costs, effective.minimum_message_costs)) settings.minimum_message_costs = costs
  return settings as NonNullable<SiteUpdateRequest['settings']>
}

/** The sites page's message for a failed call: the field the server named, or a generic one. */
export const siteFailure = (r: CallResult<unknown>) =>
  !r.ok && r.field ? m.op_site_bad_field({ field: r.field }) : m.error_generic()
