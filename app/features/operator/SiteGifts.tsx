// The gift catalogue in the console's sites page: every site's gifts with
// their prices, and a form that adds or changes one (by site and id). The
// server checks every value (a floor of 1 credit, 400 naming the field) and
// keeps each change in the audit log with before and after.
import type { FormEvent } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import { call, useConsoleQuery } from '../../data/console-client.ts'
import { CatalogueForm, CatalogueTable, SaveStatus, useSaveStatus, yesNo } from './catalogue.tsx'

export function SiteGifts() {
  const list = useConsoleQuery('operatorGifts')
  const { status, done } = useSaveStatus()

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
    done(r, list.reload)
  }

  return (
    <>
      <h2>{m.op_site_gifts_title()}</h2>
      <SaveStatus status={status} />
      <CatalogueTable
        columns={['site', 'slug', 'icon', 'name', 'credits', 'position', 'active']}
        rows={list.data?.gifts}
        rowKey={(g) => `${g.site}/${g.slug}`}
        cells={(g) => [
          g.site === '' ? m.op_site_report_default_site() : g.site,
          <code key="slug">{g.slug}</code>,
          g.icon,
          g.name ?? '—',
          g.credits,
          g.position,
          yesNo(g.active),
        ]}
      />
      <CatalogueForm
        label={m.op_site_gift_save()}
        fields={[
          { name: 'site' },
          { name: 'slug', required: true },
          { name: 'icon', required: true, maxLength: 8 },
          { name: 'name' },
          // The floor: no gift is free by mistake (the server checks it too).
          { name: 'credits', type: 'number', required: true, min: 1 },
          { name: 'position', type: 'number', min: 0 },
        ]}
        checks={[{ name: 'active', checked: true }]}
        onSave={(e) => void save(e)}
      />
    </>
  )
}
