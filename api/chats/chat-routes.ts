import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { ChatStartResponse } from '../contract/index.ts'
import { ApiFailure } from '../http/errors.ts'
import { fromAnotherSite } from '../http/origin.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { conversationWith } from './conversations.ts'

/**
 * GET /api/chat.php?profile= (spec §7): the id of the conversation with that
 * member, made on first use; the client then navigates to /chats/{id}. A GET
 * that may create a row keeps the spec's contract; it is safe to repeat (one
 * conversation per pair), and another site's request (a link, an <img>) is
 * refused with 403 like a cross-site POST, so it creates nothing.
 */
export const chatRoutes = (db: Db) =>
  new Hono<AuthEnv>().get(
    pathOf(endpoints.chatStart),
    requireMember(db),
    queryOf(endpoints.chatStart),
    async (c) => {
      if (fromAnotherSite(c)) throw new ApiFailure(403, 'cross_origin_refused')
      const { profile } = c.req.valid('query')
      const id = await conversationWith(db, c.get('memberId'), profile)
      return c.json({ id } satisfies ChatStartResponse)
    },
  )
