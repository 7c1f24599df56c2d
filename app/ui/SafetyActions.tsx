// Report and block, wherever a member meets another (profile, chat header).
import { useState } from 'react'
import { m } from '../../messages/paraglide/messages.js'
import { worker } from '../data/worker.ts'
import { useAppNavigate } from './AppLink.tsx'
import { ReportDialog } from './ReportDialog.tsx'
import { showToast } from './toasts.ts'

export function SafetyActions({ profile }: { profile: { id: number; name: string } }) {
  const navigate = useAppNavigate()
  const [reporting, setReporting] = useState(false)

  async function block() {
    if (!window.confirm(m.chat_block_confirm({ name: profile.name }))) return
    const res = await worker().block(profile.id)
    if (!res.ok) {
      showToast({ kind: 'danger', title: m.chat_start_error_title(), body: m.error_generic() })
      return
    }
    navigate('/members')
  }

  return (
    <>
      <button type="button" className="button button--quiet" onClick={() => setReporting(true)}>
        {m.chat_report()}
      </button>
      <button type="button" className="button button--quiet" onClick={() => void block()}>
        {m.chat_block()}
      </button>
      {reporting && <ReportDialog profile={profile} onClose={() => setReporting(false)} />}
    </>
  )
}
