import { m } from '../../messages/paraglide/messages.js'
import type { Toast } from './toasts.ts'

// The texts of actions that failed, loaded with the first failure
// (app/ui/failure-toast.ts), not with the shell: a member's first screen
// needs none of them (docs/performance.md, "Main-thread JavaScript").

type Notice = Omit<Toast, 'id'>

const REFUSED: Record<string, () => string> = {
  like: m.outbox_like_failed,
  unlike: m.outbox_unlike_failed,
  like_seen: m.outbox_seen_failed,
}

/** The server refused an outbox action of this kind for good. */
export const refused = (kind: string): Notice => ({
  kind: 'danger',
  body: (REFUSED[kind] ?? m.outbox_failed)(),
})

/** The local store refused a like or unlike (quota, storage switched off). */
export const likeNotStored = (unlike: boolean): Notice => ({
  kind: 'danger',
  body: unlike ? m.outbox_unlike_failed() : m.outbox_like_failed(),
})

export const chatNotStarted = (): Notice => ({
  kind: 'danger',
  title: m.chat_start_error_title(),
  body: m.chat_start_error(),
})

export const logoutFailed = (): Notice => ({ kind: 'info', body: m.logout_failed() })
