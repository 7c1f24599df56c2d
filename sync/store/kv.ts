// Typed keys of the store's `kv` table: one place says what each key holds.
// The worker writes them (after parsing with the contract); the app's
// app/data hooks read them.
import type { AccountState, CreditsResponse, Settings, User } from '../../api/contract/index.ts'
import type { LikesCounts, LocalDb } from './store.ts'

/** Push subscription state of this device (spec §4, §9: 300 s polling with a subscription). */
export interface PushState {
  subscribed: boolean
}

export interface KvValues {
  /** The signed-in member (spec §3 User); one writer: sync/session. */
  user: User
  /** The member's own account part of GET /api/user.php (profile, notes, step, pending mail). */
  account: AccountState
  /** The site settings (spec §3), and when they were fetched. */
  settings: Settings
  settingsSyncedAt: number
  push: PushState
  /** The install badge last computed (spec §4: unread messages + new likes). */
  badge: number
  /** When the likes snapshot last written was asked for (sync/likes). */
  likesSyncedAt: number
  likesCounts: LikesCounts
  lastSync: number
  /** The credits balance and the price of a message (GET /api/credits.php). */
  credits: CreditsResponse
}

export type KvKey = keyof KvValues

/** The stored value of `key`, trusted as its type: only the worker writes it, after parsing. */
export async function kvGet<K extends KvKey>(
  db: LocalDb,
  key: K,
): Promise<KvValues[K] | undefined> {
  return (await db.kv.get(key))?.value as KvValues[K] | undefined
}

export async function kvPut<K extends KvKey>(
  db: LocalDb,
  key: K,
  value: KvValues[K],
): Promise<void> {
  await db.kv.put({ key, value })
}
