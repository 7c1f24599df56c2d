// Reading a voice recording's container (api/images/voice-container.ts):
// WebM and MP4 told by their bytes, the length each states, and no input,
// however cut short or garbled, that makes the reader throw (a send must
// answer 400, never 500).
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { mp4Recording, webmRecording } from '../test/voice-fixtures.ts'
import { readVoiceContainer } from './voice-container.ts'

describe('the container of a voice recording', () => {
  it('tells WebM by its EBML DocType and MP4 by its ftyp box, nothing else', () => {
    expect(readVoiceContainer(webmRecording({ durationMs: 1000 }))?.type).toBe('audio/webm')
    expect(readVoiceContainer(mp4Recording({ durationMs: 1000 }))?.type).toBe('audio/mp4')
    expect(readVoiceContainer(webmRecording({ durationMs: 1000, docType: 'matroska' }))).toBeNull()
    expect(readVoiceContainer(new TextEncoder().encode('OggS....'))).toBeNull()
    expect(readVoiceContainer(new Uint8Array(0))).toBeNull()
  })

  it('reads the length a WebM states: its last block, or its Duration when larger', () => {
    expect(readVoiceContainer(webmRecording({ durationMs: 5000 }))?.durationMs).toBe(4900)
    expect(readVoiceContainer(webmRecording({ durationMs: 25_000 }))?.durationMs).toBe(24_900)
    expect(
      readVoiceContainer(webmRecording({ durationMs: 1000, statedMs: 90_000 }))?.durationMs,
    ).toBe(90_000)
  })

  it('reads the length an MP4 states: summed fragment samples, or mvhd and mdhd', () => {
    // 1024-sample AAC frames at 48 kHz: 235 frames make 5013 ms.
    expect(readVoiceContainer(mp4Recording({ durationMs: 5000 }))?.durationMs).toBe(5013)
    expect(readVoiceContainer(mp4Recording({ durationMs: 30_000, stated: true }))?.durationMs).toBe(
      30_000,
    )
  })

  it('never throws on a recording cut short or garbled', () => {
    const whole = [
      webmRecording({ durationMs: 3000, statedMs: 3000 }),
      mp4Recording({ durationMs: 3000 }),
      mp4Recording({ durationMs: 3000, stated: true }),
    ]
    for (const bytes of whole) {
      for (let cut = 0; cut <= bytes.length; cut += 7)
        expect(() => readVoiceContainer(bytes.subarray(0, cut))).not.toThrow()
      for (let n = 0; n < 200; n++) {
        const garbled = Uint8Array.from(bytes)
        const at = 4 + ((n * 7919) % (bytes.length - 4))
        garbled.set(randomBytes(Math.min(8, bytes.length - at)), at)
        expect(() => readVoiceContainer(garbled)).not.toThrow()
      }
    }
  })

  it('walks boxes nested a thousand deep without running out of stack', () => {
    let inner = new Uint8Array(0)
    for (let i = 0; i < 1000; i++) {
      const next = new Uint8Array(inner.length + 8)
      new DataView(next.buffer).setUint32(0, next.length)
      next.set([0x6d, 0x6f, 0x6f, 0x76], 4) // moov
      next.set(inner, 8)
      inner = next
    }
    const ftyp = [0, 0, 0, 12, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20]
    const file = new Uint8Array([...ftyp, ...inner])
    expect(readVoiceContainer(file)).toEqual({ type: 'audio/mp4', durationMs: null })
  })
})
