// The signed-in member as the page knows it. The sync worker owns the user
// (it stores it in IndexedDB and refreshes it); this store mirrors the
// worker's `user` events for React via useSyncExternalStore.
import { useSyncExternalStore } from 'react'
import type { User } from '../../api/contract/index.ts'
import { SIGNED_IN_COOKIE } from '../../api/contract/rules/login.ts'
import { firstReads, onSyncEvent, syncWorker } from '../../sync/client.ts'

type State = { user: User | null; known: boolean }

/** A guest, as the server renders every prerendered page (members get the plain shell). */
const GUEST: State = { user: null, known: true }

let state: State = { user: null, known: false }
/** Set while a prerendered page hydrates: the page is a guest's until then (page-seed.ts). */
let assumedGuest = false
const listeners = new Set<() => void>()

function set(next: State) {
  state = next
  for (const l of listeners) l()
}

/** The server's readable note that it set a session cookie (the session cookie itself is httpOnly). */
const signedInHint = () =>
  typeof document !== 'undefined' && document.cookie.split(/;\s*/).includes(`${SIGNED_IN_COOKIE}=1`)

/**
 * No member stored, but a session cookie: a login by a plain form post (the
 * page had not hydrated) whose member the app has not stored yet. The page
 * shows as a guest's at once and becomes the member's when the server
 * answers (the worker stores the member and sends its `user` event). A
 * session the server no longer knows clears the note.
 */
async function askServer() {
  const res = await syncWorker().refreshUser()
  if (res.ok && res.value === null) forgetSignedIn()
}

function forgetSignedIn() {
  const store = (globalThis as { cookieStore?: { delete(name: string): Promise<void> } })
    .cookieStore
  if (store) {
    void store.delete(SIGNED_IN_COOKIE)
    return
  }
  // Browsers without the Cookie Store API: a fixed name, no value to escape.
  // biome-ignore lint/suspicious/noDocumentCookie: the only way to clear a cookie there
  document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/`
}

/** A stored member as the page reads it itself: the worker wrote it parsed, its answer checks it again. */
const asUser = (value: unknown): User | null =>
  typeof value === 'object' && value !== null && 'profile' in value ? (value as User) : null

let loading: Promise<void> | undefined

async function firstLoad(): Promise<void> {
  const fromWorker = syncWorker().getUser()
  const peeked = await firstReads.read('kv', ['user'])
  const user = peeked ? asUser(peeked.value) : await fromWorker
  // A mark for bench/offline-repeat.ts: the member known (the root renders).
  performance.mark('sync:user-known')
  if (!state.known) set({ user, known: true })
  const shown = state
  void fromWorker.then(
    (stored) => {
      // The worker is up: its reads from now on (sync/store/peek.ts).
      firstReads.end()
      // Its answer stands unless an event or a login came since.
      if (state === shown && JSON.stringify(stored) !== JSON.stringify(shown.user))
        set({ user: stored, known: true })
    },
    () => firstReads.end(),
  )
  if (!user && signedInHint()) void askServer()
}

let started = false
function start() {
  if (started) return
  started = true
  onSyncEvent((e) => {
    if (e.type === 'user') set({ user: e.user, known: true })
  })
}

export const session = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  /**
   * Spec §2: a page needing login fetches the user; if still not logged in,
   * it goes to login. The stored user counts (offline start); without one,
   * ask the server once.
   */
  async ensureUser(): Promise<User | null> {
    start()
    if (state.user) return state.user
    const worker = syncWorker()
    let user = await worker.getUser()
    if (!user) {
      const res = await worker.refreshUser()
      user = res.ok ? res.value : null
    }
    set({ user, known: true })
    return user
  },
  /**
   * The stored user only (public and optional-auth pages must not wait for
   * the network): read by the page itself when it can (the root renders
   * before the worker is up), then the worker's answer, which parsed it.
   */
  async load(): Promise<User | null> {
    start()
    if (!state.known) {
      loading ??= firstLoad()
      await loading
    }
    return state.user
  },
  /**
   * The worker's stored user, not the page's mirror (right after a logout or
   * deletion the mirror may not have heard yet); a guest while a prerendered
   * page hydrates, as the server rendered it.
   */
  async stored(): Promise<User | null> {
    if (assumedGuest) return null
    return syncWorker().getUser()
  },
  /**
   * The member the worker just signed up or in, as its answer carried it.
   * The worker's `user` event comes on another port than its answer, so a
   * page that navigates on the answer (the home's sign-up goes on at
   * /signup) would otherwise mount the next page before the mirror heard,
   * and /signup would start over at step 1 for a member who already exists.
   */
  adopt(user: User) {
    start()
    set({ user, known: true })
  },
  /**
   * A prerendered page (served to visitors without a session cookie) starts
   * as a guest's, so the first client render matches the server's HTML
   * without waiting for the worker to start.
   */
  assumeGuest() {
    assumedGuest = true
    state = GUEST
  },
  /**
   * After hydration: what the worker stored counts again. A stored user
   * (a session the server no longer sent a cookie for) shows as it would
   * have on the shell; the worker ends it when the server refuses it.
   */
  hydrated() {
    if (!assumedGuest) return
    assumedGuest = false
    start()
    void syncWorker()
      .getUser()
      .then((user) => {
        if (user && state.user === null) set({ user, known: true })
      })
  },
}

export const useSession = () => useSyncExternalStore(session.subscribe, session.get, () => GUEST)
