import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { type AuthEnv, requireMember } from '../auth/session.ts'
import { ApiFailure } from '../errors.ts'
import { liveMember, toUser } from '../services/user.ts'

export const userRoutes = (db: Db) =>
  new Hono<AuthEnv>().get('/user.php', requireMember(db), async (c) => {
    const member = await liveMember(db, c.get('memberId'))
    if (!member) throw new ApiFailure(403, 'not_logged_in')
    return c.json(await toUser(db, member))
  })
