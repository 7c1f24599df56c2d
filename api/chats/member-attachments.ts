// The attachments of a member's messages that are files in the picture store
// (a chat photo, a voice recording), described once each, for what the
// member's account and data owe them (docs/accounts.md, "Data requests";
// docs/law.md):
// - erasure: when the account is deleted, the files of the messages the
//   member SENT leave their messages and the store (the message stays,
//   answered as one whose photo or recording is gone); the files of the
//   messages they RECEIVED are the other member's, kept until that member's
//   own account goes;
// - access: the member's export carries their own sent files as `data:` URLs,
//   and names a received one by kind (and a recording's type and length)
//   without its bytes.
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { messages } from '../../db/schema/index.ts'
import { type PictureStore, pictureDataUrl, voiceDataUrl } from '../images/index.ts'

type Row = typeof messages.$inferSelect

/**
 * What a photo message's `photo` holds once its file is removed with its
 * sender's account: not null (the message stays a photo message, answered
 * `photo: null, photo_hidden: true`), and no picture's name.
 */
export const PHOTO_REMOVED = ''

/** A stored attachment's file name on a message, null when it has none or it was removed. */
const photoName = (x: Row) => (x.photo === null || x.photo === PHOTO_REMOVED ? null : x.photo)

interface StoredAttachment {
  /** Its key in the export's message. */
  key: 'photo' | 'voice'
  /** Whether the message is of this kind at all (its file may be gone). */
  is(x: Row): boolean
  /** Its file's name in the store; null once removed. */
  name(x: Row): string | null
  /** The file as a `data:` URL; null when the store has it no more. */
  dataUrl(store: PictureStore, name: string): Promise<string | null>
  /** What the export says of it besides the file: nothing for a photo, a recording's type and length. */
  described(x: Row): Record<string, unknown>
  /** The export's key for the file's bytes. */
  fileKey: 'picture' | 'recording'
}

const STORED: StoredAttachment[] = [
  {
    key: 'photo',
    is: (x) => x.photo !== null,
    name: photoName,
    dataUrl: pictureDataUrl,
    described: () => ({}),
    fileKey: 'picture',
  },
  {
    key: 'voice',
    is: (x) => x.voiceType !== null && x.voiceMs !== null,
    name: (x) => x.voice,
    dataUrl: voiceDataUrl,
    described: (x) => ({ type: x.voiceType, duration_ms: x.voiceMs }),
    fileKey: 'recording',
  },
]

/**
 * The stored attachments' part of one message of the member's export: for
 * each kind the message is of, what describes it, and for the member's own
 * message the bytes read from `pictures` (null when the store has them no
 * more), so the document stays complete after the account, and so its
 * files, are deleted. Another member's file is theirs: not included.
 */
export async function attachmentsExport(
  x: Row,
  memberId: number,
  pictures: PictureStore | undefined,
): Promise<Record<string, unknown>> {
  const own = x.senderId === memberId
  const parts = await Promise.all(
    STORED.filter((a) => a.is(x)).map(async (a) => {
      const name = a.name(x)
      const file = own
        ? { [a.fileKey]: name !== null && pictures ? await a.dataUrl(pictures, name) : null }
        : {}
      return [a.key, { ...a.described(x), ...file }] as const
    }),
  )
  return Object.fromEntries(parts)
}

/**
 * The member's account is deleted (api/accounts/accounts.ts deleteAccount,
 * in its transaction): the files of every message they sent (photos and
 * recordings) and of their openings in first_messages (one held for a
 * moderator has its photo there only) leave those rows; answers the names,
 * whose files the caller deletes after the commit (and queues the
 * media.delete job for). The messages stay, as photo and voice messages
 * whose file is gone.
 */
export async function dropMemberAttachments(tx: Db, memberId: number): Promise<string[]> {
  const gone = await tx.execute(sql`
    WITH old AS (
      SELECT id, NULLIF(photo, ${PHOTO_REMOVED}) AS photo, voice FROM messages
      WHERE sender_id = ${memberId}
        AND (NULLIF(photo, ${PHOTO_REMOVED}) IS NOT NULL OR voice IS NOT NULL)
      FOR UPDATE
    ), cleared AS (
      UPDATE messages m
      SET photo = CASE WHEN m.photo IS NULL THEN NULL ELSE ${PHOTO_REMOVED} END, voice = NULL
      FROM old WHERE m.id = old.id
    ), openings AS (
      SELECT conversation_id, photo FROM first_messages
      WHERE member_id = ${memberId} AND NULLIF(photo, ${PHOTO_REMOVED}) IS NOT NULL
      FOR UPDATE
    ), openings_cleared AS (
      UPDATE first_messages f SET photo = ${PHOTO_REMOVED}
      FROM openings o WHERE f.conversation_id = o.conversation_id
    )
    SELECT photo AS name FROM old WHERE photo IS NOT NULL
    UNION SELECT voice FROM old WHERE voice IS NOT NULL
    UNION SELECT photo FROM openings`)
  const rows = (gone as unknown as { rows?: Array<{ name: string }> }).rows ?? []
  return rows.map((r) => r.name)
}
