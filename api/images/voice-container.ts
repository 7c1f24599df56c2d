// What the bytes of a voice recording say about themselves
// (docs/messages-and-credits.md, "Voice messages"): the container, sniffed
// from the bytes and never from the part's declared type, and the length the
// container states where it states one. Two containers only, the ones
// MediaRecorder writes: WebM (an EBML header whose DocType is "webm";
// Chromium and Firefox) and MP4 (ISO BMFF, an `ftyp` box first; Safari).
// A walk over the container's own structure, no decoding: the length is the
// largest of what the container says (WebM: the Info's Duration, the last
// block's timecode; MP4: mvhd's and each mdhd's duration, and the summed
// sample durations of each track's fragments), so a recording cannot pass
// by leaving one of them out. MediaRecorder's WebM has no Duration and
// unknown-size Segment and Clusters, which the walk reads as it goes.

export type VoiceType = 'audio/webm' | 'audio/mp4'

/** The sniffed container and the length it states in milliseconds (null: it states none). */
export interface VoiceContainer {
  type: VoiceType
  durationMs: number | null
}

/** Sniffs `bytes`: null when they are neither WebM nor MP4. */
export function readVoiceContainer(bytes: Uint8Array): VoiceContainer | null {
  if (isWebm(bytes)) return { type: 'audio/webm', durationMs: webmDurationMs(bytes) }
  if (isMp4(bytes)) return { type: 'audio/mp4', durationMs: mp4DurationMs(bytes) }
  return null
}

// ---- WebM (EBML) ----

const EBML_ID = 0x1a45dfa3
const DOCTYPE_ID = 0x4282
const SEGMENT_ID = 0x18538067
const INFO_ID = 0x1549a966
const TIMECODE_SCALE_ID = 0x2ad7b1
const DURATION_ID = 0x4489
const CLUSTER_ID = 0x1f43b675
const CLUSTER_TIMECODE_ID = 0xe7
const SIMPLE_BLOCK_ID = 0xa3
const BLOCK_GROUP_ID = 0xa0
const BLOCK_ID = 0xa1
/** Masters the walk steps into (sizes may be unknown); every other element is skipped whole. */
const WEBM_MASTERS = new Set([SEGMENT_ID, INFO_ID, CLUSTER_ID, BLOCK_GROUP_ID])

/** A variable-length integer at `at`: its value (marker kept for ids), length, and whether it is the "unknown" size. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean) {
  const first = bytes[at]
  if (first === undefined || first === 0) return null
  const length = Math.clz32(first) - 23
  if (at + length > bytes.length) return null
  let value = keepMarker ? first : first & (0xff >> length)
  let allOnes = value === 0xff >> length
  for (let i = 1; i < length; i++) {
    const b = bytes[at + i] as number
    value = value * 256 + b
    allOnes &&= b === 0xff
  }
  return { value, length, unknown: !keepMarker && allOnes }
}

/** The elements of `bytes` from `start` to `end`, one level; a malformed element ends the walk. */
function* ebmlElements(bytes: Uint8Array, start: number, end: number) {
  let at = start
  while (at < end) {
    const id = vint(bytes, at, true)
    if (!id) return
    const size = vint(bytes, at + id.length, false)
    if (!size) return
    const data = at + id.length + size.length
    const next = size.unknown ? end : Math.min(end, data + size.value)
    yield { id: id.value, data, next, unknown: size.unknown }
    at = WEBM_MASTERS.has(id.value) ? data : next
  }
}

const uintAt = (bytes: Uint8Array, from: number, to: number) => {
  let v = 0
  for (let i = from; i < to; i++) v = v * 256 + (bytes[i] as number)
  return v
}

function isWebm(bytes: Uint8Array): boolean {
  const first = ebmlElements(bytes, 0, bytes.length).next()
  if (first.done || first.value.id !== EBML_ID || first.value.unknown) return false
  for (const e of ebmlElements(bytes, first.value.data, first.value.next)) {
    if (e.id === DOCTYPE_ID)
      return new TextDecoder().decode(bytes.subarray(e.data, e.next)).replace(/\0+$/, '') === 'webm'
  }
  return false
}

/** WebM's stated length: Info's Duration and the last block's time, in the TimecodeScale (ns a tick). */
function webmDurationMs(bytes: Uint8Array): number | null {
  let scale = 1_000_000
  let duration: number | null = null
  let cluster = 0
  let lastBlock: number | null = null
  for (const e of ebmlElements(bytes, 0, bytes.length)) {
    if (e.id === TIMECODE_SCALE_ID) scale = uintAt(bytes, e.data, e.next) || scale
    else if (e.id === DURATION_ID) duration = floatAt(bytes, e.data, e.next - e.data)
    else if (e.id === CLUSTER_TIMECODE_ID) cluster = uintAt(bytes, e.data, e.next)
    else if ((e.id === SIMPLE_BLOCK_ID || e.id === BLOCK_ID) && e.next <= bytes.length) {
      const track = vint(bytes, e.data, false)
      if (!track || e.data + track.length + 2 > e.next) continue
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      const time = cluster + view.getInt16(e.data + track.length)
      lastBlock = Math.max(lastBlock ?? time, time)
    }
  }
  const ms = (ticks: number) => (ticks * scale) / 1_000_000
  const stated = [duration, lastBlock].filter((v): v is number => v !== null && Number.isFinite(v))
  return stated.length === 0 ? null : Math.round(Math.max(...stated.map(ms)))
}

function floatAt(bytes: Uint8Array, at: number, length: number): number | null {
  if (at + length > bytes.length) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, length)
  return length === 4 ? view.getFloat32(0) : length === 8 ? view.getFloat64(0) : null
}

// ---- MP4 (ISO BMFF) ----

/** Boxes the walk steps into; every other box is skipped whole. */
const MP4_CONTAINERS = new Set(['moov', 'trak', 'mdia', 'moof', 'traf', 'mvex'])

interface Box {
  type: string
  data: number
  end: number
}

/** How deep the walk steps into boxes (an audio file needs 4: moov, trak, mdia, mdhd). */
const MP4_DEPTH = 6

/** The boxes of `bytes` from `start` to `end`, depth first; a malformed box ends its level. */
function* mp4Boxes(bytes: Uint8Array, start: number, end: number, depth = 0): Generator<Box> {
  let at = start
  while (at + 8 <= end) {
    let size = uintAt(bytes, at, at + 4)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    let data = at + 8
    if (size === 1) {
      if (at + 16 > end) return
      size = uintAt(bytes, at + 8, at + 16)
      data = at + 16
    } else if (size === 0) size = end - at
    if (size < data - at) return
    const boxEnd = Math.min(end, at + size)
    yield { type, data, end: boxEnd }
    if (MP4_CONTAINERS.has(type) && depth < MP4_DEPTH)
      yield* mp4Boxes(bytes, data, boxEnd, depth + 1)
    at = at + size
  }
}

function isMp4(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false
  const type = String.fromCharCode(...bytes.subarray(4, 8))
  const size = uintAt(bytes, 0, 4)
  return type === 'ftyp' && (size === 1 || size === 0 || (size >= 8 && size <= bytes.length))
}

/** A full box's version and its (timescale, duration) of mvhd / mdhd; null duration when unknown. */
function headerDuration(bytes: Uint8Array, box: Box) {
  const version = bytes[box.data]
  const [scaleAt, durationLength] = version === 1 ? [box.data + 20, 8] : [box.data + 12, 4]
  if (scaleAt + 4 + durationLength > box.end) return null
  const timescale = uintAt(bytes, scaleAt, scaleAt + 4)
  const duration = uintAt(bytes, scaleAt + 4, scaleAt + 4 + durationLength)
  const unknown = duration === 2 ** (durationLength * 8) - 1
  return timescale > 0 && !unknown ? (duration * 1000) / timescale : null
}

/** A track fragment header: its track and default sample duration (tfhd). */
function tfhdOf(bytes: Uint8Array, box: Box) {
  const flags = uintAt(bytes, box.data + 1, box.data + 4)
  const track = uintAt(bytes, box.data + 4, box.data + 8)
  let at = box.data + 8
  if (flags & 0x1) at += 8
  if (flags & 0x2) at += 4
  const defaultDuration = flags & 0x8 && at + 4 <= box.end ? uintAt(bytes, at, at + 4) : null
  return { track, defaultDuration }
}

/** The summed sample durations of a track run (trun), `fallback` for samples that state none. */
function trunDuration(bytes: Uint8Array, box: Box, fallback: number): number {
  const flags = uintAt(bytes, box.data + 1, box.data + 4)
  const count = uintAt(bytes, box.data + 4, box.data + 8)
  let at = box.data + 8 + (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0)
  if (!(flags & 0x100)) return count * fallback
  const fields = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4
  let sum = 0
  for (let i = 0; i < count && at + 4 <= box.end; i++, at += fields)
    sum += uintAt(bytes, at, at + 4)
  return sum
}

/** MP4's stated length: the largest of mvhd's, each mdhd's, and each track's summed fragments. */
function mp4DurationMs(bytes: Uint8Array): number | null {
  const stated: number[] = []
  const timescales: number[] = []
  const trackIds: number[] = []
  const trexDefaults = new Map<number, number>()
  const fragmentTicks = new Map<number, number>()
  let fragment = { track: 0, defaultDuration: null as number | null }
  for (const box of mp4Boxes(bytes, 0, bytes.length)) {
    if (box.type === 'mvhd' || box.type === 'mdhd') {
      const ms = headerDuration(bytes, box)
      if (ms !== null) stated.push(ms)
      if (box.type === 'mdhd') timescales.push(mdhdTimescale(bytes, box))
    } else if (box.type === 'tkhd') {
      const idAt = box.data + (bytes[box.data] === 1 ? 20 : 12)
      trackIds.push(uintAt(bytes, idAt, idAt + 4))
    } else if (box.type === 'trex' && box.data + 16 <= box.end) {
      trexDefaults.set(
        uintAt(bytes, box.data + 4, box.data + 8),
        uintAt(bytes, box.data + 12, box.data + 16),
      )
    } else if (box.type === 'tfhd') fragment = tfhdOf(bytes, box)
    else if (box.type === 'trun') {
      const fallback = fragment.defaultDuration ?? trexDefaults.get(fragment.track) ?? 0
      const ticks = trunDuration(bytes, box, fallback)
      fragmentTicks.set(fragment.track, (fragmentTicks.get(fragment.track) ?? 0) + ticks)
    }
  }
  for (const [track, ticks] of fragmentTicks) {
    const index = trackIds.indexOf(track)
    const timescale = timescales[index === -1 ? 0 : index]
    if (timescale) stated.push((ticks * 1000) / timescale)
  }
  return stated.length === 0 ? null : Math.round(Math.max(...stated))
}

const mdhdTimescale = (bytes: Uint8Array, box: Box) => {
  const at = box.data + (bytes[box.data] === 1 ? 20 : 12)
  return at + 4 <= box.end ? uintAt(bytes, at, at + 4) : 0
}
