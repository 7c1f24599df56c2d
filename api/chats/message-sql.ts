// SQL shared by the two ways a message comes to be: a send (one statement,
// api/chats/messages.ts) and a held opening (api/chats/scam-cases.ts), held
// when it is sent and delivered when a moderator releases it. One builder of
// the sender's answer, and one of the push and mail jobs a new message
// brings its recipient.
import { type SQL, sql } from 'drizzle-orm'
import { enqueueSelectSql } from '../jobs/enqueue-sql.ts'
import { messageMailDueSql, pushEventJobSql } from '../push/index.ts'
import { liveMembersSql } from '../shared/members.ts'
import { MESSAGE_MAIL_JOB, mailDelaySql, mailGapSql } from './message-mail.ts'

/** What the push and the mail about a message say instead of its text (attachments.ts). */
export type Notice = 'photo' | 'voice'

/** SQL expressions of a message's fields, in the statement that builds its answer. */
export interface MessageSql {
  id: SQL
  conversation: SQL
  from: SQL
  text: SQL
  /** timestamptz. */
  at: SQL
  clientId: SQL
  /** An attachment's fields (attachments.ts Attachment.answer): `'key', value` pairs. */
  attachment?: SQL
}

/** Where a chat photo is fetched from (api/chats/photos.ts serves it to the chat's two members only). */
export const CHAT_PHOTO_PATH = '/api/chat-photo/'
export const chatPhotoPath = (name: string) => `${CHAT_PHOTO_PATH}${name}`

/** Where a voice message's recording is fetched (api/chats/voice.ts: the chat's two members only). */
export const VOICE_PATH = '/api/voice/'
export const voicePath = (name: string) => `${VOICE_PATH}${name}`

/**
 * The answer to a send (SendMessageResponse) as a jsonb expression: the
 * message as GET /api/messages.php answers it and the balance after it.
 * `held`: the message waits for a moderator (a held opening), marked so
 * for its sender.
 */
export function sendAnswerSql(m: MessageSql, credits: SQL, held = false): SQL {
  return sql`jsonb_build_object(
        'message', jsonb_build_object('id', ${m.id}, 'conversation', ${m.conversation},
          'from', ${m.from}, 'text', ${m.text},
          'sent_at', to_char(${m.at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'client_id', ${m.clientId}, 'read_at', NULL${held ? sql`, 'held', true` : sql``}${
            m.attachment ? sql`, ${m.attachment}` : sql``
          }),
        'credits', ${credits})`
}

/**
 * The CTEs `push` and `mail` (each a job enqueued in the statement) of a new message to
 * `recipient`, for a statement where `source` (a FROM list) yields one row:
 * the push event when the recipient has a device to push to, and the mail
 * about it, should the recipient still be away when it runs
 * (api/chats/message-mail.ts has the rule and checks it all again). Only
 * where one may be due: an activated, real member who wants them, with no
 * visible page, not mailed within the gap, and not mailed about this chat
 * since they last read it or came back. `mailBase` null: no mail. `push`
 * returns the ids of its jobs.
 */
export function newMessageJobsSql(e: {
  source: SQL
  recipient: SQL
  sender: SQL
  conversation: SQL
  text: SQL
  message: SQL
  mailBase: SQL
  /** A photo or voice message: its push and mail say so ("sent you a photo"), not its text. */
  notice?: Notice | undefined
}): SQL {
  return sql`push AS (
      ${pushEventJobSql({
        memberId: e.recipient,
        event: {
          kind: 'message',
          from: e.sender,
          conversation: e.conversation,
          text: e.text,
          message: e.message,
          ...(e.notice ? { [e.notice]: sql`true` } : {}),
        },
        from: e.source,
      })}
    ), mail AS (
      ${enqueueSelectSql({
        kind: MESSAGE_MAIL_JOB,
        payload: sql`jsonb_build_object('memberId', ${e.recipient}, 'from', ${e.sender},
          'conversation', ${e.conversation}, 'message', ${e.message}, 'base', ${e.mailBase}${
            e.notice ? sql`, ${sql.raw(`'${e.notice}'`)}, true` : sql``
          })`,
        key: sql`'message-mail:' || ${e.message}`,
        runAt: sql`now() + ${mailDelaySql}`,
        from: sql`${e.source}
      JOIN ${liveMembersSql} r ON r.id = ${e.recipient}
      JOIN conversation_members cm
        ON cm.conversation_id = ${e.conversation} AND cm.member_id = ${e.recipient}`,
        where: sql`${e.mailBase} IS NOT NULL
        AND r.activated_at IS NOT NULL AND NOT r.fictional
        AND ${messageMailDueSql(e.recipient, mailGapSql)}
        AND (cm.mailed_at IS NULL OR cm.mailed_at < r.last_active_at)`,
      })}
    )`
}
