// Photos in chats (docs/messages-and-credits.md, "Photos in chats").
//
// - Sending: POST /api/message-photo.php, ONE multipart request (fields
//   `conversation`, `client_id`, optional `text` as the caption, and `file`).
//   The picture is checked and re-encoded as a profile photo is and put in
//   the picture store under a chat photo's name (api/images/chat-photos.ts);
//   then the send statement (api/chats/messages.ts, the text send's, with
//   the photo's name) claims the client id, stores the message naming it,
//   and debits `photo_message_credits` with the ledger reason 'photo', all
//   in one statement. When that statement stores nothing (a replay of the
//   client id, the same send at once, too few credits, a refusal) the
//   picture just put is deleted again: no stored picture is left that no
//   message names, and a replay answers the first message, charged once.
//   Why not a pending upload referenced by a later send: the outbox holds
//   one entry per message, and two requests would need a second
//   idempotency key and a sweep of uploads never sent.
// - Seeing: GET (and HEAD) /api/chat-photo/<name>, only for the two members
//   of the chat the message is in, and not once the photo is hidden from the
//   viewer (reported by them, or a report on it upheld:
//   api/shared/reports.ts attachmentHiddenSql). Everyone else, guests included,
//   gets the 404 of a photo that does not exist.
// - First messages: a photo never opens a conversation from a member whose
//   photos are not verified (403 photo_needs_verification, nothing stored);
//   the scam signals read the caption as a message's text.
import { createHash } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { requireAgeAssurance } from '../age/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import { ClientId, ConversationId } from '../contract/index.ts'
import { MESSAGE_MAX } from '../contract/rules/messages.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { messagesSent } from '../http/metrics.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { pathOf } from '../http/validate.ts'
import {
  answerChatPhoto,
  dropChatPhoto,
  isChatPhotoName,
  type PictureStore,
  pictureBodyLimit,
  storeChatPhoto,
  uploadedFiles,
} from '../images/index.ts'
import { type AccountsDeps, linkBase } from '../mail/site.ts'
import { cachedOperatorSettings } from '../settings/index.ts'
import { attachmentHiddenSql } from '../shared/reports.ts'
import { CHAT_PHOTO_PATH } from './message-sql.ts'
import { sendMessage } from './messages.ts'

/** The fields of a photo send besides its file; each bad one is a 400 naming it. */
const PhotoFields = z.object({
  conversation: ConversationId,
  client_id: ClientId,
  text: z
    .string()
    .optional()
    .transform((s) => (s ?? '').trim())
    .pipe(z.string().max(MESSAGE_MAX)),
})

/** Whether `viewer` may see the chat photo `name`: a member of its chat, and not hidden from them. */
const mayViewSql = (name: string, viewer: number): SQL => sql`
  SELECT 1 AS ok FROM messages m
  JOIN conversations c ON c.id = m.conversation_id
  WHERE m.photo = ${name} AND (c.member_low = ${viewer} OR c.member_high = ${viewer})
    AND NOT ${attachmentHiddenSql(sql`m.id`, sql`${viewer}::bigint`)}
  UNION ALL
  -- The sender's own opening while it waits for a moderator.
  SELECT 1 FROM first_messages f
  WHERE f.photo = ${name} AND f.member_id = ${viewer} AND f.status = 'held'
  LIMIT 1`

export interface PhotoDeps {
  accounts: AccountsDeps
  jobs?: { poke(): void } | undefined
}

export const photoRoutes = (db: Db, store: PictureStore | undefined, deps: PhotoDeps) =>
  new Hono<AuthEnv>()
    .post(pathOf(endpoints.sendPhoto), requireMember(db), pictureBodyLimit(), async (c) => {
      if (!store) throw new ApiFailure(503, 'uploads_unavailable')
      const memberId = c.get('memberId')
      const host = c.req.header('host')
      // The upload rate and the multipart checks of every picture (400 `file`).
      const files = await uploadedFiles(c, db, memberId)
      if (files.length !== 1)
        throw new ApiFailure(400, 'invalid_input', 'file', 'one photo a message')
      const body = await c.req.parseBody()
      const parsed = PhotoFields.safeParse({
        conversation: body.conversation,
        client_id: body.client_id,
        text: typeof body.text === 'string' ? body.text : undefined,
      })
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new ApiFailure(400, 'invalid_input', String(issue?.path[0] ?? 'file'), issue?.message)
      }
      await requireAgeAssurance(db, memberId, host, 'message')
      const { photo_message_credits: cost } = await cachedOperatorSettings(db, host)
      const bytes = Buffer.from(await files[0]!.arrayBuffer())
      const digest = createHash('sha256').update(bytes).digest('base64url')
      const name = await storeChatPhoto(store, bytes)
      let kept = false
      try {
        const outcome = await sendMessage(
          db,
          memberId,
          {
            conversation: parsed.data.conversation,
            text: parsed.data.text,
            clientId: parsed.data.client_id,
            mailBase: linkBase(c, deps.accounts).base,
            photo: { name, digest },
          },
          { cost },
        )
        // Kept only when this request's send stored it (delivered or held); a
        // replay's answer names the first request's photo.
        kept = outcome.answer.message.photo === `${CHAT_PHOTO_PATH}${name}`
        if (outcome.pushed) deps.jobs?.poke()
        if (outcome.created) messagesSent.inc()
        return c.json(outcome.answer, outcome.created ? 201 : 200)
      } finally {
        if (!kept) await dropChatPhoto(store, name)
      }
    })
    // CHAT_PHOTO_PATH (message-sql.ts) under the API's /api mount.
    .on(['GET', 'HEAD'], '/chat-photo/:name', requireMember(db), async (c) => {
      const name = c.req.param('name')
      if (!store || !isChatPhotoName(name)) throw notFound()
      const result = await db.execute(mayViewSql(name, c.get('memberId')))
      if (((result as unknown as { rows?: unknown[] }).rows?.length ?? 0) === 0) throw notFound()
      return answerChatPhoto(c, store, name)
    })
