// The gift catalogue in the console's sites page: every site's gifts with
// their prices, and a form that adds or changes one (by site and id). The
// server checks every value (a floor of 1 credit, 400 naming the field) and
// keeps each change in the audit log with before and after.
import { type FormEvent, useState } from 'react'
import type { GiftEntry } from '../../../api/contract/operator/sites.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { type CallResult, call, useConsoleQuery } from '../../data/console-client.ts'

const failure = (r: CallResult<unknown>) =>
  !r.ok && r.field ? m.op_site_bad_field({ field: r.field }) : m.error_generic()

export function SiteGifts() {
  const list = useConsoleQuery('operatorGifts')
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const f = new FormData(e.currentTarget)
    const r = await call('operatorGiftSave', {
      body: {
        site: String(f.get('site') ?? '').trim(),
        slug: String(f.get('slug') ?? '').trim(),
        icon: String(f.get('icon') ?? '').trim(),
        name: String(f.get('name') ?? '').trim() || null,
        credits: Number(f.get('credits')),
        position: Number(f.get('position') ?? 0),
        active: f.get('active') === 'on',
      },
    })
    setStatus(r.ok ? { ok: true, text: m.op_site_saved() } : { ok: false, text: failure(r) })
    if (r.ok) list.reload()
  }

  return (
    <>
      <h2>{m.op_site_gifts_title()}</h2>
      <p role="status" className={status && !status.ok ? 'form__error' : undefined}>
        {status?.text}
      </p>
      <GiftsTable gifts={list.data?.gifts} />
      <form className="site-form" aria-label={m.op_site_gift_save()} onSubmit={(e) => void save(e)}>
        {(
          [
            ['site', 'text', false],
            ['slug', 'text', true],
            ['icon', 'text', true],
            ['name', 'text', false],
            ['credits', 'number', true],
            ['position', 'number', false],
          ] as const
        ).map(([name, type, required]) => (
          <label key={name} className="site-form__field">
            <code>{name}</code>
            <input
              name={name}
              type={type}
              required={required}
              min={name === 'credits' ? 1 : type === 'number' ? 0 : undefined}
              maxLength={name === 'icon' ? 8 : undefined}
            />
          </label>
        ))}
        <label>
          <input type="checkbox" name="active" defaultChecked /> <code>active</code>
        </label>
        <div className="site-form__actions">
          <button type="submit" className="button">
            {m.op_site_gift_save()}
          </button>
        </div>
      </form>
    </>
  )
}

function GiftsTable({ gifts }: { gifts: GiftEntry[] | undefined }) {
  return (
    <div className="console-table-wrap">
      <table className="console-table">
        <thead>
          <tr>
            <th scope="col">site</th>
            <th scope="col">slug</th>
            <th scope="col">icon</th>
            <th scope="col">name</th>
            <th scope="col">credits</th>
            <th scope="col">position</th>
            <th scope="col">active</th>
          </tr>
        </thead>
        <tbody>
          {gifts?.map((g) => (
            <tr key={`${g.site}/${g.slug}`} data-gift={`${g.site}/${g.slug}`}>
              <td>{g.site === '' ? m.op_site_report_default_site() : g.site}</td>
              <td>
                <code>{g.slug}</code>
              </td>
              <td>{g.icon}</td>
              <td>{g.name ?? '—'}</td>
              <td>{g.credits}</td>
              <td>{g.position}</td>
              <td>{g.active ? '✓' : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
