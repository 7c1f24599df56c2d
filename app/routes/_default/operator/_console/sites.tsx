// Sites and settings (sites.edit): the spec §3 settings of each site (host)
// or server-wide, the message cost and the route rules. The server checks
// every value with the settings' own schemas and names a bad field; a change
// applies on the next request and is in the audit log with before and after.
// The forms are in -components/; this page holds the scope and the status.
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import type { SiteUpdateRequest } from '../../../../../api/contract/operator/sites.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { type CallResult, call, useConsoleQuery } from '../../../../data/console-client.ts'
import { SiteGifts } from '../../../../features/operator/SiteGifts.tsx'
import { SitePrices } from '../../../../features/operator/SitePrices.tsx'
import { MessageCostForm } from './-components/MessageCostForm.tsx'
import { RouteRulesForm } from './-components/RouteRulesForm.tsx'
import { SiteScope } from './-components/SiteScope.tsx'
import { SiteSettingsForm } from './-components/SiteSettingsForm.tsx'
import { siteFailure } from './-components/site-fields.ts'
import '../../../../features/operator/sites.css'

export const Route = createFileRoute('/_default/operator/_console/sites')({
  component: SitesPage,
})

function SitesPage() {
  const sites = useConsoleQuery('operatorSites')
  /** '' is the server-wide settings. */
  const [scope, setScope] = useState('')
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)
  const data = sites.data
  const site = data?.sites.find((s) => s.host === scope)
  const effective = scope === '' ? data?.server.effective : site?.effective
  const overrides = (scope === '' ? data?.server.overrides : site?.overrides) ?? {}

  /** Shows how a change went; reloads the settings after one that worked. */
  function done(r: CallResult<unknown>) {
    setStatus(r.ok ? { ok: true, text: m.op_site_saved() } : { ok: false, text: siteFailure(r) })
    if (r.ok) sites.reload()
    return r.ok
  }

  async function update(body: SiteUpdateRequest) {
    setStatus(null)
    return done(await call('operatorSiteUpdate', { body }))
  }

  async function addSite(host: string) {
    const added = await update({ host, settings: {} })
    if (added) setScope(host)
    return added
  }

  async function removeSite() {
    if (!scope || !window.confirm(m.op_site_remove_confirm({ host: scope }))) return
    const r = await call('operatorSiteDelete', { body: { host: scope } })
    if (r.ok) {
      setScope('')
      sites.reload()
    } else setStatus({ ok: false, text: siteFailure(r) })
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
        <SiteScope
          hosts={data.sites.map((s) => s.host)}
          scope={scope}
          onScope={setScope}
          onRemove={() => void removeSite()}
          onAdd={addSite}
        />
      )}
      {effective && (
        <SiteSettingsForm
          scope={scope}
          effective={effective}
          overrides={overrides}
          update={update}
        />
      )}
      {data && (
        <>
          <MessageCostForm credits={data.message_cost} onDone={done} />
          <RouteRulesForm
            rules={data.route_rules}
            onDone={done}
            onBadJson={() =>
              setStatus({ ok: false, text: m.op_site_bad_field({ field: 'rules' }) })
            }
          />
          <SitePrices />
          <SiteGifts />
        </>
      )}
    </main>
  )
}
