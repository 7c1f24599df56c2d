// Messages paid with credits, the credits balance, live events, blocks and
// reports (spec §1 "pay with credits for messaging", §3 chat entry, §7).

import { z } from 'zod'
import { Id, MemberId } from './common.ts'
import { Gift, GiftSlug } from './gifts.ts'
import { ClientId } from './likes.ts'
import {
  MESSAGE_MAX,
  MESSAGES_PAGE_SIZE,
  REPORT_REASONS,
  REPORT_TEXT_MAX,
} from './rules/messages.ts'

export { REPORT_REASONS }

/** Any lone UTF-16 surrogate makes text PostgreSQL cannot store: refused as input. */
const wellFormed = (s: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)

/** The containers a voice message may come in: Chromium and Firefox record webm/Opus, Safari mp4/AAC. */
export const VOICE_TYPES = ['audio/webm', 'audio/mp4'] as const
/** The longest voice message: 60 s. */
export const VOICE_MAX_MS = 60_000
/** The largest voice recording accepted: 1 MiB (60 s at 128 kbit/s). */
export const VOICE_MAX_BYTES = 1_048_576

/** A conversation's id: an `Id`. */
export const ConversationId = Id

export const Message = z.object({
  id: z.number().int(),
  conversation: z.number().int(),
  /** The sender's profile id. */
  from: z.number().int(),
  /** As written: always rendered as text, never as HTML. */
  text: z.string(),
  sent_at: z.string(),
  client_id: z.string().nullable(),
  /**
   * When the recipient read it (opened the conversation after it came); null
   * while unread, and always null when either member turned read receipts off.
   */
  read_at: z.string().nullable(),
  /**
   * A first message held for a moderator by the scam rules (docs/live.md):
   * shown to its sender only, marked; the recipient has nothing until it is
   * released. Absent on every other message.
   */
  held: z.literal(true).optional(),
  /**
   * A photo message (docs/messages-and-credits.md, "Photos in chats"): where
   * its photo is fetched (GET /api/chat-photo/<name>, the chat's two members
   * only), its caption is `text` (may be empty). Null, with `photo_hidden`,
   * once the photo is hidden from this member (they reported it, or a report
   * on it was upheld). Absent on a text message.
   */
  photo: z.string().nullable().optional(),
  photo_hidden: z.literal(true).optional(),
  /**
   * A gift message (docs/payments.md, "Gifts"): the gift as it was sent, its
   * icon also the message's `text`. Absent on every other message.
   */
  gift: Gift.optional(),
  /**
   * A voice message (docs/messages-and-credits.md, "Voice messages"): where
   * its recording is fetched (GET /api/voice/<name>, the chat's two members
   * only), its container type and its length. Null, with `voice_hidden`,
   * once hidden from this member (they reported it, or a report on it was
   * upheld). Absent on every other message.
   */
  voice: z
    .object({
      url: z.string(),
      /** What the sender's browser recorded: 'audio/webm' (Opus) or 'audio/mp4' (AAC). */
      type: z.enum(VOICE_TYPES),
      /** Length in milliseconds, 1..VOICE_MAX_MS. */
      duration_ms: z.number().int(),
    })
    .nullable()
    .optional(),
  voice_hidden: z.literal(true).optional(),
})
export type Message = z.infer<typeof Message>

/**
 * GET /api/messages.php: one page of 50, the newest first page by default;
 * `before` pages back in time, `after` asks for what came since (a sync).
 * Messages of a page are in the order they were sent.
 */
export const MessagesQuery = z
  .object({
    conversation: ConversationId,
    before: Id.optional(),
    after: Id.optional(),
  })
  .refine((q) => q.before === undefined || q.after === undefined, {
    path: ['after'],
    message: 'before and after exclude each other',
  })

export const MessagesResponse = z.object({
  messages: z.array(Message),
  has_more: z.boolean(),
  /** Spec §9: page size, pinned in the tests. */
  pp: z.literal(MESSAGES_PAGE_SIZE),
})
export type MessagesResponse = z.infer<typeof MessagesResponse>

export const SendMessageRequest = z.object({
  conversation: ConversationId,
  text: z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'empty message')
        .max(MESSAGE_MAX)
        .refine(wellFormed, 'not well-formed text'),
    ),
  client_id: ClientId,
})
export type SendMessageRequest = z.input<typeof SendMessageRequest>

export const SendMessageResponse = z.object({ message: Message, credits: z.number().int() })

/**
 * POST /api/message-photo.php (multipart): `conversation`, `client_id`, an
 * optional caption `text` (0–MESSAGE_MAX after trimming) and one `file`
 * (png, jpeg or webp); answered like a text send.
 */
export const PHOTO_SEND_PATH = '/api/message-photo.php'

/**
 * POST /api/message-voice.php (multipart): `conversation`, `client_id`,
 * `duration_ms` (what the recorder measured, 1..VOICE_MAX_MS; the server
 * checks it against the container where it can) and one `file` (audio/webm
 * or audio/mp4, at most VOICE_MAX_BYTES); answered like a text send, the
 * message's `text` empty.
 */
export const VOICE_SEND_PATH = '/api/message-voice.php'

/**
 * POST /api/message-gift.php: a gift of the site's catalogue (GET
 * /api/gifts.php) into a conversation that has begun, for the gift's price,
 * answered like a text send.
 */
export const SendGiftRequest = z.object({
  conversation: ConversationId,
  gift: GiftSlug,
  client_id: ClientId,
})
export type SendGiftRequest = z.input<typeof SendGiftRequest>
export type SendMessageResponse = z.infer<typeof SendMessageResponse>

/** 402 body: the balance and what the message costs. */
export const InsufficientCredits = z.object({
  error: z.literal('insufficient_credits'),
  credits: z.number().int(),
  cost: z.number().int(),
})

/** PUT /api/chat.php (mark read) and DELETE /api/chat.php (remove from my list). */
export const ChatRequest = z.object({ conversation: ConversationId })
export const ChatReadResponse = z.object({ conversation: z.number().int(), unread: z.literal(0) })
export const ChatDeleteResponse = z.object({
  conversation: z.number().int(),
  status: z.literal('deleted'),
})

/** GET /api/credits.php: the balance and the price of a message. */
export const CreditsResponse = z.object({
  credits: z.number().int(),
  /** Credits one message costs (an operator setting). */
  message_cost: z.number().int(),
  /** Credits a photo message costs on this site (operator setting photo_message_credits). */
  photo_cost: z.number().int().optional(),
  /**
   * The member's money value of a credit (api/contract/rules/credit-value.ts):
   * `amount` minor units of `currency` for `credits` credits, from their last
   * paid purchase, else the best package on offer; null when there is none.
   */
  credit_value: z
    .object({
      amount: z.number().int().nonnegative(),
      credits: z.number().int().positive(),
      currency: z.string(),
    })
    .nullable(),
})
export type CreditsResponse = z.infer<typeof CreditsResponse>

export const BlockRequest = z.object({ profile: MemberId })
export const BlockResponse = z.object({ profile: z.number().int(), blocked: z.boolean() })

export const ReportRequest = z.object({
  profile: MemberId,
  message: Id.optional(),
  reason: z.enum(REPORT_REASONS),
  text: z
    .string()
    .trim()
    .max(REPORT_TEXT_MAX)
    .refine(wellFormed, 'not well-formed text')
    .default(''),
})
export const ReportResponse = z.object({
  report: z.object({ id: z.number().int(), status: z.literal('received'), created_at: z.string() }),
})

/**
 * What the live stream pokes about: the client pulls, it trusts nothing else
 * in it. A `messages` poke to the recipient of a new message may carry it as
 * `message` (the member's own answer of a pull, as the send answered it): the
 * client shows it at once and still pulls, by the cursor it had before, so a
 * poke never stands in for the pull (docs/live.md, "The message in the poke").
 */
export const Poke = z.object({
  type: z.enum([
    'messages',
    'chats',
    'likes',
    'credits',
    'read',
    'sync',
    // The other member read the conversation: its read marks changed.
    'seen',
    // The other member is typing in the conversation (never stored).
    'typing',
    // Someone visited the member's profile.
    'visitors',
  ]),
  conversation: z.number().int().optional(),
  message: Message.optional(),
})
export type Poke = z.infer<typeof Poke>
