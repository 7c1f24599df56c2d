// The local store: IndexedDB through Dexie. The sync worker is its only
// writer; the app reads it with useLiveQuery. Dexie broadcasts every change to
// the other tabs and workers of the origin, so each live query updates itself.
import Dexie, { type EntityTable } from 'dexie'
import type {
  Cam,
  ChatEntry,
  Gift,
  Profile,
  ProfileResponse,
  SearchResponse,
  User,
  VOICE_TYPES,
} from '../../api/contract/index.ts'

type VoiceType = (typeof VOICE_TYPES)[number]

export const DB_NAME = 'amora'

/** A row of the kv table; read and write it through sync/store/kv.ts, which types each key. */
export interface KvRow {
  key: string
  value: unknown
}

/** One search result page: ids into `profiles`, so a profile is stored once. */
export interface SearchPageRow {
  key: string
  page: number
  ids: number[]
  numResults: number
  filters: SearchResponse['filters']
  filterOptions: SearchResponse['filter_options']
  fetchedAt: number
  /** Spec §4 similar results (age widened by 5 years each way), shown apart. */
  similarIds?: number[]
}

export interface ProfileRow extends Profile {
  seenAt: number
}

export interface ChatRow extends ChatEntry {
  id: number
  /** Position in the server's order (newest conversation first). */
  order: number
}

/** A member action waiting to reach the server (likes, messages, deletes). */
export interface OutboxRow {
  /** Client-generated UUID: the server applies each id at most once. */
  id: string
  kind: string
  payload: unknown
  createdAt: number
  attempts: number
  lastError?: string
}

/**
 * A profile the member liked, as shown and as the server last said
 * (sync/likes/reconcile.ts keeps the two apart so an action can be undone).
 */
export interface LikeRow {
  /** The liked profile's id. */
  id: number
  /** What the member sees: the server's state with the pending outbox applied. */
  liked: boolean
  /** The server's state as last known. */
  serverLiked: boolean
  /** When serverLiked was learned (clock of the worker); a snapshot older than this loses. */
  confirmedAt: number
  /** Sort key of the likes-given list, ascending: pending likes (negative) first, then the server's order. */
  order: number
}

/** A like another member gave this member (spec §3 liked_by). */
export interface LikedByRow {
  /** The liking profile's id. */
  id: number
  /** What the member sees: the server's flag unless a like_seen is pending. */
  likeNew: boolean
  serverNew: boolean
  confirmedAt: number
  createdAt: string
  /** Position in the server's list (new first). */
  order: number
}

/** A profile page as last fetched (GET /api/profile.php). */
export interface ProfileDetailRow {
  id: number
  detail: ProfileResponse['profile']
  likedMe: boolean | null
  fetchedAt: number
}

/**
 * A message of a conversation: the server's, or the member's own still on its
 * way (pending), refused (failed: the text is kept for a retry).
 */
export interface MessageRow {
  /** The sender's client id where there is one, else `m<server id>`. */
  key: string
  /** The server's id once sent; null while pending or failed. */
  id: number | null
  conversation: number
  from: number
  text: string
  sentAt: string
  status: 'pending' | 'sent' | 'failed'
  /**
   * Why it failed (`insufficient_credits`, `blocked`, ...), or, while
   * pending, why it waits (`rate_limited`: over the member's send limit).
   */
  error?: string
  /** While pending over the send limit: when (ms) it goes out by itself. */
  retryAt?: number
  /** Sort key: the server id, or a number past every id for what is not sent yet. */
  order: number
  /**
   * Stored from the poke that carried it, not yet from a pull (docs/live.md,
   * "The message in the poke"): a pull starts before it, so a message the
   * pull after it missed is not skipped. The pull's copy replaces the row.
   */
  hinted?: boolean
  /** When the recipient read it, if read receipts pass between the two (docs/live.md). */
  readAt?: string | null
  /** The member's first message here waits for a moderator (docs/live.md); shown to them only. */
  held?: boolean
  /**
   * A photo message (docs/messages-and-credits.md, "Photos in chats"): where
   * its photo is fetched once sent; null when it is hidden from this member.
   */
  photo?: string | null
  /** The photo is hidden from this member (they reported it, or a report was upheld). */
  photoHidden?: boolean
  /** A gift message (docs/payments.md, "Gifts"): the gift as it was sent. */
  gift?: Gift
  /** The member's own photo while it waits in the outbox (or failed): shown from the device. */
  localPhoto?: Blob
  /**
   * A voice message (docs/messages-and-credits.md, "Voice messages"): where
   * its recording is fetched, its container and length once sent; null when
   * it is hidden from this member.
   */
  voice?: VoiceRef | null
  /** The recording is hidden from this member (they reported it, or a report was upheld). */
  voiceHidden?: boolean
  /** The member's own recording while it waits in the outbox (or failed): played from the device. */
  localVoice?: LocalVoice
}

/** A stored voice message's recording, as the server names it (api/contract/messages.ts). */
export interface VoiceRef {
  url: string
  type: VoiceType
  duration_ms: number
}

/** A recording on the device: its bytes, container and measured length. */
export interface LocalVoice {
  blob: Blob
  type: VoiceType
  duration_ms: number
}

/** Webcam tiles for one gender/age filter (GET /api/xcams/search.php). */
export interface CamsRow {
  key: string
  cams: Cam[]
  fetchedAt: number
}

export class LocalDb extends Dexie {
  kv!: EntityTable<KvRow, 'key'>
  searchPages!: Dexie.Table<SearchPageRow, [string, number]>
  profiles!: EntityTable<ProfileRow, 'id'>
  chats!: EntityTable<ChatRow, 'id'>
  outbox!: EntityTable<OutboxRow, 'id'>
  likes!: EntityTable<LikeRow, 'id'>
  likedBy!: EntityTable<LikedByRow, 'id'>
  profileDetails!: EntityTable<ProfileDetailRow, 'id'>
  cams!: EntityTable<CamsRow, 'key'>
  messages!: EntityTable<MessageRow, 'key'>

  constructor(name = DB_NAME) {
    super(name)
    this.version(1).stores({
      kv: 'key',
      searchPages: '[key+page], fetchedAt',
      profiles: 'id',
      chats: 'id, order',
      outbox: 'id, createdAt',
    })
    // Likes, profile pages and webcam tiles; version 1 stays as it was.
    this.version(2).stores({
      likes: 'id, order',
      likedBy: 'id, order',
      profileDetails: 'id',
      cams: 'key',
    })
    // Messages of conversations, ordered within each (own pending ones last).
    this.version(3).stores({
      messages: 'key, [conversation+order]',
    })
  }

  /** Bumped by wipe(); answers asked for before it are dropped (sync/core/fence.ts). */
  epoch = 0

  /** Logout (docs/architecture.md, "Data and sync"): nothing of the member stays on the device. */
  async wipe(): Promise<void> {
    this.epoch++
    await this.transaction('rw', this.tables, () => Promise.all(this.tables.map((t) => t.clear())))
  }
}

let shared: LocalDb | undefined
/** The one instance of this context (page or worker). */
export const localDb = (): LocalDb => {
  shared ??= new LocalDb()
  return shared
}

export type { User }

/** kv `likesCounts`: list sizes from the last likes poll, and the server's page size. */
export interface LikesCounts {
  given: number
  received: number
  received_new: number
  pp: number
}

/** Reads kv `likesCounts` (written by the worker from a parsed response). */
export function likesCounts(value: unknown): LikesCounts | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Record<string, unknown>
  const nums = ['given', 'received', 'received_new', 'pp'].every((k) => typeof v[k] === 'number')
  return nums ? (v as unknown as LikesCounts) : null
}
