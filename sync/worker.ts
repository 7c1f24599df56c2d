// The sync worker entry. It must not import the app bundle (app/): it is the
// data layer, loaded as its own module worker. Exactly one worker per origin
// polls (the leader, chosen by a Web Lock); the others answer direct calls
// and see the leader's writes through Dexie.
import * as Comlink from 'comlink'
import { accountApi } from './account/account.ts'
import { SyncEngine, type SyncEvent } from './engine.ts'
import { membersApi } from './members/handlers.ts'
import { localDb } from './store/store.ts'

const engine = new SyncEngine(localDb())

const api = {
  getUser: () => engine.getUser(),
  login: (email: string, password: string) => engine.login(email, password),
  logout: () => engine.logout(),
  refreshUser: () => engine.refreshUser(),
  syncChats: () => engine.syncChats(),
  search: (...args: Parameters<SyncEngine['search']>) => engine.search(...args),
  syncNow: () => engine.syncNow(),
  pageHidden: () => engine.pageHidden(),
  setPushSubscribed: (subscribed: boolean) => engine.setPushSubscribed(subscribed),
  /** Events reach the page through a Comlink-proxied callback. */
  subscribe: (listener: (e: SyncEvent) => void) => {
    engine.subscribe(listener)
  },
  /** Sign-up, own account, activation, reset, mail change, pictures (issue 3). */
  ...accountApi(engine),
  /** Likes (through the outbox), profiles, chat start, settings, webcam tiles (issue 4). */
  ...membersApi(engine),
}

export type SyncApi = typeof api

Comlink.expose(api satisfies SyncApi)

// Leader election: the lock is held for the worker's lifetime and passes to
// another tab's worker when this tab closes.
if ('locks' in navigator) {
  void navigator.locks.request('amora-sync-leader', () => {
    engine.setLeader(true)
    return new Promise<never>(() => {})
  })
} else {
  engine.setLeader(true)
}
