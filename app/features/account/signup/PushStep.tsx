// Step 1 (spec §2): offer push notifications. Subscribing needs a click (the
// browser's permission prompt); a refusal turns push display off, which
// skips the step (spec §4).
import { useState } from 'react'
import { m } from '../../../../messages/paraglide/messages.js'
import { worker } from '../../../data/worker.ts'
import { subscribePush } from '../push.ts'

export function PushStep({
  pushPub,
  onDone,
  onHide,
}: {
  pushPub: string
  onDone: () => void
  /** Push display became false (denied). */
  onHide: () => void
}) {
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)

  async function enable() {
    setBusy(true)
    setFailed(false)
    const outcome = await subscribePush(pushPub)
    if (outcome.kind === 'denied') {
      setBusy(false)
      onHide()
      return
    }
    if (outcome.kind === 'subscribed' && outcome.subscription.endpoint) {
      const { endpoint, expirationTime, keys } = outcome.subscription
      const res = await worker().addPushSubscription({ endpoint, expirationTime, keys })
      setBusy(false)
      if (res.ok) {
        onDone()
        return
      }
    }
    setBusy(false)
    setFailed(true)
  }

  return (
    <div className="step-body">
      <p>{m.signup_push_body()}</p>
      {failed && (
        <p className="form__error" role="alert">
          {m.signup_push_failed()}
        </p>
      )}
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={() => void enable()}>
          {m.signup_push_enable()}
        </button>
        <button type="button" className="button button--secondary" onClick={onDone}>
          {m.signup_push_later()}
        </button>
      </div>
    </div>
  )
}
