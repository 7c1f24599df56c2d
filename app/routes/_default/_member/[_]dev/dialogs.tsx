// /_dev/dialogs: every dialog of the site, opened one at a time for review.
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { m } from '../../../../../messages/paraglide/messages.js'
import { useSettings } from '../../../../data/useSettings.ts'
import { LegalModal } from '../../../../features/account/forms/LegalModals.tsx'
import { EntryWarning } from '../../../../features/site/EntryWarning.tsx'
import { ReportDialog } from '../../../../ui/ReportDialog.tsx'

export const Route = createFileRoute('/_default/_member/_dev/dialogs')({ component: DevDialogs })

type Which = 'terms' | 'privacy' | 'report' | 'entry'

function DevDialogs() {
  const settings = useSettings()
  const [open, setOpen] = useState<Which | null>(null)
  const close = () => setOpen(null)
  const dialogs: { id: Which; label: string }[] = [
    { id: 'terms', label: m.terms_title() },
    { id: 'privacy', label: m.privacy_title() },
    { id: 'report', label: m.report_title({ name: 'Anna' }) },
    { id: 'entry', label: m.entry_title() },
  ]
  return (
    <main className="page page--narrow">
      <h1>{m.dev_dialogs_title()}</h1>
      <ul>
        {dialogs.map((d) => (
          <li key={d.id}>
            {d.label}{' '}
            <button type="button" className="link-button" onClick={() => setOpen(d.id)}>
              {m.dev_open()}
            </button>
          </li>
        ))}
      </ul>
      <LegalModal
        doc={open === 'terms' || open === 'privacy' ? open : null}
        site={settings?.name ?? ''}
        company={settings?.company_name ?? ''}
        onClose={close}
      />
      {open === 'report' && <ReportDialog profile={{ id: 0, name: 'Anna' }} onClose={close} />}
      {open === 'entry' && <EntryWarning />}
    </main>
  )
}
