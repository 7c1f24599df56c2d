import { z } from 'zod'
import { Profile } from './profile.ts'

/** Spec §3 chat entry, plus what a chat list shows. */
export const ChatEntry = z.object({
  conversation: z.object({ id: z.number().int() }),
  profile: Profile,
  num_unread_messages: z.number().int(),
  last_message: z
    .object({ body: z.string(), created_at: z.string(), from_me: z.boolean() })
    .nullable(),
})
export type ChatEntry = z.infer<typeof ChatEntry>

export const ChatsResponse = z.object({ chats: z.array(ChatEntry) })
export type ChatsResponse = z.infer<typeof ChatsResponse>
