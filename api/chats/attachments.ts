// What a message may carry besides its text, described once each
// (docs/messages-and-credits.md): a photo, a gift, a voice recording. The
// send statement (messages.ts sendSql), the held opening (scam-cases.ts),
// the chats list's line and the push and mail read the description instead
// of a branch per kind:
// - its columns of `messages` and their values (SQL of the statement);
// - its fields in the message as answered (jsonb_build_object pairs);
// - the ledger reason its price is booked under;
// - its opening rule: 'verified' (only a member whose photos are verified
//   may open a conversation with it: a photo, whose caption the scam
//   signals read) or 'never' (its content cannot be read by the scam
//   signals: a gift, a voice message);
// - the mark before its text on the chats list's line;
// - what the push and mail say instead of quoting it ('photo': "sent you a
//   photo", 'voice': "sent you a voice message"), or nothing (the text is it).
import { type SQL, sql } from 'drizzle-orm'
import type { SpendReason } from '../credits/index.ts'
import { CHAT_PHOTO_PATH, type Notice, VOICE_PATH } from './message-sql.ts'

export type AttachmentKind = 'photo' | 'gift' | 'voice'

export interface Attachment {
  kind: AttachmentKind
  /** Its columns of `messages` (names as written in SQL) and their values. */
  columns: Array<[column: string, value: SQL]>
  /** Its fields of the answered message: `'key', value` pairs of a jsonb_build_object. */
  answer: SQL
  reason: SpendReason
  opening: 'verified' | 'never'
  /** Before the text on the chats list's line (conversations.last_message_body); may be empty. */
  mark: string
  notice?: Notice
}

/**
 * What the chats list shows before a photo message's caption (the list
 * reads conversations.last_message_body only): a camera, the same in every
 * language, so a photo without a caption is not an empty line.
 */
export const PHOTO_MARK = '📷 '

/** Before a voice message's (empty) text on the chats list's line: a microphone. */
export const VOICE_MARK = '🎤 '

/** A photo message: `name` is the chat photo's name in the picture store (text). */
export const photoAttachment = (name: SQL): Attachment => ({
  kind: 'photo',
  columns: [['photo', name]],
  answer: sql`'photo', ${CHAT_PHOTO_PATH} || ${name}`,
  reason: 'photo',
  opening: 'verified',
  mark: PHOTO_MARK,
  notice: 'photo',
})

/** A gift message: `gift` is the gift as sent (jsonb); its icon is the text. */
export const giftAttachment = (gift: SQL): Attachment => ({
  kind: 'gift',
  columns: [['gift', gift]],
  answer: sql`'gift', ${gift}`,
  reason: 'gift',
  opening: 'never',
  mark: '',
})

/** A voice message: the recording's name in the picture store, its container type and its length (ms). */
export const voiceAttachment = (v: { name: SQL; type: SQL; ms: SQL }): Attachment => ({
  kind: 'voice',
  columns: [
    ['voice', v.name],
    ['voice_type', v.type],
    ['voice_ms', v.ms],
  ],
  answer: sql`'voice', jsonb_build_object('url', ${VOICE_PATH} || ${v.name},
    'type', ${v.type}, 'duration_ms', ${v.ms})`,
  reason: 'voice',
  opening: 'never',
  mark: VOICE_MARK,
  notice: 'voice',
})

/** The attachment's column names for an INSERT's column list (`, photo`), empty for none. */
export const columnNamesSql = (a: Attachment | undefined): SQL =>
  a ? sql.raw(a.columns.map(([c]) => `, ${c}`).join('')) : sql``

/** The attachment's values for an INSERT's SELECT list (`, $1`), empty for none. */
export const columnValuesSql = (a: Attachment | undefined): SQL =>
  a ? sql.join([sql``, ...a.columns.map(([, v]) => v)], sql`, `) : sql``

/**
 * SQL true when `a` refuses to open a conversation from `member` (whose
 * verification `verified` says): never for none, always for 'never', and
 * for 'verified' unless the member is verified.
 */
export const openingRefusedSql = (a: Attachment | undefined, verified: SQL): SQL =>
  !a ? sql`false` : a.opening === 'never' ? sql`true` : sql`NOT ${verified}`
