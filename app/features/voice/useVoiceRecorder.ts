import { useCallback, useEffect, useRef, useState } from 'react'
import { type RecorderError, type Recording, RecordingSession } from './recorder.ts'

export type RecorderPhase = 'idle' | 'starting' | 'recording'

/**
 * The composer's recorder: its phase, the seconds recorded (a tick a
 * quarter second), and start, stop (to send) and cancel. The level goes
 * straight to `meter`'s style (--level, 0..1), not through React state.
 * Leaving the chat mid-recording discards it.
 */
export function useVoiceRecorder(
  onRecorded: (r: Recording) => void,
  onError: (e: RecorderError) => void,
) {
  const [phase, setPhase] = useState<RecorderPhase>('idle')
  const [elapsed, setElapsed] = useState(0)
  const session = useRef<RecordingSession | null>(null)
  const meter = useRef<HTMLElement>(null)
  const handlers = useRef({ onRecorded, onError })
  handlers.current = { onRecorded, onError }

  const start = useCallback(() => {
    if (session.current) return
    const s: RecordingSession = new RecordingSession({
      started: () => {
        if (session.current === s) setPhase('recording')
      },
      level: (v) => meter.current?.style.setProperty('--level', v.toFixed(3)),
      ended: (result) => {
        if (session.current !== s) return
        session.current = null
        setPhase('idle')
        setElapsed(0)
        if (result === null) return
        if (typeof result === 'string') handlers.current.onError(result)
        else handlers.current.onRecorded(result)
      },
    })
    session.current = s
    setPhase('starting')
    setElapsed(0)
    void s.start()
  }, [])

  const stop = useCallback(() => session.current?.stop(), [])

  /** Discarded at once, whatever the browser is still doing (asking for the microphone). */
  const cancel = useCallback(() => {
    const s = session.current
    session.current = null
    s?.cancel()
    setPhase('idle')
    setElapsed(0)
  }, [])

  /** How long the current recording has run (0 when none). */
  const running = useCallback(() => session.current?.elapsed() ?? 0, [])

  useEffect(() => {
    if (phase !== 'recording') return
    const timer = setInterval(() => setElapsed(session.current?.elapsed() ?? 0), 250)
    return () => clearInterval(timer)
  }, [phase])

  useEffect(() => cancel, [cancel])

  return { phase, elapsed, start, stop, cancel, running, meter }
}
