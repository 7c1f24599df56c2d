// Likes (spec §3, §4, §7, §9): the likes list synced from GET /api/likes.php,
// and the member's like, unlike and "opened a like" actions through the
// outbox. Likes and unlikes of one profile made offline are sent one by one
// in the order made, not coalesced: an entry may already have reached the
// server with its answer lost, so cancelling it locally would leave the
// server ahead of us. Order alone makes like-then-unlike end unliked.
import { z } from 'zod'
import type { Result, SyncError } from '../core/errors.ts'
import { fenced } from '../core/fence.ts'
import { type ResponseOf, request } from '../core/http.ts'
import type { Outbox } from '../core/outbox.ts'
import type { LocalDb, OutboxRow } from '../store/store.ts'
import {
  isStaleSnapshot,
  likeRow,
  type PendingLike,
  reconcileGiven,
  reconcileReceived,
} from './reconcile.ts'

const ProfilePayload = z.object({ profile: z.number().int().positive() })

export const LIKE_KINDS = ['like', 'unlike'] as const
type LikeKind = (typeof LIKE_KINDS)[number]
const isLikeKind = (k: string): k is LikeKind => k === 'like' || k === 'unlike'

/** The like/unlike entries of the outbox, as the reconciliation reads them. */
export function pendingLikes(rows: readonly OutboxRow[]): PendingLike[] {
  return rows.flatMap((r) => {
    const p = ProfilePayload.safeParse(r.payload)
    return isLikeKind(r.kind) && p.success
      ? [{ kind: r.kind, profile: p.data.profile, createdAt: r.createdAt }]
      : []
  })
}

/** Profiles with a like_seen waiting in the outbox. */
export function pendingSeen(rows: readonly OutboxRow[]): Set<number> {
  const ids = rows.flatMap((r) => {
    const p = ProfilePayload.safeParse(r.payload)
    return r.kind === 'like_seen' && p.success ? [p.data.profile] : []
  })
  return new Set(ids)
}

export interface LikesDeps {
  now: () => number
  /** A 403 from likes re-fetches the user (spec §8). */
  sessionGone: (error: SyncError) => Promise<void>
}

export class LikesSync {
  constructor(
    private readonly db: LocalDb,
    private readonly outbox: Outbox,
    private readonly deps: LikesDeps,
  ) {
    for (const kind of LIKE_KINDS) {
      outbox.register(kind, {
        payload: ProfilePayload,
        tables: () => [this.db.likes],
        apply: ({ profile }) => this.recompute(profile),
        send: ({ profile }, entry) =>
          request(kind === 'like' ? 'like' : 'unlike', {
            body: { profile, client_id: entry.id },
          }),
        settle: ({ profile }, answer, entry) => this.settle(profile, answer.liked, entry),
        revert: ({ profile }) => this.recompute(profile),
      })
    }
    outbox.register('like_seen', {
      payload: ProfilePayload,
      tables: () => [this.db.likedBy],
      apply: ({ profile }) => this.db.likedBy.update(profile, { likeNew: false }).then(() => {}),
      // PUT sets a flag: repeating it is harmless, so it needs no client id.
      send: ({ profile }) => request('likeSeen', { body: { profile } }),
      settle: ({ profile }) =>
        this.db.likedBy
          .update(profile, { serverNew: false, likeNew: false, confirmedAt: this.deps.now() })
          .then(() => {}),
      revert: async ({ profile }) => {
        const row = await this.db.likedBy.get(profile)
        const still = pendingSeen(await this.outbox.pending()).has(profile)
        if (row) await this.db.likedBy.update(profile, { likeNew: row.serverNew && !still })
      },
    })
  }

  like(profile: number): Promise<string> {
    return this.outbox.enqueue('like', { profile })
  }

  unlike(profile: number): Promise<string> {
    return this.outbox.enqueue('unlike', { profile })
  }

  /** Spec §4: opening a like clears its new flag, here at once and on the server via the outbox. */
  async markSeen(profile: number): Promise<void> {
    const row = await this.db.likedBy.get(profile)
    if (row && !row.likeNew && !row.serverNew) return
    await this.outbox.enqueue('like_seen', { profile })
  }

  /** Recomputes one profile's row from its server state and the outbox (inside a transaction). */
  private async recompute(profile: number) {
    const row = await this.db.likes.get(profile)
    const pending = pendingLikes(await this.outbox.pending())
    const next = likeRow(
      profile,
      row?.serverLiked ?? false,
      row?.confirmedAt ?? 0,
      row?.serverLiked ? row.order : undefined,
      pending,
    )
    if (!next.liked && !next.serverLiked && !pending.some((p) => p.profile === profile)) {
      // Nothing to show and nothing to protect (confirmedAt 0 = never learned).
      if (row && row.confirmedAt === 0) await this.db.likes.delete(profile)
      else if (row) await this.db.likes.put(next)
      return
    }
    await this.db.likes.put(next)
  }

  private async settle(profile: number, liked: boolean, entry: OutboxRow) {
    const row = await this.db.likes.get(profile)
    const pending = pendingLikes(await this.outbox.pending())
    // A like the server just confirmed goes to the top of the list until
    // the next poll gives it its place.
    const order = row?.serverLiked ? row.order : -entry.createdAt
    await this.db.likes.put(likeRow(profile, liked, this.deps.now(), order, pending))
  }

  /**
   * The server's like state of one profile learned elsewhere (the profile
   * page's `liked`), asked for at `requestedAt`: applied unless a newer answer is known.
   */
  async learn(profile: number, liked: boolean, requestedAt: number): Promise<void> {
    await this.db.transaction('rw', [this.db.likes, this.db.outbox], async () => {
      const row = await this.db.likes.get(profile)
      if (row && row.confirmedAt >= requestedAt) return
      if (row ? row.serverLiked === liked : !liked) return
      const pending = pendingLikes(await this.outbox.pending())
      const order = liked ? (row?.order ?? -requestedAt) : undefined
      await this.db.likes.put(likeRow(profile, liked, requestedAt, order, pending))
    })
  }

  /** GET /api/likes.php into the store (spec §9 polling; 403 re-fetches the user). */
  async sync(): Promise<Result<{ given: number; received: number }>> {
    const requestedAt = this.deps.now()
    const res = await fenced(
      this.db,
      () => request('likes'),
      (answer) => this.store(answer, requestedAt),
    )
    if (!res.ok) await this.deps.sessionGone(res.error)
    return res
  }

  /** Page 1 of both lists, asked for at `requestedAt`, into the store. */
  private async store(answer: ResponseOf<'likes'>, requestedAt: number) {
    const { profiles, liked_by, liked_ids, counts } = answer
    const db = this.db
    const tables = [db.likes, db.likedBy, db.profiles, db.outbox, db.kv]
    // Page 1 holds the first profiles of each list; `liked_ids` is every
    // liked member, so like buttons are right beyond the first page too.
    // One transaction with the outbox: an action enqueued meanwhile by
    // another tab either is in `pending` here or comes after this write.
    await db.transaction('rw', tables, async () => {
      const last = await db.kv.get('likesSyncedAt')
      if (isStaleSnapshot(requestedAt, typeof last?.value === 'number' ? last.value : undefined)) {
        return
      }
      await db.kv.put({ key: 'likesSyncedAt', value: requestedAt })
      await db.kv.put({ key: 'likesCounts', value: { ...counts, pp: answer.paging.pp } })
      const outbox = await this.outbox.pending()
      const given = reconcileGiven(
        { ids: liked_ids, requestedAt },
        await this.db.likes.toArray(),
        pendingLikes(outbox),
      )
      await this.db.likes.bulkDelete(given.remove)
      await this.db.likes.bulkPut(given.put)
      const received = reconcileReceived(
        { rows: liked_by, requestedAt },
        await this.db.likedBy.toArray(),
        pendingSeen(outbox),
      )
      await this.db.likedBy.clear()
      await this.db.likedBy.bulkPut(received)
      const seenAt = Date.now()
      await this.db.profiles.bulkPut([
        ...profiles.map((p) => ({ ...p, seenAt })),
        ...liked_by.map((l) => ({ ...l.profile, seenAt })),
      ])
    })
    return { given: liked_ids.length, received: liked_by.length }
  }

  /**
   * A later page of one list ("show more" on /likes): its profiles, and for
   * received likes their rows. Polling writes page 1 again and keeps the
   * profiles, so a list that was shown longer shrinks back to its first page
   * at the next poll; the member can show more again.
   */
  async loadPage(type: 'given' | 'received', page: number): Promise<Result<number>> {
    const res = await fenced(
      this.db,
      () => request('likes', { query: { type, page } }),
      (answer) => this.storePage(type, page, answer),
    )
    if (!res.ok) await this.deps.sessionGone(res.error)
    return res
  }

  /** A later page of one list into the store: how many it brought. */
  private async storePage(type: 'given' | 'received', page: number, answer: ResponseOf<'likes'>) {
    const { profiles, liked_by } = answer
    const seenAt = Date.now()
    await this.db.transaction(
      'rw',
      [this.db.likedBy, this.db.profiles, this.db.outbox],
      async () => {
        await this.db.profiles.bulkPut([
          ...profiles.map((p) => ({ ...p, seenAt })),
          ...liked_by.map((l) => ({ ...l.profile, seenAt })),
        ])
        const seen = pendingSeen(await this.outbox.pending())
        const known = new Set((await this.db.likedBy.toArray()).map((r) => r.id))
        const offset = (page - 1) * answer.paging.pp
        const fresh = reconcileReceived({ rows: liked_by, requestedAt: seenAt }, [], seen)
        await this.db.likedBy.bulkPut(
          fresh.filter((r) => !known.has(r.id)).map((r) => ({ ...r, order: r.order + offset })),
        )
      },
    )
    return type === 'given' ? profiles.length : liked_by.length
  }
}
