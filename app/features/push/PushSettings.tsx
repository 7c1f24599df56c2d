// /notifications (docs/push.md): this device's push state with on/off (the
// permission prompt only after the member's click), what notifies (per
// member, on the server), a test notification, and installing the app.
import { useEffect, useState, useSyncExternalStore } from 'react'
import type { PushPreferences } from '../../../api/contract/index.ts'
import { m } from '../../../messages/paraglide/messages.js'
import { usePrivacy } from '../../data/useLive.ts'
import { worker } from '../../data/worker.ts'
import { failureText } from '../account/forms/failure-text.ts'
import { type PushState, pushState, turnPushOff, turnPushOn } from './device.ts'
import { installOffer, onInstallChange, promptInstall } from './install.ts'

const STATE_TEXT: Record<PushState, () => string> = {
  subscribed: m.push_state_subscribed,
  not_subscribed: m.push_state_not_subscribed,
  denied: m.push_state_denied,
  unsupported: m.push_state_unsupported,
  unknown: m.push_state_unknown,
}

export function PushSettings() {
  return (
    <>
      <DevicePush />
      <Choices />
      <Install />
    </>
  )
}

function DevicePush() {
  const [state, setState] = useState<PushState | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [status, setStatus] = useState('')
  useEffect(() => {
    let live = true
    void pushState().then((s) => live && setState(s))
    return () => {
      live = false
    }
  }, [])

  async function toggle(on: boolean) {
    setBusy(true)
    setStatus('')
    setState(await (on ? turnPushOn() : turnPushOff()))
    setBusy(false)
  }
  async function test() {
    setBusy(true)
    const res = await worker().sendTestPush()
    setBusy(false)
    if (!res.ok) setStatus(failureText(res.error))
    else setStatus(res.value.status === 'queued' ? m.push_test_sent() : m.push_test_no_device())
  }

  return (
    <section aria-labelledby="push-device-title">
      <h2 id="push-device-title">{m.push_device_title()}</h2>
      <p data-push-state={state}>{state === undefined ? '…' : STATE_TEXT[state]()}</p>
      <div className="actions">
        {(state === 'not_subscribed' || state === 'unknown') && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void toggle(true)}
          >
            {m.push_turn_on()}
          </button>
        )}
        {state === 'subscribed' && (
          <>
            <button
              type="button"
              className="button button--secondary"
              disabled={busy}
              onClick={() => void toggle(false)}
            >
              {m.push_turn_off()}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => void test()}>
              {m.push_test()}
            </button>
          </>
        )}
      </div>
      <p role="status" className="form__status">
        {status}
      </p>
    </section>
  )
}

function Choices() {
  const [prefs, setPrefs] = useState<PushPreferences | null | undefined>(undefined)
  const [status, setStatus] = useState('')
  useEffect(() => {
    let live = true
    void worker()
      .pushPreferences()
      .then((res) => live && setPrefs(res.ok ? res.value : null))
    return () => {
      live = false
    }
  }, [])

  async function change(update: Partial<PushPreferences>) {
    if (!prefs) return
    const before = prefs
    // The box follows the click at once; a refusal puts it back.
    setPrefs({ ...prefs, ...update })
    setStatus('')
    const res = await worker().setPushPreferences(update)
    if (res.ok) {
      setPrefs(res.value)
      setStatus(m.push_saved())
    } else {
      setPrefs(before)
      setStatus(failureText(res.error))
    }
  }

  if (!prefs) return null
  return (
    <fieldset className="field" style={{ marginBlock: '1.5rem' }}>
      <legend>{m.push_choices_title()}</legend>
      <div>
        <label className="choice">
          <input
            type="checkbox"
            checked={prefs.messages}
            onChange={(e) => void change({ messages: e.target.checked })}
          />
          {m.push_choice_messages()}
        </label>
        <label className="choice">
          <input
            type="checkbox"
            checked={prefs.likes}
            onChange={(e) => void change({ likes: e.target.checked })}
          />
          {m.push_choice_likes()}
        </label>
        <VisitPushChoice onStatus={setStatus} />
      </div>
      <p className="field__hint">{m.push_choices_note()}</p>
      <p role="status" className="form__status">
        {status}
      </p>
    </fieldset>
  )
}

function Install() {
  const offer = useSyncExternalStore(onInstallChange, installOffer)
  if (offer === 'none') return null
  return (
    <section aria-labelledby="push-install-title">
      <h2 id="push-install-title">{m.push_install_title()}</h2>
      {offer === 'installed' ? (
        <p>{m.push_install_done()}</p>
      ) : (
        <>
          <p>{m.push_install_body()}</p>
          {offer === 'prompt' ? (
            <div className="actions">
              <button type="button" className="button" onClick={() => void promptInstall()}>
                {m.push_install_button()}
              </button>
            </div>
          ) : (
            <ol>
              <li>{m.push_install_ios_share()}</li>
              <li>{m.push_install_ios_add()}</li>
              <li>{m.push_install_ios_open()}</li>
            </ol>
          )}
        </>
      )}
    </section>
  )
}

/**
 * A push about visits to the member's profile (off unless asked for,
 * docs/live.md). Stored with the privacy choices (`visit_push`), shown with
 * the other push choices.
 */
function VisitPushChoice({ onStatus }: { onStatus: (status: string) => void }) {
  const privacy = usePrivacy()
  const [busy, setBusy] = useState(false)
  if (!privacy) return null
  async function change(on: boolean) {
    setBusy(true)
    onStatus('')
    const res = await worker().setPrivacy({ visit_push: on })
    setBusy(false)
    onStatus(res.ok ? m.push_saved() : failureText(res.error))
  }
  return (
    <label className="choice">
      <input
        type="checkbox"
        disabled={busy}
        checked={privacy.visit_push}
        onChange={(e) => void change(e.target.checked)}
      />
      {m.privacy_visit_push()}
    </label>
  )
}
