import { type PointerEvent, useEffect, useRef, useState } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import { useSettings } from '../../data/useSettings.ts'
import { worker } from '../../data/worker.ts'
import { CreditPrice } from '../credits/CreditPrice.tsx'
import { clock } from './clock.ts'
import { RECORDING_MAX_MS } from './container.ts'
import type { RecorderError, Recording } from './recorder.ts'
import { useVoiceRecorder } from './useVoiceRecorder.ts'
import './voice.css'

/** Released sooner than this after pressing, the press was a tap: it keeps recording until the next one. */
const TAP_MS = 400
/** Moved this far off the button while holding: the recording is discarded. */
const SLIDE_OFF_PX = 32
/** The live region says the time every this often while recording (not every second: it would talk over the member). */
const ANNOUNCE_EVERY_MS = 10_000

const errorText: Record<RecorderError, () => string> = {
  unsupported: m.chat_voice_unsupported,
  denied: m.chat_voice_denied,
  no_mic: m.chat_voice_no_mic,
  too_short: m.chat_voice_too_short,
}

/**
 * The composer's microphone (docs/messages-and-credits.md, "Voice messages"):
 * held down it records and sends on release, slid off it discards; tapped,
 * or pressed from the keyboard, it starts, and a second press (or Send)
 * sends; Escape or Cancel discards. While recording: the time, a level
 * meter and what it will cost. At RECORDING_MAX_MS it stops and sends by itself.
 * Sent through the outbox like a photo (pending at once, offline too).
 */
export function VoiceRecorder({
  conversation,
  onSent,
}: {
  conversation: number
  onSent: () => void
}) {
  const price = useSettings()?.voice_message_credits
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState('')
  const rec = useVoiceRecorder(
    (r) => void send(r),
    (e) => setError(errorText[e]()),
  )
  const press = usePress(rec, () => setNotice(m.chat_voice_discarded()))
  const active = rec.phase !== 'idle'

  async function send(r: Recording) {
    setNotice(m.chat_voice_sending())
    onSent()
    const res = await worker().sendVoice(conversation, r.blob, r.type, r.durationMs)
    if (!res.ok) setError(m.error_generic())
  }

  useAnnounce(rec.phase, rec.elapsed, setNotice)
  useEscapeCancels(active, () => {
    rec.cancel()
    setNotice(m.chat_voice_discarded())
  })

  return (
    <>
      <button
        type="button"
        className={`button button--quiet composer__mic${active ? ' composer__mic--on' : ''}`}
        aria-label={m.chat_voice_record()}
        aria-pressed={active}
        aria-describedby="composer-voice-hint"
        data-voice-record=""
        onPointerDown={(e) => {
          setError(null)
          press.down(e)
        }}
        onPointerMove={press.move}
        onPointerUp={press.up}
        onPointerCancel={press.cancel}
        onKeyDown={press.key}
        onClick={press.click}
        // A long press on a phone is the recording, not the context menu.
        onContextMenu={(e) => e.preventDefault()}
      >
        <MicIcon />
      </button>
      <p id="composer-voice-hint" className="visually-hidden">
        {m.chat_voice_hint()}
      </p>
      {/* Present before it speaks, so the first "Recording…" is announced. */}
      <p className="visually-hidden" role="status" data-voice-status="">
        {notice}
      </p>
      {active && <RecordingRow rec={rec} price={price} onCancel={press.discard} />}
      {error && (
        <p role="alert" className="form__error composer__voice-error">
          {error}
        </p>
      )}
    </>
  )
}

type Recorder = ReturnType<typeof useVoiceRecorder>

/** While recording: the time out of the longest, the level, the price, and Cancel and Send. */
function RecordingRow({
  rec,
  price,
  onCancel,
}: {
  rec: Recorder
  price: number | undefined
  onCancel: () => void
}) {
  return (
    <div className="composer__recording" data-voice-recording={rec.phase}>
      <span className="voice-rec__dot" aria-hidden="true" />
      <span className="voice-rec__time" data-voice-elapsed={Math.floor(rec.elapsed / 1000)}>
        {clock(rec.elapsed)} / {clock(RECORDING_MAX_MS)}
      </span>
      <span className="voice-rec__meter" ref={rec.meter} aria-hidden="true">
        <span />
      </span>
      {price !== undefined && (
        <span className="voice-rec__price">
          {m.chat_voice_cost()} <CreditPrice credits={price} />
        </span>
      )}
      <span className="voice-rec__actions">
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {m.chat_voice_cancel()}
        </button>
        <button
          type="button"
          className="button"
          disabled={rec.phase !== 'recording'}
          onClick={rec.stop}
        >
          {m.chat_voice_send()}
        </button>
      </span>
    </div>
  )
}

/**
 * The microphone button's presses. A pointer held down records until it is
 * lifted (sent) or slides off (discarded); a tap, a key or an assistive
 * technology's click starts, and the next one sends.
 */
function usePress(rec: Recorder, discarded: () => void) {
  const holding = useRef<number | null>(null)
  // The click after a pointer press was handled by the press itself.
  const pointerClick = useRef(false)
  const discard = () => {
    holding.current = null
    rec.cancel()
    discarded()
  }
  return {
    discard,
    down(e: PointerEvent<HTMLButtonElement>) {
      pointerClick.current = true
      if (e.button !== 0 || rec.phase !== 'idle') {
        pointerClick.current = false
        return
      }
      holding.current = e.pointerId
      e.currentTarget.setPointerCapture?.(e.pointerId)
      rec.start()
    },
    move(e: PointerEvent<HTMLButtonElement>) {
      if (holding.current !== e.pointerId) return
      const r = e.currentTarget.getBoundingClientRect()
      const off =
        e.clientX < r.left - SLIDE_OFF_PX ||
        e.clientX > r.right + SLIDE_OFF_PX ||
        e.clientY < r.top - SLIDE_OFF_PX ||
        e.clientY > r.bottom + SLIDE_OFF_PX
      if (off) discard()
    },
    up(e: PointerEvent<HTMLButtonElement>) {
      if (holding.current !== e.pointerId) return
      holding.current = null
      // Held: sent now. A tap (or a release while the browser still asks
      // for the microphone) leaves it recording until the next press.
      if (rec.phase === 'recording' && rec.running() >= TAP_MS) rec.stop()
    },
    cancel(e: PointerEvent<HTMLButtonElement>) {
      if (holding.current === e.pointerId) discard()
    },
    key(e: { key: string }) {
      if (e.key === 'Enter' || e.key === ' ') pointerClick.current = false
    },
    click() {
      if (pointerClick.current) {
        pointerClick.current = false
        return
      }
      if (rec.phase === 'idle') rec.start()
      else if (rec.phase === 'recording') rec.stop()
      else discard()
    },
  }
}

/** "Recording… 0:00" as it starts, then every ANNOUNCE_EVERY_MS. */
function useAnnounce(phase: string, elapsed: number, say: (text: string) => void) {
  const step = Math.floor(elapsed / ANNOUNCE_EVERY_MS)
  useEffect(() => {
    if (phase === 'recording')
      say(m.chat_voice_recording({ time: clock(step * ANNOUNCE_EVERY_MS) }))
  }, [phase, step, say])
}

/** Escape anywhere on the page discards the recording. */
function useEscapeCancels(active: boolean, cancel: () => void) {
  const latest = useRef(cancel)
  latest.current = cancel
  useEffect(() => {
    if (!active) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        latest.current()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [active])
}

function MicIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3Zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11h-2Z"
      />
    </svg>
  )
}
