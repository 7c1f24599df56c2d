import { sql } from 'drizzle-orm'
// Chats: a conversation per pair of members, each member's side of it, and
// the messages.
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { id, jsonb, ref, ts } from './columns.ts'
import { members } from './members.ts'

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    /** The pair is stored ordered (low < high) so one pair has one conversation. */
    memberLow: ref('member_low')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    memberHigh: ref('member_high')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastMessageAt: ts('last_message_at'),
    /**
     * The newest message, kept by the send itself so the chats list reads it
     * from the conversation row instead of probing messages per chat.
     */
    lastMessageId: ref('last_message_id'),
    lastMessageSender: ref('last_message_sender'),
    lastMessageBody: text('last_message_body'),
  },
  (t) => [uniqueIndex('conversations_pair_key').on(t.memberLow, t.memberHigh)],
)

export const conversationMembers = pgTable(
  'conversation_members',
  {
    conversationId: ref('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    memberId: ref('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    unreadCount: integer('unread_count').notNull().default(0),
    /** Set when the member deletes the chat from their list (spec §4). */
    hiddenAt: ts('hidden_at'),
    /** When the member was last mailed about a new message here (api/chats/message-mail.ts). */
    mailedAt: ts('mailed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.memberId] }),
    index('conversation_members_member_idx').on(t.memberId),
  ],
)

export const messages = pgTable(
  'messages',
  {
    id: id(),
    conversationId: ref('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: ref('sender_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * The sender's client-generated id, which the app matches its outbox on.
     * Its idempotency is member_actions' (api/http/idempotency.ts), not this column's.
     */
    clientId: uuid('client_id'),
    /** When the recipient opened the conversation after it came (PUT /api/chat.php); null until then. */
    readAt: ts('read_at'),
    /**
     * The picture store's name of the message's photo (a chat photo, never a
     * profile photo: api/images/chat-photos.ts); null for a text message.
     */
    photo: text('photo'),
    /**
     * A gift message: the gift as it was sent (slug, icon, name, credits),
     * kept with the message so a later change of the catalogue (api/gifts/)
     * never rewrites a chat; null for any other message.
     */
    gift: jsonb('gift'),
    /**
     * A voice message: the picture store's name of its recording (a voice
     * name, api/images/voice.ts), its container type ('audio/webm' or
     * 'audio/mp4') and its length in milliseconds as the recorder measured
     * it; all three null for any other message. The name alone goes null
     * when the recording is removed (its sender's account deleted): the
     * message stays a voice message whose recording is gone.
     */
    voice: text('voice'),
    voiceType: text('voice_type'),
    voiceMs: integer('voice_ms'),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.id),
    // What a read marks: the few messages of a conversation not read yet.
    index('messages_unread_idx').on(t.conversationId).where(sql`read_at IS NULL`),
    // Serving a chat photo finds its message by the photo's name.
    index('messages_photo_idx').on(t.photo).where(sql`photo IS NOT NULL`),
    // Serving a recording finds its message by the recording's name.
    index('messages_voice_idx').on(t.voice).where(sql`voice IS NOT NULL`),
    // A voice message has its type and length; its recording's name only while it is kept.
    check(
      'messages_voice_whole',
      sql`(voice_type IS NULL) = (voice_ms IS NULL) AND (voice IS NULL OR voice_type IS NOT NULL)`,
    ),
  ],
)

/**
 * The opening message of each conversation, for the scam signals
 * (api/chats/scam-cases.ts, thresholds in api/contract/rules/scam.ts): who
 * opened it, to whom, a digest of the normalised text (near-identical first
 * messages to many members), and when (bursts of new conversations). A
 * first message a signal fired on is held here, not in messages: its body,
 * client id, the reserved message id and what it cost, until a moderator
 * releases it (then it is stored in messages under that id) or refuses it
 * (its credits are refunded). status: delivered | held | released | refused.
 */
export const firstMessages = pgTable(
  'first_messages',
  {
    conversationId: ref('conversation_id')
      .primaryKey()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    memberId: ref('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    recipientId: ref('recipient_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    textHash: text('text_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    status: text('status').notNull().default('delivered'),
    /** The signals that fired, comma-separated (SCAM_SIGNALS, 'reports'); empty when none. */
    signals: text('signals').notNull().default(''),
    /** A held message: what is delivered on release. */
    body: text('body'),
    /** The held opening's photo (its picture store name), stored with it on release. */
    photo: text('photo'),
    clientId: uuid('client_id'),
    messageId: ref('message_id'),
    cost: integer('cost'),
    decidedAt: ts('decided_at'),
    decidedBy: ref('decided_by'),
  },
  (t) => [
    index('first_messages_member_idx').on(t.memberId, t.createdAt),
    index('first_messages_held_idx').on(t.status, t.createdAt),
  ],
)
