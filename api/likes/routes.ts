import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import {
  LikeRequest,
  LikeSeenRequest,
  type LikeSeenResponse,
  LikesQuery,
} from '../contract/index.ts'
import { likesOf, markLikeSeen, setLike } from './likes.ts'
import { validate } from '../http/validate.ts'

/**
 * /api/likes.php (spec §7): GET the lists, POST like, DELETE unlike (each with
 * a client id, applied at most once), PUT marks a received like as opened.
 * Every method needs a session; without one the answer is 403 (spec §8).
 */
export const likesRoutes = (db: Db) =>
  new Hono<AuthEnv>()
    .get('/likes.php', requireMember(db), validate('query', LikesQuery), async (c) =>
      c.json(await likesOf(db, c.get('memberId'), c.req.valid('query'))),
    )
    .post('/likes.php', requireMember(db), validate('json', LikeRequest), async (c) => {
      const { profile, client_id } = c.req.valid('json')
      const memberId = c.get('memberId')
      return c.json(await setLike(db, { memberId, profile, clientId: client_id, liked: true }))
    })
    .delete('/likes.php', requireMember(db), validate('json', LikeRequest), async (c) => {
      const { profile, client_id } = c.req.valid('json')
      const memberId = c.get('memberId')
      return c.json(await setLike(db, { memberId, profile, clientId: client_id, liked: false }))
    })
    .put('/likes.php', requireMember(db), validate('json', LikeSeenRequest), async (c) => {
      const { profile } = c.req.valid('json')
      await markLikeSeen(db, c.get('memberId'), profile)
      return c.json({ profile, like_new: false } satisfies LikeSeenResponse)
    })
