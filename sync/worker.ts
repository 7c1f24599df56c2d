// The sync worker entry. It must not import the app bundle (app/): it is the
// data layer, loaded as its own module worker. Exactly one worker per origin
// polls (the leader, chosen by a Web Lock); the others answer direct calls
// and see the leader's writes through Dexie.
import * as Comlink from 'comlink'
import { accountHandlers } from './account/account.ts'
import { ageHandlers } from './age/age.ts'
import { chatsHandlers } from './chats/handlers.ts'
import { consoleHandlers } from './console/handlers.ts'
import { combineHandlers } from './core/handlers.ts'
import { SyncEngine } from './engine.ts'
import { linkHandlers } from './links/handlers.ts'
import { membersHandlers } from './members/handlers.ts'
import { paymentsHandlers } from './payments/payments.ts'
import { withdrawalHandlers } from './payments/withdrawal.ts'
import { presenceHandlers } from './presence/presence.ts'
import { pushHandlers } from './push/handlers.ts'
import { sessionHandlers } from './session/handlers.ts'
import { localDb } from './store/store.ts'
import { watchHandlers } from './store/watch.ts'
import { trafficHandlers } from './traffic/handlers.ts'

const engine = new SyncEngine(localDb())

/** One handler set per domain; combineHandlers throws if two name a handler alike. */
const api = combineHandlers(
  sessionHandlers(engine),
  accountHandlers({
    ctx: engine.ctx,
    session: engine.session,
    setPushSubscribed: (subscribed) => engine.setPushSubscribed(subscribed),
  }),
  membersHandlers({
    ctx: engine.ctx,
    likes: engine.likes,
    outbox: engine.outbox,
    members: engine.members,
    syncLikes: () => engine.syncLikes(),
    subscribe: (listener) => engine.subscribe(listener),
  }),
  chatsHandlers({ messages: engine.messages, syncChats: () => engine.syncChats() }),
  trafficHandlers(),
  withdrawalHandlers(),
  ageHandlers(),
  consoleHandlers(),
  linkHandlers(),
  paymentsHandlers({
    ctx: engine.ctx,
    syncCredits: () => engine.messages.syncCredits(),
    refreshUser: () => engine.refreshUser(),
  }),
  presenceHandlers(engine.presence),
  pushHandlers({
    setPushSubscribed: (subscribed) => engine.setPushSubscribed(subscribed),
  }),
  watchHandlers(engine.ctx.db),
)

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
