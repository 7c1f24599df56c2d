// Voice messages' recordings (docs/messages-and-credits.md, "Voice
// messages"): checked by their bytes (voice-container.ts), kept as sent (no
// re-encoding: the sender's browser chose the container, see the doc for who
// plays which), put in the picture store under their own prefix
// (VOICE_PREFIX), so /media never serves one and no images row names one.
// The chats domain keeps the name on its message and decides who may hear
// it (api/chats/voice.ts); this file only checks, stores, reads and answers
// the bytes, in ranges as audio elements ask for them.
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { VOICE_MAX_BYTES, VOICE_MAX_MS } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { readVoiceContainer, type VoiceType } from './voice-container.ts'
import { isPictureName, type PictureStore, VOICE_PREFIX, withStore } from './storage.ts'

export type { VoiceType }

/**
 * The longest length a container may state: VOICE_MAX_MS and a second of
 * slack, as recorders stop a little after the button (and the last WebM
 * block's timecode, or a fragment's rounding, may run past the measured length).
 */
export const VOICE_STATED_MAX_MS = VOICE_MAX_MS + 1_000

/** A recording's file name ending by its container. */
const EXTENSIONS: Record<VoiceType, string> = { 'audio/webm': 'webm', 'audio/mp4': 'm4a' }

/** A recording's Content-Type by its name; undefined for a name no recording has. */
export function voiceType(name: string): VoiceType | undefined {
  const ext = /\.(\w+)$/.exec(name)?.[1]
  return (Object.keys(EXTENSIONS) as VoiceType[]).find((t) => EXTENSIONS[t] === ext)
}

/** Whether `name` could be a recording's (made by storeVoice). */
export const isVoiceName = (name: string) =>
  name.startsWith(VOICE_PREFIX) &&
  isPictureName(name) &&
  !name.includes('/') &&
  voiceType(name) !== undefined

const badVoice = (message: string) => new ApiFailure(400, 'invalid_input', 'file', message)

/**
 * Checks an uploaded recording: at most VOICE_MAX_BYTES, WebM or MP4 by its
 * bytes (the part's declared type is not read), and not longer than
 * VOICE_STATED_MAX_MS where the container states a length. Answers its
 * container type; 400 naming `file` otherwise.
 */
export function checkVoice(bytes: Uint8Array): VoiceType {
  if (bytes.length === 0) throw badVoice('empty recording')
  if (bytes.length > VOICE_MAX_BYTES) throw badVoice(`larger than ${VOICE_MAX_BYTES} bytes`)
  const container = readVoiceContainer(bytes)
  if (!container) throw badVoice('not a WebM or MP4 recording')
  if (container.durationMs !== null && container.durationMs > VOICE_STATED_MAX_MS)
    throw badVoice(`longer than ${VOICE_MAX_MS / 1000} seconds`)
  return container.type
}

/**
 * Puts a checked recording (checkVoice) in the store; answers its name.
 * Nothing references it yet: the caller stores the message naming it, or
 * deletes it (dropVoice) when the send stored nothing.
 */
export async function storeVoice(
  store: PictureStore,
  bytes: Uint8Array,
  type: VoiceType,
): Promise<string> {
  const name = `${VOICE_PREFIX}${randomBytes(12).toString('hex')}.${EXTENSIONS[type]}`
  await withStore(() => store.put(name, bytes, type))
  return name
}

/** Deletes recordings no message names any more; a failure is logged, not thrown. */
export async function dropVoice(store: PictureStore, names: string[]): Promise<void> {
  const ours = names.filter(isVoiceName)
  if (ours.length === 0) return
  await store
    .delete(ours)
    .catch((e: unknown) => console.error('media: a recording was left', ours, e))
}

/** A recording as a `data:` URL (the moderator's queue, the member's export); null when the store has none. */
export async function voiceDataUrl(store: PictureStore, name: string): Promise<string | null> {
  const type = voiceType(name)
  const stored = type && isVoiceName(name) ? await withStore(() => store.get(name)) : null
  if (!type || !stored) return null
  return `data:${type};base64,${Buffer.from(stored.bytes).toString('base64')}`
}

/**
 * The byte range a Range header asks of `length` bytes: null for the whole
 * (no header, one that is not a single bytes range, or an If-Range that no
 * longer matches), 'unsatisfiable' for a range past the end.
 */
export function rangeOf(
  header: string | undefined,
  length: number,
  ifRange: string | undefined,
  etag: string,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header || (ifRange !== undefined && ifRange !== etag)) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return null
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, length - suffix), end: length - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? length - 1 : Math.min(Number(m[2]), length - 1)
  if (start >= length) return 'unsatisfiable'
  if (end < start) return null
  return { start, end }
}

/**
 * Answers a recording's bytes to a listener the caller already allowed:
 * its Content-Type, inline, private to the browser and revalidated each
 * time (the check of the listener runs again), one byte range when asked
 * (206, or 416 past the end); 404 when the store has no such recording,
 * 503 when it did not answer. HEAD gets the headers only.
 */
export async function answerVoice(c: Context, store: PictureStore, name: string) {
  const type = voiceType(name)
  if (!type || !isVoiceName(name)) return c.notFound()
  const stored = await withStore(() => store.get(name))
  if (!stored) return c.notFound()
  const length = stored.bytes.length
  c.header('ETag', stored.etag)
  c.header('Content-Type', type)
  c.header('Content-Disposition', 'inline')
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Accept-Ranges', 'bytes')
  // Kept by api/app.ts instead of its no-store: the browser may keep the
  // bytes but asks again each time, and the listener check answers 404 after a logout.
  c.header('Cache-Control', 'private, no-cache')
  const range = rangeOf(c.req.header('range'), length, c.req.header('if-range'), stored.etag)
  if (range === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${length}`)
    return c.body(null, 416)
  }
  const [start, end] = range ? [range.start, range.end] : [0, length - 1]
  const status = range ? 206 : 200
  if (range) c.header('Content-Range', `bytes ${start}-${end}/${length}`)
  c.header('Content-Length', String(end - start + 1))
  if (c.req.method === 'HEAD') return c.body(null, status)
  const slice = stored.bytes.subarray(start, end + 1)
  return c.body(slice as Uint8Array<ArrayBuffer>, status)
}
