// Sites and settings (sites.edit): the spec §3 settings of each site (host)
// or server-wide, the message cost and the route rules. The server checks
// every value with the settings' own schemas and names a bad field; a change
// applies on the next request and is in the audit log with before and after.
import { createFileRoute } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type {
  OperatorSettings,
  SiteUpdateRequest,
  SitesResponse,
} from '../../../../../api/contract/operator/sites.ts'
import type { Template } from '../../../../../api/contract/settings.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { type CallResult, consoleCall, useConsoleQuery } from '../../../../data/operator.ts'
import { SitePrices } from '../../../../features/operator/SitePrices.tsx'
import '../../../../features/operator/sites.css'

export const Route = createFileRoute('/_default/operator/_console/sites')({
  component: SitesPage,
})

type Key = keyof OperatorSettings
type Kind =
  | { type: 'text' }
  | { type: 'list' }
  | { type: 'number'; min: number; max?: number }
  /** Text that may be unset: an empty box is null. */
  | { type: 'country' }
type Choice = { type: 'choice'; options: readonly string[] }
type Bool = { type: 'bool' }

/** Spec §1/§9 designs (the contract's TEMPLATES; app/ takes only types from it). */
const TEMPLATES: readonly Template[] = ['classic', 'boxy', 'lavish']

/** The fields the form edits, by their spec §3 names (the operator's vocabulary). */
const FIELDS: [Key, Kind | Choice | Bool][] = [
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
]
const FLAGS = ['navigation', 'chat', 'likes', 'notifications', 'footer_copyright'] as const

type Costs = OperatorSettings['minimum_message_costs']

/** The message costs as rows: the set ones, then an empty one to add a country. */
const costRows = (costs: Costs) => [
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

const failure = (r: CallResult<unknown>) =>
  !r.ok && r.field ? m.op_site_bad_field({ field: r.field }) : m.error_generic()

function SitesPage() {
  const sites = useConsoleQuery<SitesResponse>('/api/operator/sites.php')
  /** '' is the server-wide settings. */
  const [scope, setScope] = useState('')
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)
  const data = sites.data
  const site = data?.sites.find((s) => s.host === scope)
  const effective = scope === '' ? data?.server.effective : site?.effective
  const overrides = (scope === '' ? data?.server.overrides : site?.overrides) ?? {}

  async function update(body: SiteUpdateRequest) {
    setStatus(null)
    const r = await consoleCall<SitesResponse>('PUT', '/api/operator/sites.php', body)
    setStatus(r.ok ? { ok: true, text: m.op_site_saved() } : { ok: false, text: failure(r) })
    if (r.ok) sites.reload()
    return r.ok
  }

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (!effective) return
    const form = new FormData(e.currentTarget)
    const settings: Record<string, unknown> = {}
    for (const [key, kind] of FIELDS) {
      const raw = form.get(key)
      const value =
        kind.type === 'bool'
          ? raw === 'on'
          : kind.type === 'number'
            ? Number(raw)
            : kind.type === 'list'
              ? listOf(String(raw ?? ''))
              : kind.type === 'country'
                ? String(raw ?? '').trim() || null
                : String(raw ?? '')
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
    const reason = String(form.get('reason') ?? '').trim()
    await update({
      host: scope || null,
      settings: settings as SiteUpdateRequest['settings'],
      ...(reason ? { reason } : {}),
    })
  }

  async function addSite(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const formEl = e.currentTarget
    const host = String(new FormData(formEl).get('host') ?? '')
      .trim()
      .toLowerCase()
    if (await update({ host, settings: {} })) {
      formEl.reset()
      setScope(host)
    }
  }

  async function removeSite() {
    if (!scope || !window.confirm(m.op_site_remove_confirm({ host: scope }))) return
    const r = await consoleCall<SitesResponse>('DELETE', '/api/operator/sites.php', { host: scope })
    if (r.ok) {
      setScope('')
      sites.reload()
    } else setStatus({ ok: false, text: failure(r) })
  }

  async function saveCost(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const credits = Number(new FormData(e.currentTarget).get('credits'))
    const r = await consoleCall('PUT', '/api/operator/message-cost.php', { credits })
    setStatus(r.ok ? { ok: true, text: m.op_site_saved() } : { ok: false, text: failure(r) })
    if (r.ok) sites.reload()
  }

  async function saveRules(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    let rules: unknown
    try {
      rules = JSON.parse(String(new FormData(e.currentTarget).get('rules') ?? '[]'))
    } catch {
      setStatus({ ok: false, text: m.op_site_bad_field({ field: 'rules' }) })
      return
    }
    const r = await consoleCall('PUT', '/api/operator/route-rules.php', { rules })
    setStatus(r.ok ? { ok: true, text: m.op_site_saved() } : { ok: false, text: failure(r) })
    if (r.ok) sites.reload()
  }

  return (
    <main>
      <h1>{m.op_site_title()}</h1>
      <p>{m.op_site_intro()}</p>
      {sites.error && <p role="alert">{m.error_generic()}</p>}
      <p role="status" className={status && !status.ok ? 'form__error' : undefined}>
        {status?.text}
      </p>
      {data && (
        <div className="site-scope">
          <label className="site-form__field">
            {m.op_site_scope()}
            <select value={scope} onChange={(e) => setScope(e.target.value)}>
              <option value="">{m.op_site_server_wide()}</option>
              {data.sites.map((s) => (
                <option key={s.host} value={s.host}>
                  {s.host}
                </option>
              ))}
            </select>
          </label>
          {scope && (
            <button type="button" className="button button--secondary" onClick={removeSite}>
              {m.op_site_remove()}
            </button>
          )}
          <form className="site-scope" onSubmit={(e) => void addSite(e)}>
            <label className="site-form__field">
              {m.op_site_new_host()}
              <input name="host" required maxLength={253} placeholder="example.com" />
            </label>
            <button type="submit" className="button button--secondary">
              {m.op_site_add()}
            </button>
          </form>
        </div>
      )}
      {effective && (
        <form
          key={`${scope}:${JSON.stringify(effective)}`}
          className="site-form"
          aria-label={scope || m.op_site_server_wide()}
          onSubmit={(e) => void save(e)}
        >
          {FIELDS.map(([key, kind]) => {
            const value = effective[key]
            const own = key in overrides
            const label = (
              <span>
                <code>{key}</code>
                {own && <span className="console-tag">{m.op_site_set_here()}</span>}
              </span>
            )
            return (
              <div key={key} className="site-form__field">
                {kind.type === 'bool' ? (
                  <label>
                    <input type="checkbox" name={key} defaultChecked={value === true} /> {label}
                  </label>
                ) : (
                  <>
                    <label htmlFor={`site-${key}`}>{label}</label>
                    {kind.type === 'choice' ? (
                      <select id={`site-${key}`} name={key} defaultValue={String(value)}>
                        {kind.options.map((o) => (
                          <option key={o} value={o}>
                            {o}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input
                        id={`site-${key}`}
                        name={key}
                        type={kind.type === 'number' ? 'number' : 'text'}
                        {...(kind.type === 'number'
                          ? { min: kind.min, ...(kind.max ? { max: kind.max } : {}) }
                          : {})}
                        {...(kind.type === 'country'
                          ? {
                              maxLength: 2,
                              autoComplete: 'off',
                              'aria-describedby': `site-${key}-hint`,
                            }
                          : {})}
                        defaultValue={
                          Array.isArray(value)
                            ? value.join(', ')
                            : value === null
                              ? ''
                              : String(value)
                        }
                      />
                    )}
                    {kind.type === 'country' && (
                      <small id={`site-${key}-hint`}>{m.op_site_country_hint()}</small>
                    )}
                  </>
                )}
                {own && (
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={() => void update({ host: scope || null, clear: [key] })}
                  >
                    {m.op_site_reset({ field: key })}
                  </button>
                )}
              </div>
            )
          })}
          <CostsFieldset
            costs={effective.minimum_message_costs}
            own={'minimum_message_costs' in overrides}
            onReset={() => void update({ host: scope || null, clear: ['minimum_message_costs'] })}
          />
          <fieldset>
            <legend>
              <code>template_flags</code>
            </legend>
            {FLAGS.map((f) => (
              <label key={f}>
                <input
                  type="checkbox"
                  name={`flag_${f}`}
                  defaultChecked={effective.template_flags[f]}
                />{' '}
                {f}
              </label>
            ))}
          </fieldset>
          <label className="site-form__field">
            {m.op_site_reason()}
            <input name="reason" maxLength={500} />
          </label>
          <div className="site-form__actions">
            <button type="submit" className="button">
              {m.op_site_save()}
            </button>
          </div>
        </form>
      )}
      {data && (
        <>
          <h2>{m.op_site_cost_title()}</h2>
          <form className="site-scope" onSubmit={(e) => void saveCost(e)}>
            <label className="site-form__field">
              {m.op_site_cost_label()}
              <input
                name="credits"
                type="number"
                min={0}
                max={10000}
                required
                defaultValue={data.message_cost}
                key={data.message_cost}
              />
            </label>
            <button type="submit" className="button">
              {m.op_site_save()}
            </button>
          </form>
          <h2>{m.op_site_rules_title()}</h2>
          <form className="site-form" onSubmit={(e) => void saveRules(e)}>
            <label className="site-form__field" style={{ gridColumn: '1 / -1' }}>
              {m.op_site_rules_label()}
              <textarea
                name="rules"
                rows={6}
                defaultValue={JSON.stringify(data.route_rules, null, 2)}
                key={JSON.stringify(data.route_rules)}
              />
            </label>
            <div className="site-form__actions">
              <button type="submit" className="button">
                {m.op_site_save()}
              </button>
            </div>
          </form>
          <SitePrices />
        </>
      )}
    </main>
  )
}

/**
 * Spec §3 minimum_message_costs: one row per country with the price of a
 * message and its currency, and an empty row to add one. Each box has its
 * own label (the column and the row), for screen readers and narrow screens.
 */
function CostsFieldset({
  costs,
  own,
  onReset,
}: {
  costs: Costs
  own: boolean
  onReset: () => void
}) {
  const rows = costRows(costs)
  return (
    <fieldset className="site-costs" aria-describedby="site-costs-hint">
      <legend>
        <code>minimum_message_costs</code>
        {own && <span className="console-tag">{m.op_site_set_here()}</span>}
      </legend>
      <p id="site-costs-hint">{m.op_site_costs_hint()}</p>
      {rows.map((row, i) => {
        const n = { n: String(i + 1) }
        return (
          <div key={row.country || '+'} className="site-costs__row">
            <label>
              {m.op_site_costs_country()}
              <span className="visually-hidden"> · {m.op_site_costs_row(n)}</span>
              <input
                name={`cost_country_${i}`}
                defaultValue={row.country}
                maxLength={2}
                pattern="[A-Za-z]{2}"
                autoComplete="off"
              />
            </label>
            <label>
              {m.op_site_costs_amount()}
              <span className="visually-hidden"> · {m.op_site_costs_row(n)}</span>
              <input
                name={`cost_amount_${i}`}
                type="number"
                min={0}
                step="0.01"
                inputMode="decimal"
                defaultValue={String(row.costs)}
              />
            </label>
            <label>
              {m.op_site_costs_currency()}
              <span className="visually-hidden"> · {m.op_site_costs_row(n)}</span>
              <input
                name={`cost_currency_${i}`}
                defaultValue={row.currency}
                maxLength={3}
                pattern="[A-Za-z]{3}"
                autoComplete="off"
              />
            </label>
          </div>
        )
      })}
      {own && (
        <button type="button" className="button button--secondary" onClick={onReset}>
          {m.op_site_reset({ field: 'minimum_message_costs' })}
        </button>
      )}
    </fieldset>
  )
}
