// The recorder's choices without a microphone: the container by what the
// browser records (webm/Opus first, then mp4, the base type sent), the
// clock shown while recording and playing, and what a refused microphone
// tells the member.
import { describe, expect, it } from 'vitest'
import { VOICE_MAX_MS } from '../../../api/contract/index.ts'
import { clock } from './clock.ts'
import { chooseContainer, RECORDING_MAX_MS } from './container.ts'
import { MIN_RECORDING_MS, micError } from './recorder.ts'

describe('chooseContainer', () => {
  it('records webm/Opus where it can, and names the base type audio/webm', () => {
    expect(chooseContainer(() => true)).toEqual({
      mimeType: 'audio/webm;codecs=opus',
      type: 'audio/webm',
    })
  })
  it('falls back to audio/mp4 (Safari)', () => {
    expect(chooseContainer((t) => t === 'audio/mp4')).toEqual({
      mimeType: 'audio/mp4',
      type: 'audio/mp4',
    })
  })
  it('has nothing when neither can be recorded', () => {
    expect(chooseContainer(() => false)).toBeNull()
  })
})

describe('RECORDING_MAX_MS', () => {
  it("is the contract's VOICE_MAX_MS, 60 s", () => {
    expect(RECORDING_MAX_MS).toBe(60_000)
    expect(VOICE_MAX_MS).toBe(60_000)
  })
})

describe('clock', () => {
  it('shows minutes and seconds, rounded down', () => {
    expect(clock(0)).toBe('0:00')
    expect(clock(12_999)).toBe('0:12')
    expect(clock(60_000)).toBe('1:00')
    expect(clock(-5)).toBe('0:00')
  })
})

describe('micError', () => {
  it('tells a refusal from a missing or busy microphone', () => {
    expect(micError(new DOMException('no', 'NotAllowedError'))).toBe('denied')
    expect(micError(new DOMException('no', 'SecurityError'))).toBe('denied')
    expect(micError(new DOMException('none', 'NotFoundError'))).toBe('no_mic')
    expect(micError(new DOMException('busy', 'NotReadableError'))).toBe('no_mic')
  })
  it('keeps a recording of at least 500 ms', () => {
    expect(MIN_RECORDING_MS).toBe(500)
  })
})
