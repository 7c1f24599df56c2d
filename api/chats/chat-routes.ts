import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { endpoints } from '../contract/endpoints.ts'
import type { ChatStartResponse } from '../contract/index.ts'
import { type AuthEnv, requireMember } from '../http/session.ts'
import { pathOf, queryOf } from '../http/validate.ts'
import { conversationWith } from './conversations.ts'

/**
 * GET /api/chat.php?profile= (spec §7): the id of the conversation with that
 * member, made on first use; the client then navigates to /chats/{id}. A GET
 * that may create a row keeps the spec's contract; it is safe to repeat (one
 * conversation per pair) and gives a cross-site caller nothing back.
 */
export const chatRoutes = (db: Db) =>
  new Hono<AuthEnv>().get(
    pathOf(endpoints.chatStart),
    requireMember(db),
    queryOf(endpoints.chatStart),
    async (c) => {
      const { profile } = c.req.valid('query')
      const id = await conversationWith(db, c.get('memberId'), profile)
      return c.json({ id } satisfies ChatStartResponse)
    },
  )
