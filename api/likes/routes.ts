import { type Context, Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { requireAgeAssurance } from '../age/index.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { LikeSeenResponse } from '../contract/index.ts'
import { ClientId, IDEMPOTENCY_KEY_HEADER } from '../contract/likes.ts'
import { ApiFailure } from '../http/errors.ts'
import { limitMemberAction } from '../http/member-limits.ts'
import { primaryReads, type ReadsFor } from '../http/reads.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { type LikeAction, likeState, likesOf, markLikeSeen, setLike } from './likes.ts'

/**
 * The action id of a like or unlike: the Idempotency-Key header or the
 * body's client_id, or none (the like is idempotent by its effect). Both
 * given must agree, or it is unclear which one a replay should match.
 */
function actionId(header: string | undefined, clientId: string | undefined): string | undefined {
  if (header === undefined) return clientId
  const key = ClientId.safeParse(header.trim())
  if (!key.success) {
    throw new ApiFailure(400, 'invalid_input', IDEMPOTENCY_KEY_HEADER, 'Idempotency-Key: a UUID')
  }
  if (clientId !== undefined && clientId !== key.data) {
    throw new ApiFailure(
      400,
      'invalid_input',
      'client_id',
      'client_id: differs from Idempotency-Key',
    )
  }
  return key.data
}

export interface LikesOptions {
  /**
   * Per-member like limits (api/http/member-limits.ts); default on. Off only
   * for benchmarks and tests that like in bulk on purpose.
   */
  memberLimits?: boolean
  /** The job runner, poked when a like enqueued a push (it goes out at once, not at the next poll). */
  jobs?: { poke(): void }
  /** The handle the lists are read from (api/http/reads.ts); default the primary. */
  readsFor?: ReadsFor
}

/**
 * /api/likes.php (spec §7): GET the lists, POST like, DELETE unlike (an
 * action id, if sent, is applied at most once; likes and unlikes count
 * against the member's like limits, replays of an id do not), PUT marks a
 * received like as opened.
 * Every method needs a session; without one the answer is 403 (spec §8).
 */
export const likesRoutes = (
  db: Db,
  { memberLimits = true, jobs, readsFor = primaryReads(db) }: LikesOptions = {},
) => {
  /** A like or unlike, counted against the limits first unless it replays an id. */
  async function limitedLike(c: Context, action: LikeAction) {
    if (!memberLimits) return setLike(db, action, () => jobs?.poke())
    const state = await likeState(db, action.memberId, action.clientId)
    if (state.replay) return setLike(db, action, () => jobs?.poke())
    await limitMemberAction(c, db, 'like', { id: action.memberId, signupDate: state.signupDate })
    return setLike(db, action, () => jobs?.poke())
  }
  return new Hono<AuthEnv>()
    .get(pathOf(endpoints.likes), requireMember(db), queryOf(endpoints.likes), async (c) =>
      c.json(await likesOf(readsFor(c), c.get('memberId'), c.req.valid('query'))),
    )
    .post(pathOf(endpoints.like), requireMember(db), bodyOf(endpoints.like), async (c) => {
      const { profile, client_id } = c.req.valid('json')
      const clientId = actionId(c.req.header(IDEMPOTENCY_KEY_HEADER), client_id)
      const memberId = c.get('memberId')
      await requireAgeAssurance(db, memberId, c.req.header('host'), 'like')
      return c.json(await limitedLike(c, { memberId, profile, clientId, liked: true }))
    })
    .delete(pathOf(endpoints.unlike), requireMember(db), bodyOf(endpoints.unlike), async (c) => {
      const { profile, client_id } = c.req.valid('json')
      const clientId = actionId(c.req.header(IDEMPOTENCY_KEY_HEADER), client_id)
      const memberId = c.get('memberId')
      return c.json(await limitedLike(c, { memberId, profile, clientId, liked: false }))
    })
    .put(pathOf(endpoints.likeSeen), requireMember(db), bodyOf(endpoints.likeSeen), async (c) => {
      const { profile } = c.req.valid('json')
      await markLikeSeen(db, c.get('memberId'), profile)
      return c.json({ profile, like_new: false } satisfies LikeSeenResponse)
    })
}
