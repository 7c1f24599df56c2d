// The chats part of the worker's Comlink api: messages, reading and deleting
// a chat, the credits balance, blocks and reports.
import type { Gift } from '../../api/contract/index.ts'
import type { Result } from '../core/errors.ts'
import { request } from '../core/http.ts'
import type { MessagesSync } from './messages.ts'

export interface ChatsDeps {
  messages: MessagesSync
  syncChats(): Promise<Result<number>>
}

export function chatsHandlers({ messages, syncChats }: ChatsDeps) {
  return {
    sendMessage: (conversation: number, text: string) => messages.send(conversation, text),
    sendPhoto: (conversation: number, text: string, photo: Blob) =>
      messages.sendPhoto(conversation, text, photo),
    sendVoice: (
      conversation: number,
      voice: Blob,
      type: 'audio/webm' | 'audio/mp4',
      durationMs: number,
    ) => messages.sendVoice(conversation, voice, type, durationMs),
    sendGift: (conversation: number, gift: Gift) => messages.sendGift(conversation, gift),
    /** The site's gifts with their prices (GET /api/gifts.php). */
    gifts: () => request('gifts'),
    retryMessage: (key: string) => messages.retry(key),
    discardMessage: (key: string) => messages.discard(key),
    /**
     * A chat opens: what is new, and remembered for the stream's catch-up.
     * Answers the newest stored message's id after the pull (0: none), for
     * the page to know when its rows hold it.
     */
    async pullMessages(conversation: number): Promise<number> {
      await messages.opened(conversation)
      await messages.pull(conversation)
      return messages.newestSentId(conversation)
    },
    loadOlderMessages: (conversation: number) => messages.loadOlder(conversation),
    markChatRead: (conversation: number) => messages.markRead(conversation),
    /** Spec §4: removed at once, then the list reloads. */
    async deleteChat(conversation: number) {
      const res = await messages.deleteChat(conversation)
      await syncChats()
      return res
    },
    syncCredits: () => messages.syncCredits(),
    block: (profile: number) => request('block', { body: { profile } }),
    unblock: (profile: number) => request('unblock', { body: { profile } }),
    async report(profile: number, reason: string, text: string, message?: number) {
      const res = await request('report', {
        body: { profile, reason: reason as 'other', text, ...(message ? { message } : {}) },
      })
      // A reported photo or voice message is hidden for the reporter at once (the server hides it too).
      if (res.ok && message) await messages.hidePhoto(message)
      return res
    },
    /** Spec §2 developer panel: set credits to zero (development configuration only). */
    async zeroCredits() {
      const res = await request('devZeroCredits')
      if (res.ok) await messages.syncCredits()
      return res
    },
  }
}

export type ChatsHandlers = ReturnType<typeof chatsHandlers>
