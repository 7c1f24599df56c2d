import { and, desc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { perDatabase } from '../../db/prepared.ts'
import { likes } from '../../db/schema/index.ts'
import { blockedWithSql } from '../blocks/index.ts'
import {
  LIKES_PAGE_SIZE,
  LikeResponse,
  type LikesResponse,
  type Profile,
} from '../contract/index.ts'
import { notifyMembers } from '../events/bus.ts'
import { ApiFailure, notFound } from '../http/errors.ts'
import { runOnce, type Tx, usedBefore } from '../http/idempotency.ts'
import { approvedImagesSql } from '../images/index.ts'
import { type ProfileSource, profileColumns, toProfile } from '../profiles/index.ts'
import { pushEventJobSql } from '../push/index.ts'
import { liveMemberJoin, liveMemberSql, liveMembersSql, memberFields } from '../shared/members.ts'
import { rowsOf } from '../shared/rows.ts'

/** Whole-list ordering, matching likes_given_idx / likes_received_idx exactly. */
const givenOrder = [sql`${likes.createdAt} DESC`, sql`${likes.likedId} DESC`]
const receivedOrder = [
  sql`${likes.isNew} DESC`,
  sql`${likes.createdAt} DESC`,
  sql`${likes.likerId} DESC`,
]

/** Which lists and which page a GET /api/likes.php asks for. */
export interface LikesShape {
  type?: 'given' | 'received' | undefined
  page?: number
}

/** The profile columns of a row of `from` (a subquery selecting them). */
const profileFieldsOf = <T extends Record<keyof typeof profileColumns, unknown>>(from: T) =>
  Object.fromEntries(
    Object.keys(profileColumns).map((k) => [k, from[k as keyof typeof profileColumns]]),
  ) as Pick<T, keyof typeof profileColumns>

/**
 * The whole likes answer of `member` as ONE statement (the tests EXPLAIN it),
 * so one round trip and one snapshot: a single statement sees one snapshot in
 * all its subqueries, so the counts, the ids and the pages agree even while
 * likes are being made (api/likes/torn-reads.test.ts), as the read-only
 * transaction around five reads did before.
 *
 * One row per profile on the asked page(s), or one row of NULLs beside the
 * counts when the pages are empty: the counts and every liked id (read from
 * the likes indexes alone, which holds because a deleted account keeps no
 * likes: deleteAccount) ride on each row as uncorrelated subqueries,
 * evaluated once. Each page is an index range in the promised order joined to
 * members by primary key (`list` 0 given, 1 received, each ordered as its
 * index); each profile's approved pictures, oldest first, come as a
 * json_agg column (what imagesOf answers about other members).
 */
export function likesQuery(db: Db, member: number | Placeholder, { type, page = 1 }: LikesShape) {
  const offset = (page - 1) * LIKES_PAGE_SIZE
  const given = db
    .select({
      list: sql<number>`0`.as('list'),
      isNew: sql<boolean>`false`.as('is_new'),
      createdAt: likes.createdAt,
      ...profileColumns,
    })
    .from(likes)
    .innerJoin(...liveMemberJoin(sql`${likes.likedId}`))
    .where(eq(likes.likerId, member))
    // The id breaks ties between likes made in the same instant, so the
    // order is the same on every poll.
    .orderBy(...givenOrder)
    .limit(LIKES_PAGE_SIZE)
    .offset(offset)
  const received = db
    .select({
      list: sql<number>`1`.as('list'),
      isNew: likes.isNew,
      createdAt: likes.createdAt,
      ...profileColumns,
    })
    .from(likes)
    .innerJoin(...liveMemberJoin(sql`${likes.likerId}`))
    .where(eq(likes.likedId, member))
    .orderBy(...receivedOrder)
    .limit(LIKES_PAGE_SIZE)
    .offset(offset)
  const pages = (
    type === 'given' ? given : type === 'received' ? received : given.unionAll(received)
  ).as('page')
  return (
    db
      .select({
        given: sql<number>`(SELECT count(*) FROM ${likes} WHERE ${likes.likerId} = ${member})::int`,
        received: sql<number>`(SELECT count(*) FROM ${likes} WHERE ${likes.likedId} = ${member})::int`,
        receivedNew: sql<number>`(SELECT count(*) FROM ${likes}
          WHERE ${likes.likedId} = ${member} AND ${likes.isNew})::int`,
        // Every liked id, in the given list's order (ARRAY keeps the
        // subquery's order); only for the answer without `type`.
        likedIds:
          type === undefined
            ? sql<number[]>`to_json(ARRAY(SELECT ${likes.likedId} FROM ${likes}
                WHERE ${likes.likerId} = ${member} ORDER BY ${sql.join(givenOrder, sql`, `)}))`
            : sql<number[]>`'[]'::json`,
        list: pages.list,
        isNew: pages.isNew,
        createdAt: pages.createdAt,
        ...profileFieldsOf(pages),
        images: approvedImagesSql(sql`${pages.id}`),
      })
      .from(sql`(SELECT 1) AS one`)
      .leftJoinLateral(pages, sql`true`)
      // Each list in its own order (given rows all have is_new false).
      .orderBy(pages.list, desc(pages.isNew), desc(pages.createdAt), desc(pages.id))
  )
}

/**
 * The answer polling asks for (no `type`, page 1), built once per database
 * (on PostgreSQL a named prepared statement, parsed once per connection; its
 * generic plan reads both pages as index ranges too: api/likes/likes.test.ts).
 * The `type`/`page` variants are the same statement with that page's lists,
 * built per request and sent unnamed: they are rare (a member paging through
 * a long list), and an unnamed statement is planned with its own OFFSET,
 * where a generic plan of a named one would have to guess it.
 */
const pollingQuery = perDatabase((db) =>
  likesQuery(db, sql.placeholder('member'), {}).prepare('likes_of'),
)

/**
 * Spec §3 likes response of a member, one page: without `type` (what
 * polling asks for) page 1 of both lists, every liked id and the counts;
 * with `type`, that page of that list only. Deleted members never appear.
 * One statement (likesQuery), so the counts, the ids and the pages agree
 * even while likes are being made.
 */
export async function likesOf(
  db: Db,
  memberId: number,
  { type, page = 1 }: LikesShape = {},
): Promise<LikesResponse> {
  const rows =
    type === undefined && page === 1
      ? await pollingQuery(db).execute({ member: memberId })
      : await likesQuery(db, memberId, { type, page })
  const first = rows[0]
  const profiles: Profile[] = []
  const likedBy: LikesResponse['liked_by'] = []
  for (const r of rows) {
    if (r.list === null) continue
    // A row with a list is a joined profile: its columns are not null.
    const profile = toProfile(r as ProfileSource, r.images)
    if (r.list === 0) profiles.push(profile)
    else {
      likedBy.push({
        id: profile.id,
        like_new: r.isNew as boolean,
        created_at: (r.createdAt as Date).toISOString(),
        profile,
      })
    }
  }
  return {
    profiles,
    liked_ids: first?.likedIds ?? [],
    counts: {
      given: first?.given ?? 0,
      received: first?.received ?? 0,
      received_new: first?.receivedNew ?? 0,
    },
    paging: { page, pp: LIKES_PAGE_SIZE },
    liked_by: likedBy,
  }
}

/** 404 unless `id` is a live member: unknown and deleted look the same (reveals nothing). */
async function requireLive(tx: Tx, id: number): Promise<void> {
  const row = await memberFields(tx, id, ['deletedAt'])
  if (!row || row.deletedAt !== null) throw notFound()
}

export interface LikeAction {
  memberId: number
  profile: number
  /** The action id; without one the effect alone makes a repeat harmless. */
  clientId?: string | undefined
  liked: boolean
}

/** A like the statement created. */
const LikedRow = z.object({ liker_id: z.unknown(), pushes: z.number() })

/**
 * Like (`liked` true) or unlike a member, at most once per client id. Both
 * are idempotent in effect as well: liking a liked member, or unliking one
 * not liked, succeeds and changes nothing.
 */
export async function setLike(
  db: Db,
  action: LikeAction,
  /** Called after the commit when the like enqueued a push (the caller pokes its job runner). */
  onPushed?: () => void,
): Promise<LikeResponse> {
  const { memberId, profile, clientId, liked } = action
  let pushed = false
  if (profile === memberId) throw new ApiFailure(400, 'invalid_input', 'profile', 'own profile')
  const effect = async (tx: Tx): Promise<LikeResponse> => {
    await requireLive(tx, profile)
    if (liked) {
      // A new like and, in the same statement, the push about it to the
      // liked member's devices (the push domain's event job: it reads the
      // names, the blocks and the member's choices when it runs, after the
      // commit, as for a message or a visit), then a live poke.
      const created = await rowsOf(
        tx,
        sql`WITH liked AS (
          INSERT INTO ${likes} (liker_id, liked_id) VALUES (${memberId}, ${profile})
          ON CONFLICT DO NOTHING RETURNING liker_id
        ), push AS (
          ${pushEventJobSql({
            memberId: sql`${profile}::bigint`,
            event: { kind: 'like', from: sql`${memberId}::bigint` },
            from: sql`liked`,
          })}
        )
        SELECT liker_id, (SELECT count(*) FROM push)::int AS pushes FROM liked`,
        LikedRow,
      )
      if (created.length > 0) await notifyMembers(tx, [profile], { type: 'likes' })
      if ((created[0]?.pushes ?? 0) > 0) pushed = true
    } else {
      await tx.delete(likes).where(and(eq(likes.likerId, memberId), eq(likes.likedId, profile)))
    }
    return { profile, liked }
  }
  const kind = `${liked ? 'like' : 'unlike'}:${profile}`
  const answer = await (clientId === undefined
    ? db.transaction(effect)
    : runOnce(db, { memberId, clientId, kind }, LikeResponse, effect))
  if (pushed) onPushed?.()
  return answer
}

const LikeState = z.object({ signup_date: z.coerce.date(), replay: z.boolean() })

/**
 * What the rate limit of a like or unlike needs to know, in one read: when
 * the member signed up (an account younger than a day has tighter limits) and
 * whether the action id was used before (a replay, never counted nor refused:
 * api/http/member-limits.ts). Without an id nothing is a replay.
 */
export async function likeState(
  db: Db,
  memberId: number,
  clientId: string | undefined,
): Promise<{ signupDate: Date; replay: boolean }> {
  const [row] = await rowsOf(
    db,
    sql`SELECT m.signup_date, ${clientId === undefined ? sql`false` : usedBefore(memberId, clientId)} AS replay
      FROM ${liveMembersSql} m WHERE m.id = ${memberId}`,
    LikeState,
  )
  // No row: the member is gone (the action answers that); count as the newest account.
  return { signupDate: row?.signup_date ?? new Date(), replay: row?.replay === true }
}

/** Spec §4: opening a like clears its new flag. 404 when `liker` gave no (live) like. */
export async function markLikeSeen(db: Db, memberId: number, liker: number): Promise<void> {
  const updated = await db
    .update(likes)
    .set({ isNew: false })
    .where(and(eq(likes.likerId, liker), eq(likes.likedId, memberId), liveMemberSql(sql`${liker}`)))
    .returning({ liker: likes.likerId })
  if (updated.length === 0) throw notFound()
}

/**
 * The install badge's new likes of `memberId` as a scalar SQL expression, for
 * a caller's single statement: likes not yet seen, from members who still
 * exist and with no block either way.
 */
export const newLikesCountSql = (memberId: number): SQL =>
  sql`(SELECT count(*)::int FROM likes l
    WHERE l.liked_id = ${memberId} AND l.is_new
      AND ${liveMemberSql(sql`l.liker_id`)}
      AND l.liker_id NOT IN (${blockedWithSql(memberId)}))`
