// The member's privacy choices about live signals on /notifications
// (docs/live.md): read receipts, browsing invisibly, hiding when online.
import { useState } from 'react'
import type { PrivacyUpdate } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { usePrivacy } from '../../data/useLive.ts'
import { worker } from '../../data/worker.ts'
import { failureText } from '../account/forms/failure-text.ts'

export function PrivacySettings() {
  const privacy = usePrivacy()
  const [status, setStatus] = useState('')
  const [busy, setBusy] = useState(false)

  async function change(update: PrivacyUpdate) {
    setBusy(true)
    setStatus('')
    const res = await worker().setPrivacy(update)
    setBusy(false)
    setStatus(res.ok ? m.push_saved() : failureText(res.error))
  }

  if (!privacy) return null
  return (
    <fieldset className="field" style={{ marginBlock: '1.5rem' }}>
      <legend>{m.privacy_title()}</legend>
      <div>
        <label className="choice">
          <input
            type="checkbox"
            disabled={busy}
            checked={privacy.read_receipts}
            onChange={(e) => void change({ read_receipts: e.target.checked })}
          />
          {m.privacy_read_receipts()}
        </label>
        <label className="choice">
          <input
            type="checkbox"
            disabled={busy}
            checked={privacy.browse_invisibly}
            onChange={(e) => void change({ browse_invisibly: e.target.checked })}
          />
          {m.privacy_browse_invisibly()}
        </label>
        <label className="choice">
          <input
            type="checkbox"
            disabled={busy}
            checked={privacy.hide_online}
            onChange={(e) => void change({ hide_online: e.target.checked })}
          />
          {m.privacy_hide_online()}
        </label>
        <label className="choice">
          <input
            type="checkbox"
            disabled={busy}
            checked={privacy.verified_only}
            onChange={(e) => void change({ verified_only: e.target.checked })}
          />
          {m.privacy_verified_only()}
        </label>
        <label className="choice">
          <input
            type="checkbox"
            disabled={busy}
            checked={privacy.blur_photos}
            onChange={(e) => void change({ blur_photos: e.target.checked })}
          />
          {m.privacy_blur_photos()}
        </label>
      </div>
      <p role="status" className="form__status">
        {status}
      </p>
    </fieldset>
  )
}
