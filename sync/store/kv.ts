// Typed keys of the store's `kv` table: one place says what each key holds.
// The worker writes them (after parsing with the contract); the app's
// app/data hooks read them.
import type {
  AccountState,
  CompanyInfo,
  CreditHistoryResponse,
  CreditsResponse,
  Discount,
  PackagesResponse,
  PrivacySettings,
  Settings,
  Transaction,
  User,
  VisitorsResponse,
} from '../../api/contract/index.ts'
import type { LikesCounts, LocalDb } from './store.ts'

/** Push subscription state of this device (spec §4, §9: 300 s polling with a subscription). */
export interface PushState {
  subscribed: boolean
}

/** Unread messages and new likes, as the badge last counted them (sync/session/badge.ts). */
export interface Counts {
  unread: number
  likes: number
}

export interface KvValues {
  /** The signed-in member (spec §3 User); one writer: sync/session. */
  user: User
  /** The member's own account part of GET /api/user.php (profile, notes, step, pending mail). */
  account: AccountState
  /** The site settings (spec §3), and when they were fetched. */
  settings: Settings
  settingsSyncedAt: number
  /** The imprint (GET /api/companyinfo.php) the footer shows. */
  companyInfo: CompanyInfo
  push: PushState
  /** The install badge last computed (spec §4: unread messages + new likes). */
  badge: number
  counts: Counts
  /** When the likes snapshot last written was asked for (sync/likes). */
  likesSyncedAt: number
  likesCounts: LikesCounts
  lastSync: number
  /** The credits balance and the price of a message (GET /api/credits.php). */
  credits: CreditsResponse
  /** Packages and payment methods last shown (GET /api/packages.php). */
  packages: PackagesResponse
  /** The active discount (welcome or time bonus), or null, and when it was asked for. */
  discount: { discount: Discount | null; at: number }
  /** The transaction page's order (GET /api/transactions.php). */
  transaction: Transaction
  /** Purchases and spends with the balance after each (GET /api/credit_history.php). */
  creditHistory: CreditHistoryResponse
  /** Who visited the member's profile, newest first (GET /api/visitors.php). */
  visitors: VisitorsResponse
  /**
   * Conversations whose other member is typing: until when (ms) each shows
   * "… is typing". Ephemeral: kept only here, from the live stream's pokes.
   */
  typing: Record<string, number>
  /** The member's privacy choices (GET /api/privacy.php). */
  privacy: PrivacySettings
  /**
   * The conversations opened last in any tab, and when (ms): the leader's
   * worker pulls them again when the live stream comes up (sync/chats/messages.ts, catchUp).
   */
  openedChats: Record<string, number>
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

/** The write of a fenced answer (sync/core/fence.ts) that goes whole to `key`; it hands the answer on. */
export const kvStore =
  <K extends KvKey>(db: LocalDb, key: K) =>
  async (value: KvValues[K]): Promise<KvValues[K]> => {
    await kvPut(db, key, value)
    return value
  }
