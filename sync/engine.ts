// Where the sync domains are wired together: the only writer of the local
// store runs inside the sync worker (sync/worker.ts); tests drive it directly
// with fake-indexeddb and a stubbed fetch. The domains (session, chats,
// search, settings, likes, members, push) each take the small SyncContext,
// never this object; it only builds them, holds the scheduler and relays
// events to the page.
import { endpoints, type Poke, type User } from '../api/contract/index.ts'
import { syncChats } from './chats/chats.ts'
import { MessagesSync } from './chats/messages.ts'
import type { SyncContext } from './core/context.ts'
import type { Result, SyncError } from './core/errors.ts'
import type { SyncEvent } from './core/events.ts'
import { clientHeaders, endpointUrl, forgetConditional } from './core/http.ts'
import { Outbox, type OutboxEvent } from './core/outbox.ts'
import { Scheduler } from './core/scheduler.ts'
import { EventStream } from './core/stream.ts'
import { CHATS_START_DELAY_MS } from './core/timing.ts'
import { LikesSync } from './likes/likes.ts'
import { MembersSync } from './members/members.ts'
import { PresenceSync } from './presence/presence.ts'
import { pushSubscribed, storePushSubscribed } from './push/push.ts'
import { searchPage } from './search/search.ts'
import type { SearchFilters } from './search/search-key.ts'
import { publishBadge } from './session/badge.ts'
import { SessionSync } from './session/session.ts'
import { syncSettings } from './settings/settings.ts'
import type { LocalDb } from './store/store.ts'

export type { SyncEvent }

type Listener = (e: SyncEvent) => void

export class SyncEngine {
  private listeners = new Set<Listener>()
  readonly ctx: SyncContext
  readonly session: SessionSync
  /** Member actions waiting for the server (sync/core/outbox.ts). */
  readonly outbox: Outbox
  readonly likes: LikesSync
  readonly members: MembersSync
  readonly messages: MessagesSync
  readonly presence: PresenceSync
  private readonly scheduler: Scheduler
  private readonly stream: EventStream
  private leader = false

  constructor(db: LocalDb, now: () => number = () => Date.now()) {
    const emit = (e: SyncEvent) => this.emit(e)
    const sessionGone = (error: SyncError) => this.session.sessionGone(error)
    this.ctx = { db, emit, sessionGone, now }
    this.scheduler = new Scheduler(
      [
        { name: 'user', run: () => this.refreshUser(), firstDelayMs: 'interval' },
        { name: 'chats', run: () => this.syncChats(), firstDelayMs: CHATS_START_DELAY_MS },
        {
          name: 'likes',
          // The visitors list goes with the likes (it is one of their lists).
          run: async () => {
            await this.syncLikes()
            await this.syncVisitors()
          },
          firstDelayMs: CHATS_START_DELAY_MS,
        },
      ],
      (e: unknown) => emit({ type: 'error', error: { code: 'sync_failed', message: String(e) } }),
    )
    this.session = new SessionSync(this.ctx, {
      // The site settings are wiped with the rest on logout: a member who logs
      // in again without a reload gets them back here.
      started: () => {
        this.scheduler.start()
        if (this.leader) this.stream.start()
        void syncSettings(this.ctx)
      },
      ended: () => {
        this.scheduler.stop()
        this.stream.stop()
        forgetConditional()
      },
    })
    this.outbox = new Outbox(db, {
      emit,
      sessionGone,
      loggedIn: async () => (await this.session.getUser()) !== null,
      now,
    })
    this.likes = new LikesSync(db, this.outbox, { now, sessionGone })
    this.members = new MembersSync(db, this.likes, { now, sessionGone })
    this.messages = new MessagesSync(this.ctx, this.outbox)
    this.presence = new PresenceSync(this.ctx)
    this.stream = new EventStream(
      (poke) => void this.onPoke(poke),
      (up) => {
        this.scheduler.setStreaming(up)
        // Pokes sent before the stream was up were never heard: pull
        // everything once, then only what the pokes name.
        if (up) void this.syncNow()
      },
    )
  }

  /** A poke from the live stream: pull what it names (it carries no data to trust). */
  private async onPoke(poke: Poke): Promise<void> {
    switch (poke.type) {
      case 'messages':
        if (poke.conversation !== undefined) {
          const { message } = poke
          // Side by side: the message's row does not wait for the typing dots to go.
          await Promise.all([
            this.presence.typingDone(poke.conversation),
            message?.conversation === poke.conversation
              ? this.messages.received(message)
              : this.messages.pull(poke.conversation),
          ])
        }
        await this.syncChats()
        break
      case 'seen':
        if (poke.conversation !== undefined) await this.messages.refreshNewest(poke.conversation)
        break
      case 'typing':
        if (poke.conversation !== undefined) await this.presence.typingHeard(poke.conversation)
        break
      case 'visitors':
        await this.syncVisitors()
        break
      case 'chats':
      case 'read':
        await this.syncChats()
        break
      case 'likes':
        await this.syncLikes()
        break
      case 'credits':
        await this.messages.syncCredits()
        break
      case 'sync':
        await this.syncNow()
        break
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private emit(e: SyncEvent) {
    for (const l of this.listeners) l(e)
  }

  /** Passes on an outbox event the leader tab's worker relayed (sync/members/handlers.ts). */
  relay(e: OutboxEvent) {
    this.emit(e)
  }

  getUser = (): Promise<User | null> => this.session.getUser()
  setUser = (user: User | null): Promise<void> => this.session.setUser(user)
  login = (email: string, password: string) => this.session.login(email, password)
  logout = () => this.session.logout()
  refreshUser = () => this.session.refreshUser()

  async syncChats(): Promise<Result<number>> {
    const epoch = this.ctx.db.epoch
    const res = await syncChats(this.ctx)
    if (res.ok) await publishBadge(this.ctx, epoch)
    return res
  }

  search(
    filters: SearchFilters,
    page: number,
    manual = false,
    trafficsource?: string,
  ): Promise<Result<{ key: string }>> {
    return searchPage(this.ctx, filters, page, manual, trafficsource)
  }

  /** Sync everything at once: a push message, coming online, a tab becoming visible. */
  async syncNow(): Promise<void> {
    const user = await this.refreshUser()
    if (!user.ok || !user.value) return
    // Our own actions first, so the lists fetched next already contain them.
    await this.outbox.drain()
    await this.syncChats()
    // The chats open in a tab are pulled on pokes only: bring what came
    // before the stream was listening.
    await this.messages.catchUp()
    await this.syncLikes()
    await this.syncVisitors()
    await this.messages.syncCredits()
  }

  /** GET /api/visitors.php into the store (polled with the likes), then the badge. */
  async syncVisitors(): Promise<Result<number>> {
    const epoch = this.ctx.db.epoch
    const res = await this.presence.syncVisitors()
    if (res.ok) await publishBadge(this.ctx, epoch)
    return res
  }

  /** GET /api/likes.php into the store (spec §9: polled with chats). */
  async syncLikes(): Promise<Result<{ given: number; received: number }>> {
    const epoch = this.ctx.db.epoch
    const res = await this.likes.sync()
    if (res.ok) {
      this.emit({ type: 'synced', what: 'likes' })
      await publishBadge(this.ctx, epoch)
    }
    return res
  }

  /** The worker holding the leader lock polls; the stored push state sets the interval. */
  setLeader(leader: boolean) {
    this.leader = leader
    this.outbox.setLeader(leader)
    this.scheduler.setLeader(leader)
    if (!leader) {
      this.stream.stop()
      return
    }
    void Promise.all([pushSubscribed(this.ctx), this.getUser()]).then(([push, user]) => {
      // Only a stored subscription changes the interval: a change made since
      // (setPushSubscribed) is newer than what was read here.
      if (push) this.scheduler.setPushSubscribed(true)
      if (user) {
        this.scheduler.start()
        this.stream.start()
      }
    })
  }

  /** Stored, so the slower polling of spec §9 survives a reload. */
  async setPushSubscribed(subscribed: boolean): Promise<void> {
    this.scheduler.setPushSubscribed(subscribed)
    await storePushSubscribed(this.ctx, subscribed)
  }

  /** The interval the polling runs at now (spec §9). */
  get pollIntervalMs(): number {
    return this.scheduler.intervalMs
  }

  stopPolling() {
    this.scheduler.stop()
    this.stream.stop()
  }

  /** Spec §7: POST /api/page-hidden.php with an empty JSON body when the page hides (keepalive, so not request()). */
  async pageHidden(): Promise<void> {
    await fetch(endpointUrl('pageHidden'), {
      method: endpoints.pageHidden.method,
      keepalive: true,
      credentials: 'same-origin',
      headers: { ...clientHeaders(), 'Content-Type': 'application/json' },
      body: '{}',
    }).catch(() => undefined) // best effort by nature: the page is going away
  }
}
