// The sync engine: the only writer of the local store. It runs inside the
// sync worker (sync/worker.ts); tests drive it directly with fake-indexeddb
// and a stubbed fetch.
import { LoginRequest, SEARCH_PAGE_SIZE, User } from '../api/contract/index.ts'
import { fail, ok, type Result, type SyncError } from './core/errors.ts'
import { fenced } from './core/fence.ts'
import { clientHeaders, request } from './core/http.ts'
import { Outbox, type OutboxEvent } from './core/outbox.ts'
import { CHATS_START_DELAY_MS, POLL_MS, POLL_WITH_PUSH_MS } from './core/timing.ts'
import { LikesSync } from './likes/likes.ts'
import { MembersSync } from './members/members.ts'
import { type SearchFilters, searchKey } from './search/search-key.ts'
import type { LocalDb } from './store/store.ts'

/** Events from the worker, a union keyed on `type`. */
export type SyncEvent =
  | { type: 'user'; user: User | null }
  | { type: 'error'; error: SyncError }
  | { type: 'synced'; what: 'user' | 'chats' | 'search' | 'likes' }
  | OutboxEvent

type Listener = (e: SyncEvent) => void

export class SyncEngine {
  private listeners = new Set<Listener>()
  /** One pending timer per polled resource. */
  private timers = new Map<string, ReturnType<typeof setTimeout>>()
  /**
   * Bumped by every stop: a tick whose request outlives a restart (say, a
   * push subscription arriving mid-request) must not reschedule itself next
   * to the new loop, or the old loop would run on untracked and survive logout.
   */
  private pollGeneration = 0
  private leader = false
  private pushSubscribed = false

  /** Member actions waiting for the server (sync/core/outbox.ts). */
  readonly outbox: Outbox
  readonly likes: LikesSync
  readonly members: MembersSync

  constructor(
    private readonly db: LocalDb,
    now: () => number = () => Date.now(),
  ) {
    const sessionGone = (error: SyncError) => this.sessionGone(error)
    this.outbox = new Outbox(db, {
      emit: (e) => this.emit(e),
      sessionGone,
      loggedIn: async () => (await this.getUser()) !== null,
      now,
    })
    this.likes = new LikesSync(db, this.outbox, { now, sessionGone })
    this.members = new MembersSync(db, this.likes, { now, sessionGone })
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

  async getUser(): Promise<User | null> {
    const row = await this.db.kv.get('user')
    const parsed = User.safeParse(row?.value)
    return parsed.success ? parsed.data : null
  }

  /** Public for sync/account/account.ts: account answers carry the fresh user (sign-up, delete). */
  async setUser(user: User | null) {
    const before = await this.getUser()
    if (user) await this.db.kv.put({ key: 'user', value: user })
    else await this.db.wipe()
    this.emit({ type: 'user', user })
    // Spec §4: when a user appears, periodic refresh starts; when it goes, timers clear.
    // The site settings are wiped with the rest on logout: a member who logs
    // in again without a reload gets them back here.
    if (user && !before) {
      this.startPolling()
      void this.members.syncSettings()
    }
    if (!user) this.stopPolling()
  }

  async login(email: string, password: string): Promise<Result<User>> {
    const body = LoginRequest.safeParse({ email, password })
    if (!body.success) {
      const field = body.error.issues[0]?.path.join('.') ?? 'email'
      return fail({ code: 'invalid_input', message: body.error.message, field })
    }
    const res = await request('login', { body: body.data })
    if (res.ok) {
      // A different member may have used this device: start from an empty store.
      const previous = await this.getUser()
      if (previous && previous.profile.id !== res.value.profile.id) await this.db.wipe()
      await this.setUser(res.value)
    }
    return res
  }

  /**
   * Spec §4: logout succeeds when the server answers done; on an error the
   * user is cleared all the same. Either way the local store is wiped.
   */
  async logout(): Promise<Result<null>> {
    const res = await request('logout')
    await this.setUser(null)
    return res.ok ? ok(null) : fail(res.error)
  }

  /** GET /api/user.php; a 403 clears the user (spec §8). */
  async refreshUser(): Promise<Result<User | null>> {
    const res = await fenced(this.db, () => request('user'))
    if (res.ok) {
      await this.setUser(res.value)
      this.emit({ type: 'synced', what: 'user' })
      return res
    }
    if (res.error.status === 403) {
      await this.setUser(null)
      return ok(null)
    }
    return res
  }

  /** A 403 from chats or likes means the session may be gone: ask for the user again. */
  private async sessionGone(error: SyncError) {
    if (error.status === 403) await this.refreshUser()
  }

  async syncChats(): Promise<Result<number>> {
    const res = await fenced(this.db, () => request('chats'))
    if (!res.ok) {
      await this.sessionGone(res.error)
      return res
    }
    const rows = res.value.chats.map((c, order) => ({ ...c, id: c.conversation.id, order }))
    // The server's list is the truth: replace in one transaction so a reader
    // never sees half a list; if the tab dies mid-way nothing changes.
    await this.db.transaction('rw', [this.db.chats, this.db.profiles], async () => {
      await this.db.chats.clear()
      await this.db.chats.bulkPut(rows)
      const seenAt = Date.now()
      await this.db.profiles.bulkPut(rows.map((r) => ({ ...r.profile, seenAt })))
    })
    this.emit({ type: 'synced', what: 'chats' })
    return ok(rows.length)
  }

  /** Fetches one search page into the store under searchKey(filters). */
  /** `trafficsource`: a guest's affiliate network, which may open logged-out search (spec §6). */
  async search(
    filters: SearchFilters,
    page: number,
    manual = false,
    trafficsource?: string,
  ): Promise<Result<{ key: string }>> {
    const key = searchKey(filters)
    const res = await fenced(this.db, () =>
      request('search', {
        query: {
          ...filters,
          page,
          pp: SEARCH_PAGE_SIZE,
          trafficsource,
          ...(manual ? { manual_search: 1 } : {}),
        },
      }),
    )
    if (!res.ok) {
      await this.sessionGone(res.error)
      return res
    }
    const { profiles, paging, filters: applied, filter_options, similar } = res.value
    await this.db.transaction('rw', [this.db.searchPages, this.db.profiles], async () => {
      const seenAt = Date.now()
      await this.db.profiles.bulkPut([...profiles, ...similar].map((p) => ({ ...p, seenAt })))
      await this.db.searchPages.put({
        key,
        page,
        ids: profiles.map((p) => p.id),
        numResults: paging.num_results,
        filters: applied,
        filterOptions: filter_options,
        fetchedAt: seenAt,
        similarIds: similar.map((p) => p.id),
      })
    })
    this.emit({ type: 'synced', what: 'search' })
    return ok({ key })
  }

  /** Sync everything at once: a push message, coming online, a tab becoming visible. */
  async syncNow(): Promise<void> {
    const user = await this.refreshUser()
    if (!user.ok || !user.value) return
    // Our own actions first, so the lists fetched next already contain them.
    await this.outbox.drain()
    await this.syncChats()
    await this.syncLikes()
  }

  /** GET /api/likes.php into the store (spec §9: polled with chats). */
  async syncLikes(): Promise<Result<{ given: number; received: number }>> {
    const res = await this.likes.sync()
    if (res.ok) this.emit({ type: 'synced', what: 'likes' })
    return res
  }

  setLeader(leader: boolean) {
    this.leader = leader
    this.outbox.setLeader(leader)
    if (leader) void this.getUser().then((u) => u && this.startPolling())
  }

  setPushSubscribed(subscribed: boolean) {
    if (subscribed === this.pushSubscribed) return
    this.pushSubscribed = subscribed
    if (this.timers.size > 0) this.startPolling()
  }

  private startPolling() {
    this.stopPolling()
    if (!this.leader) return
    const every = this.pushSubscribed ? POLL_WITH_PUSH_MS : POLL_MS
    const generation = this.pollGeneration
    const loop = (name: string, fn: () => Promise<unknown>, delay: number) => {
      const tick = async () => {
        await fn().catch((e: unknown) =>
          this.emit({ type: 'error', error: { code: 'sync_failed', message: String(e) } }),
        )
        if (generation === this.pollGeneration && this.timers.has(name)) {
          this.timers.set(name, setTimeout(tick, every))
        }
      }
      this.timers.set(name, setTimeout(tick, delay))
    }
    loop('user', () => this.refreshUser(), every)
    loop('chats', () => this.syncChats(), CHATS_START_DELAY_MS)
    loop('likes', () => this.syncLikes(), CHATS_START_DELAY_MS)
  }

  stopPolling() {
    this.pollGeneration++
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
  }

  /** Spec §7: POST /api/page-hidden.php with an empty JSON body when the page hides. */
  async pageHidden(): Promise<void> {
    await fetch('/api/page-hidden.php', {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { ...clientHeaders(), 'Content-Type': 'application/json' },
      body: '{}',
    }).catch(() => undefined) // best effort by nature: the page is going away
  }
}
