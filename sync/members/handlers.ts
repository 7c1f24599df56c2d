// The members calls of the sync worker (issue 4): likes through the outbox,
// profile pages, starting a chat, settings and webcam tiles. Spread into the
// worker's Comlink api (sync/worker.ts).

import type { OutboxEvent } from '../core/outbox.ts'
import type { SyncEngine } from '../engine.ts'
import type { CamFilters } from './members.ts'

/** The channel the draining (leader) worker tells the other tabs' workers about refused actions on. */
const OUTBOX_CHANNEL = 'amora-outbox-events'

/**
 * Only the leader drains, so only its page would hear that an action was
 * refused; the member may have made it in another tab. The leader relays the
 * event to every other worker of the origin, which emits it to its page.
 * (A BroadcastChannel never delivers to its own sender: no duplicates.)
 */
function asOutboxEvent(data: unknown): OutboxEvent | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const type: unknown = Reflect.get(data, 'type')
  const kind: unknown = Reflect.get(data, 'kind')
  const error: unknown = Reflect.get(data, 'error')
  if (type !== 'outbox_dropped' || typeof kind !== 'string') return undefined
  if (typeof error !== 'object' || error === null) return undefined
  const code: unknown = Reflect.get(error, 'code')
  const message: unknown = Reflect.get(error, 'message')
  if (typeof code !== 'string' || typeof message !== 'string') return undefined
  return { type, kind, payload: Reflect.get(data, 'payload'), error: { code, message } }
}

function relayOutboxEvents(engine: SyncEngine) {
  if (typeof BroadcastChannel === 'undefined') return
  const channel = new BroadcastChannel(OUTBOX_CHANNEL)
  let relaying = false
  engine.subscribe((e) => {
    if (e.type === 'outbox_dropped' && !relaying) channel.postMessage(e)
  })
  channel.onmessage = (message: MessageEvent<unknown>) => {
    const e = asOutboxEvent(message.data)
    if (!e) return
    relaying = true
    try {
      engine.relay(e)
    } finally {
      relaying = false
    }
  }
}

export function membersApi(engine: SyncEngine) {
  relayOutboxEvents(engine)
  return {
    like: (profile: number) => engine.likes.like(profile),
    unlike: (profile: number) => engine.likes.unlike(profile),
    markLikeSeen: (profile: number) => engine.likes.markSeen(profile),
    syncLikes: () => engine.syncLikes(),
    loadLikesPage: (type: 'given' | 'received', page: number) => engine.likes.loadPage(type, page),
    drainOutbox: () => engine.outbox.drain(),
    loadProfile: (id: number) => engine.members.loadProfile(id),
    startChat: (profile: number) => engine.members.startChat(profile),
    syncSettings: () => engine.members.syncSettings(),
    syncCams: (filters: CamFilters) => engine.members.syncCams(filters),
  }
}
