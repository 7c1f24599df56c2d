import { m } from '../../messages/paraglide/messages.js'
import { onSyncEvent } from '../data/worker.ts'
import { showToast } from './toasts.ts'

const MESSAGES: Record<string, () => string> = {
  like: m.outbox_like_failed,
  unlike: m.outbox_unlike_failed,
  like_seen: m.outbox_seen_failed,
}

let started = false

/**
 * Shows a toast when the server refused an action for good (the outbox
 * dropped it and undid its effect). Started once, from the top navigation,
 * which every page has. Imports no Dexie: it sits in the first-load bundle.
 */
export function startOutboxToasts(): void {
  if (started) return
  started = true
  onSyncEvent((e) => {
    if (e.type !== 'outbox_dropped') return
    showToast({ kind: 'danger', body: (MESSAGES[e.kind] ?? m.outbox_failed)() })
  })
}
