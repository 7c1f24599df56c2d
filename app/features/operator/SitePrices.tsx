// Credit packages with their prices, and the operator's discount codes, in
// the console's sites page. The server checks every value (400 naming the
// field) and keeps each change in the audit log with before and after.
import type { FormEvent } from 'react'
import type { DiscountEntry, PackageEntry } from '../../../api/contract/operator/sites.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { call, useConsoleQuery } from '../../data/console-client.ts'
import { formatDateTime } from '../../ui/format.ts'
import { CatalogueForm, CatalogueTable, SaveStatus, useSaveStatus, yesNo } from './catalogue.tsx'

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
  const { status, done } = useSaveStatus()

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
      <SaveStatus status={status} />
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
    <CatalogueForm
      label={m.op_site_code_save()}
      fields={[
        { name: 'code', required: true, maxLength: 32 },
        { name: 'kind', options: ['normal', 'time_bonus'] },
        { name: 'bonus_percent', type: 'number', min: 1, max: 500 },
        { name: 'percent_off', type: 'number', min: 1, max: 100 },
        { name: 'ends_at', type: 'datetime-local' },
        { name: 'max_uses', type: 'number', min: 1 },
      ]}
      onSave={onSave}
    />
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
    <CatalogueTable
      columns={[
        'code',
        'kind',
        'bonus_percent',
        'percent_off',
        'ends_at',
        'uses',
        m.op_col_action(),
      ]}
      rows={discounts}
      rowKey={(d) => d.code}
      empty={m.op_site_job_none()}
      cells={(d) => [
        <code key="code">{d.code}</code>,
        d.kind,
        d.bonus_percent ?? '—',
        d.percent_off ?? '—',
        d.ends_at ? formatDateTime(d.ends_at) : '—',
        `${d.uses}${d.max_uses !== null ? `/${d.max_uses}` : ''}`,
        <button
          key="remove"
          type="button"
          className="button button--secondary"
          onClick={() => onRemove(d.code)}
        >
          {m.op_site_code_remove({ code: d.code })}
        </button>,
      ]}
    />
  )
}

/** The form that adds or changes a credit package. */
function PackageForm({ onSave }: { onSave: (e: FormEvent<HTMLFormElement>) => void }) {
  return (
    <CatalogueForm
      label={m.op_site_package_save()}
      fields={[
        { name: 'id', required: true },
        { name: 'credits', type: 'number', required: true, min: 0 },
        { name: 'bonus', type: 'number', min: 0 },
        { name: 'position', type: 'number', min: 0 },
        { name: 'prices', required: true, placeholder: 'EUR=1999, GBP=1799' },
      ]}
      checks={[
        { name: 'featured', checked: false },
        { name: 'active', checked: true },
      ]}
      onSave={onSave}
    />
  )
}

/** The credit packages with their prices. */
function PackagesTable({ packages }: { packages: PackageEntry[] | undefined }) {
  return (
    <CatalogueTable
      columns={['id', 'credits', 'bonus', 'position', 'featured', 'active', 'prices']}
      rows={packages}
      rowKey={(p) => p.id}
      cells={(p) => [
        <code key="id">{p.id}</code>,
        p.credits,
        p.bonus,
        p.position,
        yesNo(p.featured),
        yesNo(p.active),
        pricesText(p.prices),
      ]}
    />
  )
}
