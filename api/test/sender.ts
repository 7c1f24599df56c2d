// A paying sender for the send tests (api/chats/send-limits.test.ts,
// api/chats/send-batch.test.ts): a member with credits, logged in, with a
// conversation started, and how they post to it.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { messages } from '../../db/schema/index.ts'
import type { Api } from '../app.ts'
import { credit } from '../credits/ledger.ts'
import { startChat } from './chat-pair.ts'
import { login, send } from './http.ts'
import { addMember, type MemberRow, TEST_PASSWORD } from './seed.ts'

export interface Sender {
  member: MemberRow
  cookie: string
  /** The conversation with the member it was made for. */
  conversation: number
  /** POSTs a message (to its conversation unless told, as itself unless told). */
  post(text: string, clientId?: string, to?: number, as?: string): Promise<Response>
  /** How many messages the sender has stored. */
  stored(): Promise<number>
}

/**
 * A member with `credits` (a 'bonus'; none when 0), signed up at
 * `signupDate` (the seed's default when absent), logged in, with a
 * conversation with `to` (GET /api/chat.php?profile=…).
 */
export async function paidSender(
  app: Api,
  db: Db,
  to: MemberRow,
  options: { credits: number; signupDate?: Date },
): Promise<Sender> {
  const member = await addMember(db, options.signupDate ? { signupDate: options.signupDate } : {})
  if (options.credits > 0)
    await db.transaction((tx) => credit(tx, member.id, options.credits, 'bonus', 'test'))
  const cookie = await login(app, member.email, TEST_PASSWORD)
  const conversation = await startChat(app, cookie, to.id)
  return {
    member,
    cookie,
    conversation,
    post: (text, clientId = randomUUID(), toConversation = conversation, as = cookie) =>
      send(app, '/api/messages.php', {
        method: 'POST',
        cookie: as,
        body: { conversation: toConversation, text, client_id: clientId },
      }),
    stored: async () =>
      (await db.select().from(messages).where(eq(messages.senderId, member.id))).length,
  }
}
