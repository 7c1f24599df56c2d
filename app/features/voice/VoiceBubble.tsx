import { useEffect, useRef, useState } from 'react'
import { m } from '../../../messages/paraglide/messages.js'
import { clock } from './clock.ts'
import type { VoiceType } from './container.ts'
import './voice.css'

/**
 * A voice message in the chat: play/pause, where it is and how long it is,
 * and a bar of the part played. The recording is the stored one (its
 * route answers the chat's two members, with Range) or, while it waits in
 * the outbox, the one on the device. A browser that cannot play the
 * container says so instead of a broken player.
 */
export function VoiceBubble({
  src,
  local,
  type,
  durationMs,
  onReport,
}: {
  src: string | undefined
  local: Blob | undefined
  type: VoiceType
  durationMs: number
  onReport: (() => void) | undefined
}) {
  const url = useBlobUrl(src, local)
  const audio = useRef<HTMLAudioElement>(null)
  const [playing, setPlaying] = useState(false)
  const [at, setAt] = useState(0)
  const [playable] = useState(
    () =>
      typeof document === 'undefined' || document.createElement('audio').canPlayType(type) !== '',
  )
  if (!playable) {
    return <p className="voice voice--unplayable">{m.chat_voice_cannot_play()}</p>
  }
  const share = durationMs > 0 ? Math.min(1, at / durationMs) : 0
  return (
    <div className="voice" data-voice-message={type}>
      <div className="voice__row">
        <button
          type="button"
          className="voice__play"
          aria-label={
            playing ? m.chat_voice_pause() : m.chat_voice_play({ time: clock(durationMs) })
          }
          disabled={!url}
          onClick={() => {
            const el = audio.current
            if (!el) return
            if (el.paused) void el.play().catch(() => setPlaying(false))
            else el.pause()
          }}
        >
          <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
        </button>
        <span className="voice__bar" aria-hidden="true">
          <span style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </span>
        <span className="voice__time">
          {playing || at > 0 ? `${clock(at)} / ${clock(durationMs)}` : clock(durationMs)}
        </span>
      </div>
      {/* biome-ignore lint/a11y/useMediaCaption: a voice message has no caption track; its player is the button above */}
      <audio
        ref={audio}
        src={url}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false)
          setAt(0)
        }}
        onTimeUpdate={(e) => setAt(e.currentTarget.currentTime * 1000)}
      />
      {onReport && (
        <button type="button" className="button button--quiet voice__report" onClick={onReport}>
          {m.chat_voice_report()}
        </button>
      )}
    </div>
  )
}

/** The stored recording's address, or an object URL of the one on the device while it lasts. */
export function useBlobUrl(src: string | undefined, local: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>(src)
  useEffect(() => {
    if (src || !local) {
      setUrl(src)
      return
    }
    const made = URL.createObjectURL(local)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [src, local])
  return url
}
