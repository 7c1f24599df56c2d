import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { TEMPLATES } from '../../../api/contract/rules/templates.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { useSession } from '../../data/session.ts'
import { worker } from '../../data/worker.ts'
import { useWorker } from '../account/forms/use-worker.ts'
import { DEV_PANEL_KEY, DEV_TEMPLATE_KEY, ENTRY_CONFIRMED_KEY, setFlag, useFlag } from './flags.ts'

/**
 * Mail stored rather than sent (no SMTP_URL, as on a development
 * configuration) is told by GET /api/_dev/mail.php answering: to a member,
 * or to anyone with DEV_MAIL=all (api/mail/routes.ts). The developer panel
 * and the /_dev pages show only there; what they change the server allows
 * only on a development configuration (api/config.ts `development`).
 */
export function useDevConfig(): boolean | undefined {
  const mails = useWorker(() => worker().devMails())
  return mails === undefined ? undefined : mails !== null
}

/**
 * Spec §2 developer panel, shown when its open flag is set (`?dev=1`, see
 * flags.ts) on a development configuration: set credits to zero, delete the
 * skipped-site-entry-warning flag, switch the design version (a preview on
 * this device only).
 */
export function DevPanel() {
  const open = useFlag(DEV_PANEL_KEY) === '1'
  if (!open) return null
  return <DevPanelIfDev />
}

function DevPanelIfDev() {
  const dev = useDevConfig()
  const { user } = useSession()
  const template = useFlag(DEV_TEMPLATE_KEY) ?? ''
  const [note, setNote] = useState<string | null>(null)
  const id = useId()
  if (!dev) return null
  return (
    <aside className="dev-panel" aria-label={m.dev_panel_title()}>
      <strong>{m.dev_panel_title()}</strong>
      {user && (
        <button
          type="button"
          onClick={() =>
            void worker()
              .zeroCredits()
              .then((res) => setNote(res.ok ? m.dev_zero_credits_done() : res.error.code))
          }
        >
          {m.dev_zero_credits()}
        </button>
      )}
      <button
        type="button"
        onClick={() => {
          setFlag(ENTRY_CONFIRMED_KEY, null)
          setNote(m.dev_forget_entry_done())
        }}
      >
        {m.dev_forget_entry()}
      </button>
      <label htmlFor={id}>{m.dev_template()}</label>
      <select
        id={id}
        value={template}
        onChange={(e) => setFlag(DEV_TEMPLATE_KEY, e.target.value || null)}
      >
        <option value="">{m.dev_template_site()}</option>
        {TEMPLATES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      {user && <Link to="/_dev">{m.dev_index_title()}</Link>}
      <button type="button" onClick={() => setFlag(DEV_PANEL_KEY, null)}>
        {m.dev_panel_close()}
      </button>
      {note && <p role="status">{note}</p>}
    </aside>
  )
}
