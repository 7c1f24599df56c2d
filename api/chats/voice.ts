// Voice messages in chats (docs/messages-and-credits.md, "Voice messages").
//
// - Sending: POST /api/message-voice.php, ONE multipart request (fields
//   `conversation`, `client_id`, `duration_ms` and `file`). The recording is
//   checked by its bytes (WebM or MP4, at most VOICE_MAX_BYTES, not longer
//   than the container may state: api/images/voice.ts), kept as sent and put
//   in the picture store under a voice name; then the send statement
//   (api/chats/messages.ts, with the voice attachment of attachments.ts)
//   claims the client id, stores the message naming it and debits
//   `voice_message_credits` with the ledger reason 'voice', all in one
//   statement. When that statement stores nothing (a replay of the client
//   id, the same send at once, too few credits, a refusal) the recording
//   just put is deleted again, as a chat photo's is (api/chats/photos.ts).
// - Hearing: GET (and HEAD) /api/voice/<name>, only for the two members of
//   the chat the message is in, and not once it is hidden from the listener
//   (reported by them, or a report on it upheld: api/shared/reports.ts
//   attachmentHiddenSql); byte ranges as audio elements ask for them.
//   Everyone else, guests included, gets the 404 of a recording that does
//   not exist.
// - First messages: a voice message never opens a conversation (409
//   voice_needs_conversation, nothing stored): the scam signals judge an
//   opening by its words, and a recording has none they can read.
import { createHash } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { requireAgeAssurance } from '../age/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ClientId, ConversationId, VOICE_MAX_BYTES, VOICE_MAX_MS } from '../contract/index.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { messagesSent } from '../http/metrics.ts'
import { type AuthEnv, requireMember, sessionMember } from '../http/session.ts'
import { pathOf } from '../http/validate.ts'
import {
  answerVoice,
  checkVoice,
  dropVoice,
  isVoiceName,
  type PictureStore,
  storeVoice,
  uploadedFiles,
} from '../images/index.ts'
import { type AccountsDeps, linkBase } from '../mail/site.ts'
import { cachedOperatorSettings } from '../settings/index.ts'
import { attachmentHiddenSql } from '../shared/reports.ts'
import { voicePath } from './message-sql.ts'
import { sendMessage } from './messages.ts'

/** The fields of a voice send besides its file; each bad one is a 400 naming it. */
const VoiceFields = z.object({
  conversation: ConversationId,
  client_id: ClientId,
  duration_ms: z
    .string({ message: 'the recording length in milliseconds' })
    .regex(/^\d{1,6}$/, 'an integer of milliseconds')
    .transform(Number)
    .pipe(z.number().int().min(1).max(VOICE_MAX_MS)),
})

/**
 * The body may hold a little more than VOICE_MAX_BYTES (the multipart
 * around it); a body far past it is refused while it streams in (413), one
 * just past it is read and refused by its file's size (400 `file`).
 */
const voiceBodyLimit = () =>
  bodyLimit({
    maxSize: 2 * VOICE_MAX_BYTES,
    onError: () => {
      throw new ApiFailure(413, 'file_too_large', 'file')
    },
  })

/** Whether `listener` may hear the recording `name`: a member of its chat, and not hidden from them. */
const mayHearSql = (name: string, listener: number): SQL => sql`
  SELECT 1 AS ok FROM messages m
  JOIN conversations c ON c.id = m.conversation_id
  WHERE m.voice = ${name} AND (c.member_low = ${listener} OR c.member_high = ${listener})
    AND NOT ${attachmentHiddenSql(sql`m.id`, sql`${listener}::bigint`)}
  LIMIT 1`

export interface VoiceDeps {
  accounts: AccountsDeps
  jobs?: { poke(): void } | undefined
}

/** The fields of the multipart body, checked (400 naming the first bad one). */
function voiceFields(body: Record<string, unknown>) {
  const parsed = VoiceFields.safeParse({
    conversation: body.conversation,
    client_id: body.client_id,
    duration_ms: body.duration_ms,
  })
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new ApiFailure(400, 'invalid_input', String(issue?.path[0] ?? 'file'), issue?.message)
}

export const voiceRoutes = (db: Db, store: PictureStore | undefined, deps: VoiceDeps) =>
  new Hono<AuthEnv>()
    .post(pathOf(endpoints.sendVoice), requireMember(db), voiceBodyLimit(), async (c) => {
      if (!store) throw new ApiFailure(503, 'uploads_unavailable')
      const memberId = c.get('memberId')
      const host = c.req.header('host')
      // The upload rate and the multipart checks of every upload (400 `file`).
      const files = await uploadedFiles(c, db, memberId)
      if (files.length !== 1)
        throw new ApiFailure(400, 'invalid_input', 'file', 'one recording a message')
      const fields = voiceFields(await c.req.parseBody())
      if (files[0]!.size > VOICE_MAX_BYTES)
        throw new ApiFailure(400, 'invalid_input', 'file', `larger than ${VOICE_MAX_BYTES} bytes`)
      const bytes = new Uint8Array(await files[0]!.arrayBuffer())
      const type = checkVoice(bytes)
      await requireAgeAssurance(db, memberId, host, 'message')
      const { voice_message_credits: cost } = await cachedOperatorSettings(db, host)
      const digest = createHash('sha256').update(bytes).digest('base64url')
      const name = await storeVoice(store, bytes, type)
      let kept = false
      try {
        const outcome = await sendMessage(
          db,
          memberId,
          {
            conversation: fields.conversation,
            text: '',
            clientId: fields.client_id,
            mailBase: linkBase(c, deps.accounts).base,
            voice: { name, type, durationMs: fields.duration_ms, digest },
          },
          { cost },
        )
        // Kept only when this request's send stored it; a replay's answer
        // names the first request's recording.
        kept = outcome.answer.message.voice?.url === voicePath(name)
        if (outcome.pushed) deps.jobs?.poke()
        if (outcome.created) messagesSent.inc()
        return c.json(outcome.answer, outcome.created ? 201 : 200)
      } finally {
        if (!kept) await dropVoice(store, [name])
      }
    })
    // VOICE_PATH (message-sql.ts) under the API's /api mount. A guest gets
    // the 404 of a recording that does not exist too, not the 403 of a
    // lapsed session: an audio element has no way to tell the app either.
    .on(['GET', 'HEAD'], '/voice/:name', async (c) => {
      const name = c.req.param('name')
      if (!store || !isVoiceName(name)) throw notFound()
      const listener = await sessionMember(c, db)
      if (listener === null) throw notFound()
      const result = await db.execute(mayHearSql(name, listener))
      if (((result as unknown as { rows?: unknown[] }).rows?.length ?? 0) === 0) throw notFound()
      return answerVoice(c, store, name)
    })

/**
 * The member's account is deleted (api/accounts/accounts.ts deleteAccount,
 * in its transaction): their recordings' names leave their messages (which
 * stay voice messages whose recording is gone, answered `voice: null,
 * voice_hidden: true`); answers the names, whose files the caller deletes
 * after the commit (and queues the media.delete job for).
 */
export async function dropMemberVoices(tx: Db, memberId: number): Promise<string[]> {
  const gone = await tx.execute(sql`
    WITH old AS (
      SELECT id, voice FROM messages WHERE sender_id = ${memberId} AND voice IS NOT NULL FOR UPDATE
    ), cleared AS (
      UPDATE messages m SET voice = NULL FROM old WHERE m.id = old.id
    )
    SELECT voice FROM old`)
  const rows = (gone as unknown as { rows?: Array<{ voice: string }> }).rows ?? []
  return rows.map((r) => r.voice)
}
