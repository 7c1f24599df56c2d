// The members calls of the sync worker: likes through the outbox, profile
// pages, starting a chat, settings and webcam tiles. One part of the worker's
// Comlink api (sync/worker.ts combines the domains' handlers).

import type { SyncContext } from '../core/context.ts'
import type { Result } from '../core/errors.ts'
import type { SyncEvent } from '../core/events.ts'
import { request } from '../core/http.ts'
import type { Outbox, OutboxEvent } from '../core/outbox.ts'
import type { LikesSync } from '../likes/likes.ts'
import { syncCompanyInfo, syncSettings, syncSettingsForMember } from '../settings/settings.ts'
import { kvGet, kvPut } from '../store/kv.ts'
import type { CamFilters, MembersSync } from './members.ts'

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

export interface MembersDeps {
  ctx: SyncContext
  likes: LikesSync
  outbox: Outbox
  members: MembersSync
  /** Likes poll plus badge (sync/engine.ts). */
  syncLikes(): Promise<Result<{ given: number; received: number }>>
  /** Worker events, to relay refused actions to the other tabs. */
  subscribe(listener: (e: SyncEvent) => void): void
}

function relayOutboxEvents({ ctx, subscribe }: MembersDeps) {
  if (typeof BroadcastChannel === 'undefined') return
  const channel = new BroadcastChannel(OUTBOX_CHANNEL)
  let relaying = false
  subscribe((e) => {
    if (e.type === 'outbox_dropped' && !relaying) channel.postMessage(e)
  })
  channel.onmessage = (message: MessageEvent<unknown>) => {
    const e = asOutboxEvent(message.data)
    if (!e) return
    relaying = true
    try {
      ctx.emit(e)
    } finally {
      relaying = false
    }
  }
}

export function membersHandlers(deps: MembersDeps) {
  relayOutboxEvents(deps)
  const { ctx, likes, outbox, members } = deps
  return {
    like: (profile: number) => likes.like(profile),
    unlike: (profile: number) => likes.unlike(profile),
    markLikeSeen: (profile: number) => likes.markSeen(profile),
    syncLikes: () => deps.syncLikes(),
    loadLikesPage: (type: 'given' | 'received', page: number) => likes.loadPage(type, page),
    drainOutbox: () => outbox.drain(),
    /**
     * POST /api/photounlock.php: unlocks member `profile`'s private picture
     * `id` (credits; a second ask charges nothing), then the balance and the
     * profile page are stored again. 402: the balance is read again.
     */
    async unlockPhoto(profile: number, id: number) {
      const res = await request('unlockPhoto', { body: { id } })
      if (res.ok) {
        const credits = await kvGet(ctx.db, 'credits')
        if (credits) await kvPut(ctx.db, 'credits', { ...credits, credits: res.value.credits })
        await members.loadProfile(profile)
      }
      return res
    },
    loadProfile: (id: number) => members.loadProfile(id),
    startChat: (profile: number) => members.startChat(profile),
    /** `forMember`: only while a member is signed in (settings.ts, syncSettingsForMember). */
    syncSettings: async (forMember = false) => {
      const res = await (forMember ? syncSettingsForMember(ctx) : syncSettings(ctx))
      return res.ok ? { ok: true as const, value: null } : res
    },
    /** The guest home's member photos where guests may not search (not stored: public, small). */
    showcase: () => request('showcase'),
    syncCompanyInfo: async () => {
      const res = await syncCompanyInfo(ctx)
      return res.ok ? { ok: true as const, value: null } : res
    },
    syncCams: (filters: CamFilters) => members.syncCams(filters),
  }
}

export type MembersHandlers = ReturnType<typeof membersHandlers>
