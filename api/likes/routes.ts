import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { LikeSeenResponse } from '../contract/index.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { bodyOf, pathOf, queryOf } from '../http/validate.ts'
import { likesOf, markLikeSeen, setLike } from './likes.ts'

/**
 * /api/likes.php (spec §7): GET the lists, POST like, DELETE unlike (each with
 * a client id, applied at most once), PUT marks a received like as opened.
 * Every method needs a session; without one the answer is 403 (spec §8).
 */
export const likesRoutes = (db: Db) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.likes), requireMember(db), queryOf(endpoints.likes), async (c) =>
      c.json(await likesOf(db, c.get('memberId'), c.req.valid('query'))),
    )
    .post(pathOf(endpoints.like), requireMember(db), bodyOf(endpoints.like), async (c) => {
      const { profile, client_id } = c.req.valid('json')
      const memberId = c.get('memberId')
      return c.json(await setLike(db, { memberId, profile, clientId: client_id, liked: true }))
    })
    .delete(pathOf(endpoints.unlike), requireMember(db), bodyOf(endpoints.unlike), async (c) => {
      const { profile, client_id } = c.req.valid('json')
      const memberId = c.get('memberId')
      return c.json(await setLike(db, { memberId, profile, clientId: client_id, liked: false }))
    })
    .put(pathOf(endpoints.likeSeen), requireMember(db), bodyOf(endpoints.likeSeen), async (c) => {
      const { profile } = c.req.valid('json')
      await markLikeSeen(db, c.get('memberId'), profile)
      return c.json({ profile, like_new: false } satisfies LikeSeenResponse)
    })
