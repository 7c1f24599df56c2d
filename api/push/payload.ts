// What a push message says (spec §4 push and install badge): the contract's
// PushPayload (api/contract/rules/push.ts), which the service worker reads in
// sw/push.ts parsePushPayload, in the recipient's language, with the badge it
// should show and where a click should go.
import type { Db } from '../../db/client.ts'
import type { PushPayload } from '../contract/rules/push.ts'
import { pushTexts } from './texts.ts'

/**
 * The largest plaintext one push message can carry: RFC 8291 §4 limits the
 * aes128gcm body to 4096 bytes, of which the header takes 86 (16 salt, 4
 * record size, 1 key id length, 65 key id), the AEAD tag 16 and the padding
 * delimiter 1. Push services reject anything larger with 413.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 3993

/**
 * Graphemes of a message shown in the notification: about what a lock screen
 * shows in its expanded form; the rest waits in the chat.
 */
export const PREVIEW_MAX_GRAPHEMES = 200

const ELLIPSIS = '…'

export interface PushMember {
  id: number
  name: string
}

/** What happened, as the code that made it happen tells notifyMember. */
export type PushEvent =
  | {
      kind: 'message'
      from: PushMember
      conversation: number
      /** The message text; the notification shows its start. */
      text: string
      /** The message id, when known: one push per message, however often it is announced. */
      message?: number
      /** A photo message: the body says "sent you a photo" (its caption waits in the chat). */
      photo?: boolean | undefined
      /** A voice message: the body says "sent you a voice message". */
      voice?: boolean | undefined
    }
  | { kind: 'like'; from: PushMember }
  /** A visit to the member's profile (docs/live.md); `visit` is its profile_visits id. */
  | { kind: 'visit'; from: PushMember; visit: number }

export interface PayloadContext {
  /** The recipient's locale (members.language); unknown ones get English. */
  locale: string | null | undefined
  badge: number
  /** The sender's gender (members.gender), for languages whose verbs agree with it. */
  fromGender?: string | undefined
  /** Default PREVIEW_MAX_GRAPHEMES. */
  previewGraphemes?: number
}

/** Spec §4 check URL of an event: the chat, the received likes, or the visitors. */
export function checkUrl(event: PushEvent): string {
  if (event.kind === 'visit') return '/likes/visitors'
  return event.kind === 'message' ? `/chats/${event.conversation}` : '/likes'
}

/**
 * Spec §4 open URL: the login page, which continues to the check URL once
 * signed in. It is the address the app's own guard (app/data/guard.ts) sends
 * a signed-out visitor of the check URL to, so both ways end in one place.
 */
export function openUrl(check: string): string {
  return `/login?redirect=${encodeURIComponent(check)}`
}

/** The notification tag (and, for the push service, the topic) of an event. */
export function eventTag(event: PushEvent): string {
  if (event.kind === 'visit') return 'visitors'
  return event.kind === 'message' ? `chat-${event.conversation}` : 'likes'
}

/** The payload of an event for one recipient; fits PUSH_PAYLOAD_MAX_BYTES once encoded. */
export function buildPushPayload(event: PushEvent, context: PayloadContext): PushPayload {
  const { texts } = pushTexts(context.locale)
  const vars = { name: event.from.name, gender: context.fromGender }
  const url = checkUrl(event)
  const common = {
    kind: event.kind,
    url,
    open_url: openUrl(url),
    badge: Math.max(0, Math.floor(context.badge)),
    tag: eventTag(event),
  }
  if (event.kind === 'like') {
    return fitPayload({ title: texts.likeTitle, body: texts.likeBody(vars), ...common })
  }
  if (event.kind === 'visit') {
    return fitPayload({ title: texts.visitTitle, body: texts.visitBody(vars), ...common })
  }
  const preview = previewOf(event.text, context.previewGraphemes ?? PREVIEW_MAX_GRAPHEMES)
  return fitPayload({
    title: texts.messageTitle(vars),
    body: event.photo
      ? texts.photoBody(vars)
      : event.voice
        ? texts.voiceBody(vars)
        : preview === ''
          ? texts.messageNoText
          : preview,
    ...common,
    conversation: event.conversation,
  })
}

/** The bytes sent: UTF-8 JSON. */
export function encodePushPayload(payload: PushPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8')
}

/** Whitespace runs become one space (a preview is one paragraph), cut to `max` graphemes. */
export function previewOf(text: string, max: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim()
  // Fewer code units than max means fewer graphemes too; no limit needs no count.
  if (flat.length <= max || !Number.isFinite(max)) return flat
  let out = ''
  let count = 0
  for (const { segment } of graphemes.segment(flat)) {
    if (count === max) return `${out.trimEnd()}${ELLIPSIS}`
    out += segment
    count++
  }
  return out
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/** Bytes a string adds inside a JSON string literal (escapes included). */
const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s), 'utf8') - 2

/**
 * Cuts the body, then if need be the title, at a grapheme boundary (so never
 * inside a code point or a surrogate pair) until the encoded payload fits.
 */
export function fitPayload(payload: PushPayload, maxBytes = PUSH_PAYLOAD_MAX_BYTES): PushPayload {
  let fitted = payload
  for (const field of ['body', 'title'] as const) {
    const over = encodePushPayload(fitted).length - maxBytes
    if (over <= 0) return fitted
    const keep = jsonBytes(fitted[field]) - over - jsonBytes(ELLIPSIS)
    fitted = { ...fitted, [field]: cutToBytes(fitted[field], keep) }
  }
  if (encodePushPayload(fitted).length > maxBytes) {
    throw new Error('push payload does not fit even without title and body')
  }
  return fitted
}

/** The longest grapheme prefix within `budget` JSON bytes, with an ellipsis when cut. */
function cutToBytes(text: string, budget: number): string {
  let out = ''
  let used = 0
  for (const { segment } of graphemes.segment(text)) {
    const size = jsonBytes(segment)
    if (used + size > budget) break
    out += segment
    used += size
  }
  return out === '' && budget < 0 ? '' : `${out.trimEnd()}${ELLIPSIS}`
}

/**
 * Spec §4 install badge of a member, from the database: the number a push
 * message carries. The wiring (api/badge.ts) sums it from the domains that
 * own the counts and hands it to push, which may not import them (they
 * import push).
 */
export type BadgeOf = (db: Db, memberId: number) => Promise<number>
