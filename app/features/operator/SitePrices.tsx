// Credit packages with their prices, and the operator's discount codes, in
// the console's sites page. The server checks every value (400 naming the
// field) and keeps each change in the audit log with before and after.
import { type FormEvent, useState } from 'react'
import type { DiscountEntry, PackageEntry } from '../../../api/contract/operator/sites.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { type CallResult, call, useConsoleQuery } from '../../data/console-client.ts'
import { formatDateTime } from '../../ui/format.ts'

const failure = (r: CallResult<unknown>) =>
  !r.ok && r.field ? m.op_site_bad_field({ field: r.field }) : m.error_generic()

/** "EUR=1999, GBP=1799" ⇄ {EUR: 1999, GBP: 1799} (minor units). */
const pricesText = (p: Record<string, number>) =>
  Object.entries(p)
    .map(([c, a]) => `${c}=${a}`)
    .join(', ')
const pricesOf = (text: string) =>
  Object.fromEntries(
    text
      .split(',')
      .map((s) => s.split('=').map((x) => x.trim()))
      .filter(([c, a]) => c && a)
      .map(([c, a]) => [c, Number(a)]),
  )

const num = (v: FormDataEntryValue | null) => (v === null || v === '' ? null : Number(v))

export function SitePrices() {
  const packs = useConsoleQuery('operatorPackages')
  const codes = useConsoleQuery('operatorDiscounts')
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)

  const done = (r: CallResult<unknown>, reload: () => void) => {
    setStatus(r.ok ? { ok: true, text: m.op_site_saved() } : { ok: false, text: failure(r) })
    if (r.ok) reload()
    return r.ok
  }

  async function savePackage(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const f = new FormData(e.currentTarget)
    const r = await call('operatorPackageSave', {
      body: {
        id: String(f.get('id') ?? '').trim(),
        credits: Number(f.get('credits')),
        bonus: Number(f.get('bonus') ?? 0),
        position: Number(f.get('position') ?? 0),
        featured: f.get('featured') === 'on',
        active: f.get('active') === 'on',
        prices: pricesOf(String(f.get('prices') ?? '')),
      },
    })
    done(r, packs.reload)
  }

  async function saveCode(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const formEl = e.currentTarget
    const f = new FormData(formEl)
    const ends = String(f.get('ends_at') ?? '')
    const r = await call('operatorDiscountSave', {
      body: {
        code: String(f.get('code') ?? ''),
        // The select's options are the two kinds an operator makes; the server checks.
        kind: String(f.get('kind')) as Exclude<DiscountEntry['kind'], 'welcome'>,
        bonus_percent: num(f.get('bonus_percent')),
        percent_off: num(f.get('percent_off')),
        ends_at: ends ? new Date(ends).toISOString() : null,
        max_uses: num(f.get('max_uses')),
      },
    })
    if (done(r, codes.reload)) formEl.reset()
  }

  async function removeCode(code: string) {
    const r = await call('operatorDiscountDelete', { body: { code } })
    done(r, codes.reload)
  }

  return (
    <>
      <h2>{m.op_site_packages_title()}</h2>
      <p role="status" className={status && !status.ok ? 'form__error' : undefined}>
        {status?.text}
      </p>
      <PackagesTable packages={packs.data?.packages} />
      <PackageForm onSave={(e) => void savePackage(e)} />

      <h2>{m.op_site_codes_title()}</h2>
      <CodesTable discounts={codes.data?.discounts} onRemove={(code) => void removeCode(code)} />
      <CodeForm onSave={(e) => void saveCode(e)} />
    </>
  )
}

/** The form that adds or changes a discount code. */
function CodeForm({ onSave }: { onSave: (e: FormEvent<HTMLFormElement>) => void }) {
  return (
    <form className="site-form" aria-label={m.op_site_code_save()} onSubmit={onSave}>
      <label className="site-form__field">
        <code>code</code>
        <input name="code" required maxLength={32} />
      </label>
      <label className="site-form__field">
        <code>kind</code>
        <select name="kind" defaultValue="normal">
          <option value="normal">normal</option>
          <option value="time_bonus">time_bonus</option>
        </select>
      </label>
      <label className="site-form__field">
        <code>bonus_percent</code>
        <input name="bonus_percent" type="number" min={1} max={500} />
      </label>
      <label className="site-form__field">
        <code>percent_off</code>
        <input name="percent_off" type="number" min={1} max={100} />
      </label>
      <label className="site-form__field">
        <code>ends_at</code>
        <input name="ends_at" type="datetime-local" />
      </label>
      <label className="site-form__field">
        <code>max_uses</code>
        <input name="max_uses" type="number" min={1} />
      </label>
      <div className="site-form__actions">
        <button type="submit" className="button">
          {m.op_site_code_save()}
        </button>
      </div>
    </form>
  )
}

/** The discount codes, each with its remove button. */
function CodesTable({
  discounts,
  onRemove,
}: {
  discounts: DiscountEntry[] | undefined
  onRemove: (code: string) => void
}) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <thead>
          <tr>
            <th scope="col">code</th>
            <th scope="col">kind</th>
            <th scope="col">bonus_percent</th>
            <th scope="col">percent_off</th>
            <th scope="col">ends_at</th>
            <th scope="col">uses</th>
            <th scope="col">{m.op_col_action()}</th>
          </tr>
        </thead>
        <tbody>
          {discounts?.map((d) => (
            <tr key={d.code}>
              <td>
                <code>{d.code}</code>
              </td>
              <td>{d.kind}</td>
              <td>{d.bonus_percent ?? '—'}</td>
              <td>{d.percent_off ?? '—'}</td>
              <td>{d.ends_at ? formatDateTime(d.ends_at) : '—'}</td>
              <td>
                {d.uses}
                {d.max_uses !== null ? `/${d.max_uses}` : ''}
              </td>
              <td>
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => onRemove(d.code)}
                >
                  {m.op_site_code_remove({ code: d.code })}
                </button>
              </td>
            </tr>
          ))}
          {discounts && discounts.length === 0 && (
            <tr>
              <td colSpan={7}>{m.op_site_job_none()}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}

/** The form that adds or changes a credit package. */
function PackageForm({ onSave }: { onSave: (e: FormEvent<HTMLFormElement>) => void }) {
  return (
    <form className="site-form" aria-label={m.op_site_package_save()} onSubmit={onSave}>
      {(
        [
          ['id', 'text'],
          ['credits', 'number'],
          ['bonus', 'number'],
          ['position', 'number'],
          ['prices', 'text'],
        ] as const
      ).map(([name, type]) => (
        <label key={name} className="site-form__field">
          <code>{name}</code>
          <input
            name={name}
            type={type}
            required={name === 'id' || name === 'credits' || name === 'prices'}
            placeholder={name === 'prices' ? 'EUR=1999, GBP=1799' : undefined}
            min={type === 'number' ? 0 : undefined}
          />
        </label>
      ))}
      <label>
        <input type="checkbox" name="featured" /> <code>featured</code>
      </label>
      <label>
        <input type="checkbox" name="active" defaultChecked /> <code>active</code>
      </label>
      <div className="site-form__actions">
        <button type="submit" className="button">
          {m.op_site_package_save()}
        </button>
      </div>
    </form>
  )
}

/** The credit packages with their prices. */
function PackagesTable({ packages }: { packages: PackageEntry[] | undefined }) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <thead>
          <tr>
            <th scope="col">id</th>
            <th scope="col">credits</th>
            <th scope="col">bonus</th>
            <th scope="col">position</th>
            <th scope="col">featured</th>
            <th scope="col">active</th>
            <th scope="col">prices</th>
          </tr>
        </thead>
        <tbody>
          {packages?.map((p) => (
            <tr key={p.id}>
              <td>
                <code>{p.id}</code>
              </td>
              <td>{p.credits}</td>
              <td>{p.bonus}</td>
              <td>{p.position}</td>
              <td>{p.featured ? '✓' : '—'}</td>
              <td>{p.active ? '✓' : '—'}</td>
              <td>{pricesText(p.prices)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
