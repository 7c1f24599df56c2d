// One voice recording: the microphone's stream, a MediaRecorder into the
// container this browser supports (container.ts), a level meter from an
// AnalyserNode, and the measured length. Outside React so the hook
// (useVoiceRecorder.ts) stays small; nothing here sends anything.
import { chooseContainer, RECORDING_MAX_MS, type VoiceType } from './container.ts'

/** Why there is no recording: the member is told (VoiceRecorder.tsx), nothing is sent. */
export type RecorderError = 'unsupported' | 'denied' | 'no_mic' | 'too_short'

/** A finished recording: its bytes in the base container type and its measured length. */
export interface Recording {
  blob: Blob
  type: VoiceType
  durationMs: number
}

/** Shorter than this is a slip of the finger, not a message. */
export const MIN_RECORDING_MS = 500
/** Opus at 64 kbit/s: a minute is about 480 kB, well under VOICE_MAX_BYTES (1 MiB). */
const BITS_PER_SECOND = 64_000

/** What getUserMedia's refusal means for the member. */
export function micError(e: unknown): RecorderError {
  const name = e instanceof DOMException || e instanceof Error ? e.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied'
  return 'no_mic'
}

/** Whether this browser can record at all (a container it supports, and the microphone API). */
export function canRecord(): boolean {
  return (
    typeof MediaRecorder !== 'undefined' &&
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    chooseContainer((t) => MediaRecorder.isTypeSupported(t)) !== null
  )
}

export interface SessionEvents {
  /** The microphone is open and recording has begun. */
  started(): void
  /** Ended: a recording to send, an error to tell, or null when cancelled. */
  ended(result: Recording | RecorderError | null): void
  /** The input level, 0..1, about once a frame while recording. */
  level(value: number): void
}

/** A recording from the microphone's opening to its end; used once. */
export class RecordingSession {
  private stream: MediaStream | null = null
  private recorder: MediaRecorder | null = null
  private audio: AudioContext | null = null
  private frame = 0
  private limit: ReturnType<typeof setTimeout> | undefined
  private chunks: Blob[] = []
  private startedAt = 0
  private stoppedAt = 0
  private cancelled = false
  private done = false

  constructor(private readonly on: SessionEvents) {}

  /** Asks for the microphone and starts recording; stops by itself at RECORDING_MAX_MS. */
  async start(): Promise<void> {
    const container = canRecord() ? chooseContainer((t) => MediaRecorder.isTypeSupported(t)) : null
    if (!container) return this.end('unsupported')
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true })
    } catch (e) {
      return this.end(micError(e))
    }
    // Cancelled (or the chat left) while the browser asked.
    if (this.cancelled) return this.end(null)
    const recorder = new MediaRecorder(this.stream, {
      mimeType: container.mimeType,
      audioBitsPerSecond: BITS_PER_SECOND,
    })
    this.recorder = recorder
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) this.chunks.push(e.data)
    }
    recorder.onstop = () => this.finish(container.type)
    recorder.start()
    this.startedAt = performance.now()
    this.limit = setTimeout(() => this.stop(), RECORDING_MAX_MS)
    this.meter(this.stream)
    this.on.started()
  }

  /** How long it has been recording. */
  elapsed(): number {
    return this.startedAt === 0 ? 0 : (this.stoppedAt || performance.now()) - this.startedAt
  }

  /** Ends the recording, to be sent. Before the microphone opened it is a cancel. */
  stop(): void {
    if (!this.recorder) {
      this.cancel()
      return
    }
    if (this.recorder.state === 'inactive') return
    this.stoppedAt = performance.now()
    this.recorder.stop()
  }

  /** Ends the recording, discarded. */
  cancel(): void {
    this.cancelled = true
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop()
    else if (!this.recorder && this.stream) this.end(null)
  }

  private finish(type: VoiceType): void {
    const durationMs = Math.min(RECORDING_MAX_MS, Math.round(this.elapsed()))
    if (this.cancelled) this.end(null)
    else if (durationMs < MIN_RECORDING_MS || this.chunks.length === 0) this.end('too_short')
    else this.end({ blob: new Blob(this.chunks, { type }), type, durationMs })
  }

  private end(result: Recording | RecorderError | null): void {
    if (this.done) return
    this.done = true
    clearTimeout(this.limit)
    cancelAnimationFrame(this.frame)
    for (const track of this.stream?.getTracks() ?? []) track.stop()
    void this.audio?.close().catch(() => {})
    this.on.ended(result)
  }

  /** The live level: the loudness (RMS) of each frame's samples. Optional: without it the recording goes on. */
  private meter(stream: MediaStream): void {
    try {
      const audio = new AudioContext()
      this.audio = audio
      const analyser = audio.createAnalyser()
      analyser.fftSize = 512
      audio.createMediaStreamSource(stream).connect(analyser)
      const samples = new Uint8Array(analyser.fftSize)
      const tick = () => {
        analyser.getByteTimeDomainData(samples)
        let sum = 0
        for (const s of samples) sum += ((s - 128) / 128) ** 2
        this.on.level(Math.min(1, Math.sqrt(sum / samples.length) * 3))
        this.frame = requestAnimationFrame(tick)
      }
      tick()
    } catch {
      // No Web Audio: no meter.
    }
  }
}
