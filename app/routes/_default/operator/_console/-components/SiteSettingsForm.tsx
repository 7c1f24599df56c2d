import type { FormEvent } from 'react'
import type {
  OperatorSettings,
  SiteUpdateRequest,
} from '../../../../../../api/contract/operator/sites.ts'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { CostsFieldset } from './CostsFieldset.tsx'
import { FIELDS, type FieldKind, FLAGS, type SettingKey, settingsChange } from './site-fields.ts'

/**
 * The spec §3 settings of one site (`scope`, a host) or server-wide (''):
 * every field with the value in effect, marked where this scope sets it
 * itself, with a reset to stop setting it. Saving sends only what changed.
 */
export function SiteSettingsForm({
  scope,
  effective,
  overrides,
  update,
}: {
  scope: string
  effective: OperatorSettings
  overrides: Record<string, unknown>
  update: (body: SiteUpdateRequest) => Promise<boolean>
}) {
  const host = scope || null
  const clear = (key: SettingKey) => void update({ host, clear: [key] })

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const reason = String(form.get('reason') ?? '').trim()
    await update({
      host,
      settings: settingsChange(form, effective),
      ...(reason ? { reason } : {}),
    })
  }

  return (
    <form
      key={`${scope}:${JSON.stringify(effective)}`}
      className="site-form"
      aria-label={scope || m.op_site_server_wide()}
      onSubmit={(e) => void save(e)}
    >
      {FIELDS.map(([key, kind]) => (
        <SettingField
          key={key}
          name={key}
          kind={kind}
          value={effective[key]}
          own={key in overrides}
          onReset={() => clear(key)}
        />
      ))}
      <CostsFieldset
        costs={effective.minimum_message_costs}
        own={'minimum_message_costs' in overrides}
        onReset={() => clear('minimum_message_costs')}
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
  )
}

/** One setting: a checkbox, a choice or a box, by its kind; its reset when this scope sets it. */
function SettingField({
  name,
  kind,
  value,
  own,
  onReset,
}: {
  name: SettingKey
  kind: FieldKind
  value: unknown
  own: boolean
  onReset: () => void
}) {
  const id = `site-${name}`
  const label = (
    <span>
      <code>{name}</code>
      {own && <span className="console-tag">{m.op_site_set_here()}</span>}
    </span>
  )
  return (
    <div className="site-form__field">
      {kind.type === 'bool' ? (
        <label>
          <input type="checkbox" name={name} defaultChecked={value === true} /> {label}
        </label>
      ) : (
        <>
          <label htmlFor={id}>{label}</label>
          {kind.type === 'choice' ? (
            <select id={id} name={name} defaultValue={String(value)}>
              {kind.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={id}
              name={name}
              type={kind.type === 'number' ? 'number' : 'text'}
              {...(kind.type === 'number'
                ? { min: kind.min, ...(kind.max ? { max: kind.max } : {}) }
                : {})}
              {...(kind.type === 'country'
                ? { maxLength: 2, autoComplete: 'off', 'aria-describedby': `${id}-hint` }
                : {})}
              defaultValue={
                Array.isArray(value) ? value.join(', ') : value === null ? '' : String(value)
              }
            />
          )}
          {kind.type === 'country' && <small id={`${id}-hint`}>{m.op_site_country_hint()}</small>}
        </>
      )}
      {own && (
        <button type="button" className="button button--secondary" onClick={onReset}>
          {m.op_site_reset({ field: name })}
        </button>
      )}
    </div>
  )
}
