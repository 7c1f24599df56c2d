// Push per member: what notifies (the /notifications choices, which the
// new-message mails follow too) and whether the site is open and visible on
// one of the member's devices (then the live stream tells, not a push).
import { bigint, boolean, pgTable, timestamp } from 'drizzle-orm/pg-core'

export const pushMembers = pgTable('push_members', {
  // REFERENCES members ON DELETE CASCADE in 0009_push.sql; not declared
  // here, since importing members from db/schema.ts would be an import cycle.
  memberId: bigint('member_id', { mode: 'number' }).primaryKey(),
  messages: boolean('messages').notNull().default(true),
  likes: boolean('likes').notNull().default(true),
  /** A page of the site reported itself visible until then (refreshed while it stays so). */
  visibleUntil: timestamp('visible_until', { withTimezone: true, mode: 'date' }),
  /** The last mail about a new message to the member (api/chats/message-mail.ts spaces them). */
  messageMailedAt: timestamp('message_mailed_at', { withTimezone: true, mode: 'date' }),
})
