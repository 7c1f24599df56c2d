// Push: the Web Push subscriptions of a member's devices, and per member what
// notifies (the /notifications choices, which the new-message mails follow
// too) and whether the site is open and visible on one of the member's
// devices (then the live stream tells, not a push).
import { boolean, foreignKey, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, ref, ts } from './columns.ts'
import { members } from './members.ts'
import { sessions } from './sessions.ts'

/** Web Push subscriptions of a member (POST /api/user.php?push=1). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    memberId: ref('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * The session that last posted it: logout (and an expired session's
     * removal) deletes the device's subscription with the session, so the
     * next person on a shared device gets nothing of this member.
     */
    sessionHash: text('session_hash'),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_member_idx').on(t.memberId),
    index('push_subscriptions_session_idx').on(t.sessionHash),
    foreignKey({
      name: 'push_subscriptions_session_hash_fkey',
      columns: [t.sessionHash],
      foreignColumns: [sessions.tokenHash],
    }).onDelete('cascade'),
  ],
)

export const pushMembers = pgTable(
  'push_members',
  {
    memberId: ref('member_id').primaryKey(),
    messages: boolean('messages').notNull().default(true),
    likes: boolean('likes').notNull().default(true),
    /** A page of the site reported itself visible until then (refreshed while it stays so). */
    visibleUntil: ts('visible_until'),
    /** The last mail about a new message to the member (api/chats/message-mail.ts spaces them). */
    messageMailedAt: ts('message_mailed_at'),
  },
  (t) => [
    foreignKey({
      name: 'push_members_member_id_fkey',
      columns: [t.memberId],
      foreignColumns: [members.id],
    }).onDelete('cascade'),
  ],
)
