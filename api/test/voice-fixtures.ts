// Tiny voice recordings made in code, shaped as MediaRecorder writes them,
// for the voice tests and bench/chat-photo.ts --voice (no ffmpeg on the machines):
// - WebM as Chromium and Firefox record it: an EBML header with DocType
//   "webm", a Segment and Clusters of unknown size, an Opus track, one
//   SimpleBlock every 100 ms; optionally an Info Duration (a file remuxed
//   after recording has one, a live recording has none);
// - MP4 as Safari records it: `ftyp`, a `moov` whose mvhd and mdhd state
//   no length (fragmented), then `moof` fragments whose `trun` sample
//   durations (1024 ticks of 48 kHz AAC each) make up the length;
//   optionally a length stated in mvhd and mdhd instead.
// The audio payloads are filler: the server reads the container, never the sound.

const bytes = (...parts: Array<Uint8Array | number[]>) => {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)))
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0))
  let at = 0
  for (const a of arrays) {
    out.set(a, at)
    at += a.length
  }
  return out
}
const ascii = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0))
const be = (value: number, length: number) =>
  Array.from({ length }, (_, i) => Math.floor(value / 256 ** (length - 1 - i)) % 256)

// ---- WebM ----

/** An EBML element: its id's bytes, an 8-byte size (or unknown) and its payload. */
const el = (id: number[], ...payload: Array<Uint8Array | number[]>) => {
  const data = bytes(...payload)
  return bytes(id, [0x01, ...be(data.length, 7)], data)
}
const unknownSized = (id: number[], ...payload: Array<Uint8Array | number[]>) =>
  bytes(id, [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], ...payload)
const float64 = (v: number) => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setFloat64(0, v)
  return b
}

/**
 * A WebM recording of `durationMs` (blocks every 100 ms up to it); with
 * `statedMs`, an Info Duration of that many ms; `docType` other than webm
 * makes it a Matroska file the server refuses.
 */
export function webmRecording(options: {
  durationMs: number
  statedMs?: number
  docType?: string
  /** Opus bit rate to fill the blocks to (bits a second); default a token 2 kbit/s. */
  bitrate?: number
}): Uint8Array {
  const frameBytes = Math.max(1, Math.round((options.bitrate ?? 1920) / 8 / 10))
  const header = el(
    [0x1a, 0x45, 0xdf, 0xa3],
    el([0x42, 0x86], [1]),
    el([0x42, 0xf7], [1]),
    el([0x42, 0xf2], [4]),
    el([0x42, 0xf3], [8]),
    el([0x42, 0x82], ascii(options.docType ?? 'webm')),
    el([0x42, 0x87], [4]),
    el([0x42, 0x85], [2]),
  )
  const info = el(
    [0x15, 0x49, 0xa9, 0x66],
    el([0x2a, 0xd7, 0xb1], be(1_000_000, 3)),
    ...(options.statedMs === undefined ? [] : [el([0x44, 0x89], float64(options.statedMs))]),
    el([0x4d, 0x80], ascii('fixture')),
    el([0x57, 0x41], ascii('fixture')),
  )
  const tracks = el(
    [0x16, 0x54, 0xae, 0x6b],
    el([0xae], el([0xd7], [1]), el([0x83], [2]), el([0x86], ascii('A_OPUS'))),
  )
  const clusters: Uint8Array[] = []
  for (let start = 0; start < options.durationMs; start += 10_000) {
    const blocks: Uint8Array[] = []
    for (let t = start; t < Math.min(start + 10_000, options.durationMs); t += 100) {
      const frame = Array.from({ length: frameBytes }, (_, i) => (t / 100 + i * 7) % 256)
      blocks.push(el([0xa3], [0x81, ...be(t - start, 2), 0x80], frame))
    }
    clusters.push(unknownSized([0x1f, 0x43, 0xb6, 0x75], el([0xe7], be(start, 4)), ...blocks))
  }
  return bytes(header, unknownSized([0x18, 0x53, 0x80, 0x67], info, tracks, ...clusters))
}

// ---- MP4 ----

const box = (type: string, ...payload: Array<Uint8Array | number[]>) => {
  const data = bytes(...payload)
  return bytes(be(data.length + 8, 4), ascii(type), data)
}
const full = (type: string, version: number, flags: number, ...payload: number[][]) =>
  box(type, [version, ...be(flags, 3)], ...payload)

const AAC_RATE = 48_000
const AAC_FRAME = 1024

/**
 * An MP4 recording of `durationMs`: fragmented (lengths only in the trun
 * sample durations, 4 fragments) unless `stated`, which puts the length in
 * mvhd and mdhd and leaves the fragments out.
 */
export function mp4Recording(options: { durationMs: number; stated?: boolean }): Uint8Array {
  const ms = options.stated ? options.durationMs : 0
  const ftyp = box('ftyp', ascii('M4A '), be(0, 4), ascii('isomM4A mp42'))
  const mvhd = full(
    'mvhd',
    0,
    0,
    be(0, 8),
    be(1000, 4),
    be(ms, 4),
    be(0x00010000, 4),
    [1, 0],
    be(0, 10 + 36 + 24),
    be(2, 4),
  )
  const tkhd = full(
    'tkhd',
    0,
    3,
    be(0, 8),
    be(1, 4),
    be(0, 4),
    be(ms, 4),
    be(0, 8 + 4 + 4 + 36 + 8),
  )
  const mdhd = full(
    'mdhd',
    0,
    0,
    be(0, 8),
    be(AAC_RATE, 4),
    be((ms * AAC_RATE) / 1000, 4),
    [0x55, 0xc4, 0, 0],
  )
  const hdlr = full('hdlr', 0, 0, be(0, 4), Array.from(ascii('soun')), be(0, 12), [0])
  const trex = full('trex', 0, 0, be(1, 4), be(1, 4), be(AAC_FRAME, 4), be(0, 4), be(0, 4))
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr)), box('mvex', trex))
  if (options.stated) return bytes(ftyp, moov, box('mdat', new Uint8Array(64)))
  const samples = Math.ceil((options.durationMs * AAC_RATE) / 1000 / AAC_FRAME)
  const fragments: Uint8Array[] = []
  const perFragment = Math.ceil(samples / 4)
  for (let first = 0, n = 1; first < samples; first += perFragment, n++) {
    const count = Math.min(perFragment, samples - first)
    const entries = Array.from({ length: count }, () => [...be(AAC_FRAME, 4), ...be(8, 4)]).flat()
    const traf = box(
      'traf',
      full('tfhd', 0, 0x020000, be(1, 4)),
      full('tfdt', 0, 0, be(first * AAC_FRAME, 4)),
      full('trun', 0, 0x000301, be(count, 4), be(0, 4), entries),
    )
    fragments.push(box('moof', full('mfhd', 0, 0, be(n, 4)), traf))
    fragments.push(box('mdat', new Uint8Array(count * 8)))
  }
  return bytes(ftyp, moov, ...fragments)
}
