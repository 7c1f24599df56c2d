import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { members } from '../../db/schema.ts'
import { type AuthEnv, requireMember } from '../auth/session.ts'
import { SearchQuery } from '../contract/index.ts'
import { ApiFailure } from '../errors.ts'
import { search } from '../services/search.ts'
import { liveMember } from '../services/user.ts'
import { validate } from '../validate.ts'

export const searchRoutes = (db: Db) =>
  new Hono<AuthEnv>().get(
    '/search.php',
    requireMember(db),
    validate('query', SearchQuery),
    async (c) => {
      const q = c.req.valid('query')
      const me = await liveMember(db, c.get('memberId'))
      if (!me) throw new ApiFailure(403, 'not_logged_in')
      const { response, filters } = await search(db, me, q)
      // Spec §7: a manual search is remembered unless do_not_save.
      if (q.manual_search && !q.do_not_save) {
        await db.update(members).set({ savedSearch: filters }).where(eq(members.id, me.id))
      }
      return c.json(response)
    },
  )
