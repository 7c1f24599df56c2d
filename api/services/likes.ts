import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { likes, members } from '../../db/schema.ts'
import { LikeResponse, type LikesResponse } from '../contract/index.ts'
import { ApiFailure, notFound } from '../errors.ts'
import { runOnce, type Tx } from './idempotency.ts'
import { imagesOf, type ProfileSource, profileColumns, toProfile } from './profiles.ts'

/**
 * The two list queries of likesOf, unawaited (the tests EXPLAIN them). Each
 * is an index range on likes_given_idx / likes_received_idx in the promised
 * order, joined to members by primary key.
 */
export const likesQueries = (db: Db, memberId: number) => ({
  given: db
    .select({ member: profileColumns })
    .from(likes)
    .innerJoin(members, eq(members.id, likes.likedId))
    .where(and(eq(likes.likerId, memberId), isNull(members.deletedAt)))
    // The id breaks ties between likes made in the same instant, so the
    // order is the same on every poll.
    .orderBy(desc(likes.createdAt), desc(likes.likedId)),
  received: db
    .select({ member: profileColumns, isNew: likes.isNew, createdAt: likes.createdAt })
    .from(likes)
    .innerJoin(members, eq(members.id, likes.likerId))
    .where(and(eq(likes.likedId, memberId), isNull(members.deletedAt)))
    .orderBy(desc(likes.isNew), desc(likes.createdAt), desc(likes.likerId)),
})

/**
 * Spec §3 likes response of a member: the profiles they liked, newest first,
 * and who liked them, unopened ones first (spec §4), then newest first.
 * Deleted members never appear. One query per list and one for all images.
 */
export async function likesOf(db: Db, memberId: number): Promise<LikesResponse> {
  const { given: givenQuery, received: receivedQuery } = likesQueries(db, memberId)
  const [given, received] = await Promise.all([givenQuery, receivedQuery])
  const imgs = await imagesOf(db, [
    ...new Set([...given.map((r) => r.member.id), ...received.map((r) => r.member.id)]),
  ])
  const profileOf = (m: ProfileSource) => toProfile(m, imgs.get(m.id) ?? [])
  return {
    profiles: given.map((r) => profileOf(r.member)),
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
  clientId: string
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
  const key = { memberId, clientId, kind: `${liked ? 'like' : 'unlike'}:${profile}` }
  return runOnce(db, key, LikeResponse, async (tx) => {
    await requireLive(tx, profile)
    if (liked) {
      await tx.insert(likes).values({ likerId: memberId, likedId: profile }).onConflictDoNothing()
    } else {
      await tx.delete(likes).where(and(eq(likes.likerId, memberId), eq(likes.likedId, profile)))
    }
    return { profile, liked }
  })
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
