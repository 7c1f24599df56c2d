import { onSyncEvent } from '../data/worker.ts'
import { showFailureToast } from './failure-toast.ts'

/**
 * Kinds whose refusal shows where the action shows: a message not sent says
 * why under the message in its chat (sync/chats/messages.ts), so a toast
 * would only repeat it more vaguely.
 */
const SHOWN_IN_PLACE = new Set(['message'])

let started = false

/**
 * Shows a toast when the server refused an action for good (the outbox
 * dropped it and undid its effect), unless the action's own place says so. Started once, from the top navigation,
 * which every page has. Imports no Dexie: it sits in the first-load bundle.
 */
export function startOutboxToasts(): void {
  if (started) return
  started = true
  onSyncEvent((e) => {
    if (e.type !== 'outbox_dropped' || SHOWN_IN_PLACE.has(e.kind)) return
    showFailureToast((t) => t.refused(e.kind))
  })
}
