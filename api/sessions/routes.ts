import { Hono } from 'hono'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { SessionsResponse } from '../contract/index.ts'
import { notFound } from '../http/errors.ts'
import { type AuthEnv, endSession, nowOf, requireMember } from '../http/session.ts'
import { parseOr400, pathOf, validate } from '../http/validate.ts'
import { endOtherSessions, endSessionById, listSessions } from './sessions.ts'

/** `?others=1` (endpoints.endOtherSessions) or a body naming one (endpoints.endSession). */
const DeleteQuery = z.object({ others: z.literal('1').optional() })

/**
 * /api/sessions.php: GET the member's signed-in devices, DELETE one (by id,
 * the member's own only: another member's id is a 404 like an unknown one),
 * DELETE ?others=1 every one but this. Ending the current one is a logout.
 */
export const sessionRoutes = (db: Db) =>
  new Hono<AuthEnv>()
    .get(pathOf(endpoints.sessions), requireMember(db), async (c) => {
      const list = await listSessions(db, c.get('memberId'), c.get('sessionId'), nowOf(c))
      return c.json({ sessions: list } satisfies SessionsResponse)
    })
    .delete(
      pathOf(endpoints.endSession),
      requireMember(db),
      validate('query', DeleteQuery),
      async (c) => {
        const memberId = c.get('memberId')
        const current = c.get('sessionId')
        if (c.req.valid('query').others) {
          await endOtherSessions(db, memberId, current)
        } else {
          const raw = await c.req.json().catch(() => undefined)
          const { id } = parseOr400(endpoints.endSession.body, raw)
          if (!(await endSessionById(db, memberId, id))) throw notFound()
          if (id === current) {
            await endSession(c, db)
            return c.json({ sessions: [] } satisfies SessionsResponse)
          }
        }
        const list = await listSessions(db, memberId, current, nowOf(c))
        return c.json({ sessions: list } satisfies SessionsResponse)
      },
    )
