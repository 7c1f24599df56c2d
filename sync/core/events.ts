// Events from the worker to its page, a union keyed on `type` (they cross the
// Comlink boundary as plain data).
import type { User } from '../../api/contract/index.ts'
import type { SyncError } from './errors.ts'
import type { OutboxEvent } from './outbox.ts'

export type SyncEvent =
  | { type: 'user'; user: User | null }
  | { type: 'error'; error: SyncError }
  | {
      type: 'synced'
      what: 'user' | 'chats' | 'search' | 'likes' | 'settings' | 'account' | 'visitors'
    }
  /**
   * The install badge (spec §4: unread messages + new likes), computed by the
   * worker after every sync and 0 when the session ends; the page hands it to
   * the service worker, which owns the Badging API of the installed app.
   */
  | { type: 'badge'; count: number }
  /**
   * The session ended (logout, account deletion, or a 403 from user.php):
   * the store is already wiped; the page has the service worker drop the
   * member's cached pictures.
   */
  | { type: 'session_ended' }
  | OutboxEvent
