import { and, eq, isNull, sql } from 'drizzle-orm'
import { type Db, readSnapshot } from '../../db/client.ts'
import { likes, members } from '../../db/schema.ts'
import { LIKES_PAGE_SIZE, LikeResponse, type LikesResponse } from '../contract/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { runOnce, type Tx } from '../http/idempotency.ts'
import { imagesOf, type ProfileSource, profileColumns, toProfile } from '../profiles/profiles.ts'
import { enqueuePush } from '../push/notify.ts'

/** Whole-list ordering, matching likes_given_idx / likes_received_idx exactly. */
const givenOrder = [sql`${likes.createdAt} DESC`, sql`${likes.likedId} DESC`]
const receivedOrder = [
  sql`${likes.isNew} DESC`,
  sql`${likes.createdAt} DESC`,
  sql`${likes.likerId} DESC`,
]

/**
 * The queries of likesOf, unawaited (the tests EXPLAIN them). Each page is an
 * index range in the promised order joined to members by primary key; the
 * liked ids and the counts are read from the likes indexes alone, which
 * holds because a deleted account keeps no likes (deleteAccount).
 */
export const likesQueries = (db: Db, memberId: number, page = 1) => {
  const offset = (page - 1) * LIKES_PAGE_SIZE
  return {
    given: db
      .select({ member: profileColumns })
      .from(likes)
      .innerJoin(members, eq(members.id, likes.likedId))
      .where(and(eq(likes.likerId, memberId), isNull(members.deletedAt)))
      // The id breaks ties between likes made in the same instant, so the
      // order is the same on every poll.
      .orderBy(...givenOrder)
      .limit(LIKES_PAGE_SIZE)
      .offset(offset),
    received: db
      .select({ member: profileColumns, isNew: likes.isNew, createdAt: likes.createdAt })
      .from(likes)
      .innerJoin(members, eq(members.id, likes.likerId))
      .where(and(eq(likes.likedId, memberId), isNull(members.deletedAt)))
      .orderBy(...receivedOrder)
      .limit(LIKES_PAGE_SIZE)
      .offset(offset),
    likedIds: db
      .select({ id: likes.likedId })
      .from(likes)
      .where(eq(likes.likerId, memberId))
      .orderBy(...givenOrder),
    counts: db
      .select({
        given: sql<number>`(SELECT count(*) FROM ${likes} WHERE ${likes.likerId} = ${memberId})::int`,
        received: sql<number>`(SELECT count(*) FROM ${likes} WHERE ${likes.likedId} = ${memberId})::int`,
        receivedNew: sql<number>`(SELECT count(*) FROM ${likes}
          WHERE ${likes.likedId} = ${memberId} AND ${likes.isNew})::int`,
      })
      .from(sql`(SELECT 1) AS one`),
  }
}

/**
 * Spec §3 likes response of a member, one page: without `type` (what
 * polling asks for) page 1 of both lists, every liked id and the counts;
 * with `type`, that page of that list only. Deleted members never appear.
 * All of it is read from one snapshot, so the counts, the ids and the pages
 * agree even while likes are being made.
 */
export function likesOf(
  db: Db,
  memberId: number,
  options: { type?: 'given' | 'received' | undefined; page?: number } = {},
): Promise<LikesResponse> {
  return readSnapshot(db, (tx) => likesIn(tx, memberId, options))
}

async function likesIn(
  db: Db,
  memberId: number,
  { type, page = 1 }: { type?: 'given' | 'received' | undefined; page?: number },
): Promise<LikesResponse> {
  const q = likesQueries(db, memberId, page)
  const wantGiven = type !== 'received'
  const wantReceived = type !== 'given'
  const [given, received, likedIds, [counts]] = await Promise.all([
    wantGiven ? q.given : [],
    wantReceived ? q.received : [],
    type === undefined ? q.likedIds : [],
    q.counts,
  ])
  const imgs = await imagesOf(db, [
    ...new Set([...given.map((r) => r.member.id), ...received.map((r) => r.member.id)]),
  ])
  const profileOf = (m: ProfileSource) => toProfile(m, imgs.get(m.id) ?? [])
  return {
    profiles: given.map((r) => profileOf(r.member)),
    liked_ids: likedIds.map((r) => r.id),
    counts: {
      given: counts?.given ?? 0,
      received: counts?.received ?? 0,
      received_new: counts?.receivedNew ?? 0,
    },
    paging: { page, pp: LIKES_PAGE_SIZE },
    liked_by: received.map((r) => ({
      id: r.member.id,
      like_new: r.isNew,
      created_at: r.createdAt.toISOString(),
      profile: profileOf(r.member),
    })),
  }
}

/** 404 unless `id` is a live member: unknown and deleted look the same (reveals nothing). */
async function requireLive(tx: Tx, id: number): Promise<void> {
  const [row] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, id), isNull(members.deletedAt)))
  if (!row) throw notFound()
}

export interface LikeAction {
  memberId: number
  profile: number
  /** The action id; without one the effect alone makes a repeat harmless. */
  clientId?: string | undefined
  liked: boolean
}

/**
 * Like (`liked` true) or unlike a member, at most once per client id. Both
 * are idempotent in effect as well: liking a liked member, or unliking one
 * not liked, succeeds and changes nothing.
 */
export async function setLike(db: Db, action: LikeAction): Promise<LikeResponse> {
  const { memberId, profile, clientId, liked } = action
  if (profile === memberId) throw new ApiFailure(400, 'invalid_input', 'profile', 'own profile')
  const effect = async (tx: Tx): Promise<LikeResponse> => {
    await requireLive(tx, profile)
    if (liked) {
      const created = await tx
        .insert(likes)
        .values({ likerId: memberId, likedId: profile })
        .onConflictDoNothing()
        .returning({ liker: likes.likerId })
      if (created.length > 0) {
        // A new like: a push to the liked member's devices and a live poke.
        const [me] = await tx
          .select({ name: members.name })
          .from(members)
          .where(eq(members.id, memberId))
        await enqueuePush(tx, profile, {
          kind: 'like',
          from: { id: memberId, name: me?.name ?? '' },
        })
        await notifyMembers(tx, [profile], { type: 'likes' })
      }
    } else {
      await tx.delete(likes).where(and(eq(likes.likerId, memberId), eq(likes.likedId, profile)))
    }
    return { profile, liked }
  }
  if (clientId === undefined) return db.transaction(effect)
  const key = { memberId, clientId, kind: `${liked ? 'like' : 'unlike'}:${profile}` }
  return runOnce(db, key, LikeResponse, effect)
}

/** Spec §4: opening a like clears its new flag. 404 when `liker` gave no (live) like. */
export async function markLikeSeen(db: Db, memberId: number, liker: number): Promise<void> {
  const updated = await db
    .update(likes)
    .set({ isNew: false })
    .where(
      and(
        eq(likes.likerId, liker),
        eq(likes.likedId, memberId),
        sql`EXISTS (SELECT 1 FROM ${members} WHERE ${members.id} = ${liker} AND ${members.deletedAt} IS NULL)`,
      ),
    )
    .returning({ liker: likes.likerId })
  if (updated.length === 0) throw notFound()
}

/** Whether `viewer` liked `profile` and whether `profile` liked `viewer`, in one query. */
export async function likeFlags(
  db: Db,
  viewer: number,
  profile: number,
): Promise<{ liked: boolean; likedMe: boolean }> {
  const rows = await db
    .select({ liker: likes.likerId })
    .from(likes)
    .where(
      sql`(${likes.likerId} = ${viewer} AND ${likes.likedId} = ${profile})
        OR (${likes.likerId} = ${profile} AND ${likes.likedId} = ${viewer})`,
    )
  return {
    liked: rows.some((r) => r.liker === viewer),
    likedMe: rows.some((r) => r.liker === profile),
  }
}
